// The Knightly report page: draws every section from the JSON data document embedded in the
// page (knightly report), and in live mode (knightly serve) polls the JSON API and redraws
// what changed. Text from the data only ever reaches the page as text nodes or attributes,
// never as markup.
(function () {
  'use strict';

  const LIVE = document.body.dataset.mode === 'live';
  const POLL_MS = 1000;
  let data = JSON.parse(document.getElementById('knightly-data').textContent);
  const charts = {};
  const PIECES = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };
  const COLORS = ['#2f6fb3', '#d9534f', '#5cb85c', '#f0ad4e', '#8e44ad', '#16a085', '#7f8c8d',
                  '#c0392b', '#2c3e50', '#d35400', '#27ae60', '#e84393'];

  // ------------------------------------------------------------------ small helpers
  function el(tag, props, children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null) continue;
        if (k === 'text') node.textContent = String(v);
        else if (k === 'class') node.className = v;
        else if (k === 'style') node.setAttribute('style', v);
        else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, v);
      }
    }
    for (const c of children || []) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }
  function svgEl(tag, attrs, textValue) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (textValue !== undefined) node.textContent = textValue;
    return node;
  }
  function $(id) { return document.getElementById(id); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function fmtInt(n) { return n === null || n === undefined ? '' : Number(n).toLocaleString('en-US'); }
  function fmtSeconds(s) {
    if (s === null || s === undefined) return 'unknown';
    s = Math.round(s);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + sec + 's';
  }
  function color(i) { return COLORS[i % COLORS.length]; }
  function fetchJson(url) {
    return fetch(url, { cache: 'no-store' }).then(r => {
      if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
      return r.json();
    });
  }
  function rowsOf(doc, name) {
    if (!doc || doc.error) return [];
    return Array.isArray(doc[name]) ? doc[name] : [];
  }

  // A Chart.js chart on a canvas, replacing the one drawn there before. Animation is off: a
  // live page redraws often, and a test reads the data right after drawing.
  function chart(id, config) {
    if (charts[id]) charts[id].destroy();
    config.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false },
                                   config.options || {});
    charts[id] = new Chart($(id), config);
    return charts[id];
  }
  function dropChart(id) {
    if (charts[id]) { charts[id].destroy(); delete charts[id]; }
  }
  function axisTitle(text) { return { display: true, text: text }; }
  // A horizontal bar chart (one row per engine or termination) as tall as its rows need, so
  // every row keeps its label however many there are.
  function fitRows(id, rows) {
    $(id).parentElement.style.height = Math.max(220, 60 + 26 * rows) + 'px';
  }
  const everyRowLabelled = { y: { ticks: { autoSkip: false } } };
  // An axis of counts (games, pairs, move numbers) has whole-number ticks only.
  function countAxis(title) { return { type: 'linear', ticks: { precision: 0 }, title: axisTitle(title) }; }

  // A table with one column per key of the rows, numbers right-aligned, null as empty.
  function fillTable(table, rows, columns) {
    clear(table);
    if (!rows.length) {
      table.append(el('tbody', null, [el('tr', null, [el('td', { text: 'No games.' })])]));
      return;
    }
    const cols = columns || Object.keys(rows[0]);
    table.append(el('thead', null, [el('tr', null, cols.map(c => el('th', { text: c })))]));
    const body = el('tbody');
    for (const row of rows) {
      body.append(el('tr', null, cols.map(c => {
        const v = row[c];
        return el('td', { class: typeof v === 'number' ? 'num' : null, text: v === null ? '' : v });
      })));
    }
    table.append(body);
  }

  // ------------------------------------------------------------------ header and navigation
  function drawHeader() {
    $('games-total').textContent = fmtInt(data.games_total);
    $('generated').textContent = data.generated_at ? ', as of ' + data.generated_at : '';
    const nav = clear($('nav'));
    for (const s of document.querySelectorAll('main > section')) {
      if (s.hidden) continue;
      const h = s.querySelector('h2');
      nav.append(el('a', { href: '#' + s.id, text: h.textContent }));
    }
  }

  // ------------------------------------------------------------------ standings and ratings
  function drawStandings() {
    fillTable($('standings'), rowsOf(data.standings, 'standings'));
  }

  function drawRatings() {
    const doc = data.ratings || {};
    const rows = rowsOf(doc, 'ratings');
    const section = $('ratings-section');
    const old = section.querySelector('.error');
    if (old) old.remove();
    if (!rows.length) {
      dropChart('chart-ratings');
      clear($('ratings'));
      section.querySelector('.chart-box').hidden = true;
      section.append(el('p', { class: 'error', text: doc.error || 'No ratings.' }));
      return;
    }
    section.querySelector('.chart-box').hidden = false;
    fillTable($('ratings'), rows);
    fitRows('chart-ratings', rows.length);
    chart('chart-ratings', {
      type: 'bar',
      data: {
        labels: rows.map(r => r.engine),
        datasets: [
          { label: '95% interval', data: rows.map(r => [r.rating - (r.error95 || 0), r.rating + (r.error95 || 0)]),
            backgroundColor: 'rgba(47, 111, 179, 0.25)', borderColor: '#2f6fb3', borderWidth: 1 },
          { type: 'line', label: 'rating', data: rows.map(r => r.rating), showLine: false,
            pointRadius: 5, pointBackgroundColor: '#1d232b', borderColor: '#1d232b' },
        ],
      },
      options: { indexAxis: 'y', scales: Object.assign({ x: { title: axisTitle('Elo') } }, everyRowLabelled) },
    });
  }

  // ------------------------------------------------------------------ head to head
  function heat(score) {
    // 0 -> red, 0.5 -> white, 1 -> green
    const t = Math.max(0, Math.min(1, score));
    const r = t < 0.5 ? 220 : Math.round(220 - (t - 0.5) * 2 * 130);
    const g = t < 0.5 ? Math.round(90 + t * 2 * 130) : 220;
    const b = t < 0.5 ? Math.round(90 + t * 2 * 130) : Math.round(220 - (t - 0.5) * 2 * 130);
    const mix = (c) => Math.round(255 - (255 - c) * Math.abs(t - 0.5) * 2);
    return 'rgb(' + mix(r) + ',' + mix(g) + ',' + mix(b) + ')';
  }

  function drawH2h() {
    const rows = rowsOf(data.h2h, 'h2h');
    const table = clear($('h2h'));
    const names = [...new Set(rows.flatMap(r => [r.engine, r.opponent]))].sort();
    if (!names.length) {
      table.append(el('tbody', null, [el('tr', null, [el('td', { text: 'No games.' })])]));
      return;
    }
    const cell = {};
    for (const r of rows) cell[r.engine + '\u0000' + r.opponent] = r;
    table.append(el('thead', null, [el('tr', null, [el('th', { text: '' }), ...names.map(n => el('th', { text: n }))])]));
    const body = el('tbody');
    for (const a of names) {
      const tds = [el('th', { text: a })];
      for (const b of names) {
        const r = cell[a + '\u0000' + b];
        if (a === b) tds.push(el('td', { class: 'self', text: '-' }));
        else if (!r || !r.games) tds.push(el('td', { text: '' }));
        else tds.push(el('td', { style: 'background:' + heat(r.points / r.games),
                                 title: a + ' vs ' + b + ': +' + r.wins + ' =' + r.draws + ' -' + r.losses,
                                 text: r.points + '/' + r.games }));
      }
      body.append(el('tr', null, tds));
    }
    table.append(body);
  }

  // ------------------------------------------------------------------ workers
  // Shown for a test whose time control is scaled to each worker's speed.
  function drawWorkers() {
    const rows = rowsOf(data.workers, 'workers').filter(r => r.tc_factor !== null && r.tc_factor !== undefined);
    $('workers-section').hidden = rows.length === 0;
    if (!rows.length) return;
    fillTable($('workers'), rows, ['id', 'host', 'pid', 'games', 'nps', 'tc_factor', 'speed_note', 'crashes', 'time_losses', 'last_seen']);
  }

  // ------------------------------------------------------------------ terminations
  function drawTerminations() {
    const rows = rowsOf(data.terminations, 'terminations');
    fillTable($('terminations'), rows);
    const sums = {};
    for (const r of rows) sums[r.termination] = (sums[r.termination] || 0) + r.count;
    const labels = Object.keys(sums);
    if (!labels.length) { dropChart('chart-terminations'); return; }
    fitRows('chart-terminations', labels.length);
    chart('chart-terminations', {
      type: 'bar',
      data: { labels: labels, datasets: [{ label: 'games', data: labels.map(l => sums[l]), backgroundColor: '#2f6fb3' }] },
      options: { indexAxis: 'y', scales: Object.assign({ x: countAxis('games') }, everyRowLabelled),
                 plugins: { legend: { display: false } } },
    });
  }

  // ------------------------------------------------------------------ engine health
  function drawHealth() {
    fillTable($('health'), rowsOf(data.health, 'health'));
  }

  // ------------------------------------------------------------------ two-engine match
  function drawMatch() {
    const m = data.match;
    const section = $('match-section');
    section.hidden = !m;
    if (!m) { ['chart-elo', 'chart-llr', 'chart-ptnml'].forEach(dropChart); return; }
    const g = m.games;
    let text = m.first + ' vs ' + m.second + ': +' + g.wins + ' =' + g.draws + ' -' + g.losses +
               ' (Elo from ' + m.elo_from + ')';
    // The Elo as the run and knightly query print it (one function: stats::elo_text).
    if (m.elo.length) text += ', Elo ' + m.elo_text;
    if (m.sprt) text += '; SPRT [' + m.sprt.elo0 + ', ' + m.sprt.elo1 + '] ' + m.sprt.model +
                        ': LLR ' + m.sprt.llr.toFixed(2) + ' (' + m.sprt.lower.toFixed(2) + ', ' +
                        m.sprt.upper.toFixed(2) + '), ' + m.sprt.decision +
                        (m.sprt.decided_after !== null ? ' after ' + fmtInt(m.sprt.decided_after) + ' games' : '');
    $('match-summary').textContent = text;
    // A 100% (0%) score has no finite Elo: its points hold only the 95% bound (null elsewhere).
    const xy = (i) => m.elo.map(p => ({ x: p[0], y: p[i] }));
    chart('chart-elo', {
      type: 'line',
      data: { datasets: [
        { label: '95% low', data: xy(2), borderColor: 'rgba(47,111,179,0.3)', pointRadius: 0, fill: false },
        { label: '95% high', data: xy(3), borderColor: 'rgba(47,111,179,0.3)', pointRadius: 0,
          backgroundColor: 'rgba(47,111,179,0.15)', fill: '-1' },
        { label: 'Elo of ' + m.first, data: xy(1), borderColor: '#1d232b', pointRadius: 0, fill: false },
      ] },
      options: { parsing: false, scales: { x: countAxis('games'), y: { title: axisTitle('Elo') } },
                 plugins: { title: { display: true, text: 'Elo over games' } } },
    });
    $('llr-box').hidden = !m.sprt;
    if (m.sprt) {
      const path = m.sprt.llr_path.map(p => ({ x: p[0], y: p[1] }));
      const x0 = path.length ? path[0].x : 0, x1 = path.length ? path[path.length - 1].x : 1;
      chart('chart-llr', {
        type: 'line',
        data: { datasets: [
          { label: 'LLR', data: path, borderColor: '#1d232b', pointRadius: 0 },
          { label: 'accept H1', data: [{ x: x0, y: m.sprt.upper }, { x: x1, y: m.sprt.upper }], borderColor: '#5cb85c', borderDash: [6, 4], pointRadius: 0 },
          { label: 'accept H0', data: [{ x: x0, y: m.sprt.lower }, { x: x1, y: m.sprt.lower }], borderColor: '#d9534f', borderDash: [6, 4], pointRadius: 0 },
        ] },
        options: { parsing: false, scales: { x: countAxis('games'), y: { title: axisTitle('LLR') } },
                   plugins: { title: { display: true, text: 'SPRT log-likelihood ratio' } } },
      });
    } else {
      dropChart('chart-llr');
    }
    chart('chart-ptnml', {
      type: 'bar',
      data: { labels: ['LL', 'LD', 'WL', 'DD', 'WD', 'WW'],
              datasets: [{ label: 'pairs', data: m.ptnml, backgroundColor: ['#d9534f', '#f0ad4e', '#aaaaaa', '#cccccc', '#9fd49f', '#5cb85c'] }] },
      options: { scales: { y: { ticks: { precision: 0 }, title: axisTitle('pairs') } },
                 plugins: { legend: { display: false }, title: { display: true, text: 'Game pairs (pentanomial), ' + m.first + "'s view" } } },
    });
  }

  // ------------------------------------------------------------------ moves per engine
  const MOVE_CHARTS = [
    ['chart-depth', 2, 'Depth per move', 'depth'],
    ['chart-nodes', 3, 'Nodes per move', 'nodes'],
    ['chart-nps', 4, 'Nodes per second', 'nps'],
    ['chart-time', 5, 'Time used per move', 'ms'],
    ['chart-clock', 6, 'Clock left after the move', 'ms'],
  ];

  function drawMoves() {
    const ms = data.moves || { engines: [], games: 0, of: 0 };
    $('moves-note').textContent = ms.games === ms.of
      ? 'Averages per move number over the engines\u2019 non-book moves in all ' + fmtInt(ms.of) + ' games.'
      : 'Averages per move number over the engines\u2019 non-book moves in the newest ' + fmtInt(ms.games) +
        ' of ' + fmtInt(ms.of) + ' games.';
    for (const [id, col, title, unit] of MOVE_CHARTS) {
      const datasets = ms.engines.map((e, i) => ({
        label: e.engine,
        data: e.rows.filter(r => r[col] !== null).map(r => ({ x: r[0], y: r[col] })),
        borderColor: color(i), backgroundColor: color(i), pointRadius: 0, borderWidth: 1.5,
      })).filter(d => d.data.length);
      const box = $(id).parentElement;
      box.hidden = !datasets.length;
      if (!datasets.length) { dropChart(id); continue; }
      chart(id, {
        type: 'line',
        data: { datasets: datasets },
        options: { parsing: false, scales: { x: countAxis('move'), y: { title: axisTitle(unit) } },
                   plugins: { title: { display: true, text: title } } },
      });
    }
  }

  // ------------------------------------------------------------------ game list
  const list = { rows: [], nextBefore: null, total: 0, selected: null };

  function filters() {
    return { engine: $('filter-engine').value, result: $('filter-result').value,
             termination: $('filter-termination').value };
  }

  function fillFilterOptions() {
    const keep = filters();
    const engines = rowsOf(data.standings, 'standings').map(r => r.engine).sort();
    const terms = [...new Set(rowsOf(data.terminations, 'terminations').map(r => r.termination))].sort();
    for (const [id, values, current] of [['filter-engine', engines, keep.engine], ['filter-termination', terms, keep.termination]]) {
      const sel = clear($(id));
      sel.append(el('option', { value: '', text: 'any' }));
      for (const v of values) sel.append(el('option', { value: v, text: v }));
      sel.value = values.includes(current) ? current : '';
    }
  }

  function matches(row, f) {
    return (!f.engine || row.white === f.engine || row.black === f.engine) &&
           (!f.result || row.result === f.result) && (!f.termination || row.termination === f.termination);
  }

  function gamesQuery(before) {
    const f = filters();
    const q = new URLSearchParams();
    if (f.engine) q.set('engine', f.engine);
    if (f.result) q.set('result', f.result);
    if (f.termination) q.set('termination', f.termination);
    if (before) q.set('before', before);
    q.set('limit', '50');
    return 'api/games?' + q.toString();
  }

  function loadGames(append) {
    if (!LIVE) {
      const f = filters();
      const all = data.games ? data.games.rows : [];
      list.rows = all.filter(r => matches(r, f));
      list.total = data.games ? data.games.total : 0;
      list.nextBefore = null;
      drawGames();
      return Promise.resolve();
    }
    return fetchJson(gamesQuery(append ? list.nextBefore : null)).then(page => {
      list.rows = append ? list.rows.concat(page.rows) : page.rows;
      list.total = page.total;
      list.nextBefore = page.next_before;
      drawGames();
    });
  }

  function drawGames() {
    const shown = data.games ? data.games.rows.length : 0;
    $('games-note').textContent = LIVE
      ? fmtInt(list.total) + ' games match; newest first, 50 at a time.'
      : (shown < (data.games ? data.games.total : 0)
          ? 'This file holds the newest ' + fmtInt(shown) + ' of ' + fmtInt(data.games.total) +
            ' games for replay (knightly report --games N holds more; knightly serve pages through all). ' +
            'Standings, ratings, head to head, terminations and the match charts cover all games.'
          : 'All ' + fmtInt(shown) + ' games, newest first.');
    const table = clear($('games'));
    const cols = ['id', 'round', 'white', 'black', 'result', 'termination', 'plies', 'started_at'];
    table.append(el('thead', null, [el('tr', null, cols.map(c => el('th', { text: c === 'started_at' ? 'started' : c })))]));
    const body = el('tbody');
    for (const r of list.rows) {
      const tr = el('tr', { 'data-id': r.id, class: r.id === list.selected ? 'selected' : null,
                            title: r.reason, onclick: () => openGame(r.id) },
                    cols.map(c => el('td', { class: typeof r[c] === 'number' ? 'num' : null, text: r[c] })));
      body.append(tr);
    }
    if (!list.rows.length) body.append(el('tr', null, [el('td', { colspan: cols.length, text: 'No games.' })]));
    table.append(body);
    $('games-more').hidden = !(LIVE && list.nextBefore);
  }

  // ------------------------------------------------------------------ board and replay
  const view = { game: null, ply: 0 };

  function placementOf(fen) { return (fen || '').split(' ')[0]; }

  // Squares -> piece letters ("e4" -> "P", "e5" -> "p") of a FEN placement.
  function parsePlacement(placement) {
    const squares = {};
    const ranks = placement.split('/');
    for (let r = 0; r < 8 && r < ranks.length; ++r) {
      let file = 0;
      for (const ch of ranks[r]) {
        if (ch >= '1' && ch <= '8') { file += Number(ch); continue; }
        squares['abcdefgh'[file] + (8 - r)] = ch;
        file += 1;
      }
    }
    return squares;
  }

  function drawBoard(container, placement, lastMove, withCoords) {
    const svg = svgEl('svg', { viewBox: '0 0 400 400', role: 'img', 'data-placement': placement });
    const hl = lastMove ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
    for (let r = 0; r < 8; ++r) {
      for (let f = 0; f < 8; ++f) {
        const sq = 'abcdefgh'[f] + (8 - r);
        svg.append(svgEl('rect', { x: f * 50, y: r * 50, width: 50, height: 50,
                                   fill: (r + f) % 2 ? 'var(--dark-sq)' : 'var(--light-sq)' }));
        if (hl.includes(sq)) svg.append(svgEl('rect', { x: f * 50, y: r * 50, width: 50, height: 50, fill: 'var(--hl)' }));
      }
    }
    if (withCoords) {
      for (let i = 0; i < 8; ++i) {
        svg.append(svgEl('text', { x: i * 50 + 43, y: 396, class: 'coord' }, 'abcdefgh'[i]));
        svg.append(svgEl('text', { x: 2, y: i * 50 + 11, class: 'coord' }, String(8 - i)));
      }
    }
    const squares = parsePlacement(placement);
    for (const [sq, p] of Object.entries(squares)) {
      const f = sq.charCodeAt(0) - 97, r = 8 - Number(sq[1]);
      const white = p === p.toUpperCase();
      svg.append(svgEl('text', { x: f * 50 + 25, y: r * 50 + 27, class: 'piece ' + (white ? 'w' : 'b'),
                                 'data-square': sq, 'data-piece': p }, PIECES[p.toUpperCase()] || '?'));
    }
    clear(container).append(svg);
  }

  function whiteScore(game, ply) {
    // Ply index i (0-based) was played by White when the game started with White to move
    // and i is even.
    const blackFirst = (game.start_fen.split(' ')[1] || 'w') === 'b';
    const m = game.moves[ply];
    const byWhite = (ply % 2 === 0) !== blackFirst;
    let s = null;
    if (m[4] !== null) s = m[4] > 0 ? 20 : -20;
    else if (m[3] !== null) s = Math.max(-20, Math.min(20, m[3] / 100));
    if (s === null) return null;
    return byWhite ? s : -s;
  }

  function showPly(ply) {
    const g = view.game;
    if (!g) return;
    view.ply = Math.max(0, Math.min(g.moves.length, ply));
    // Every ply carries its full FEN (move counters, castling, en passant): shown as it is,
    // so it can be pasted into another program.
    const fen = view.ply === 0 ? g.start_fen : g.moves[view.ply - 1][2];
    const placement = placementOf(fen);
    const error = $('viewer-error');
    if (view.ply > 0 && !placement) {
      error.hidden = false;
      error.textContent = 'This move cannot be replayed: ' + g.replay_error;
    } else {
      error.hidden = !g.replay_error;
      error.textContent = g.replay_error ? 'Replay stops early: ' + g.replay_error : '';
      drawBoard($('board'), placement, view.ply ? g.moves[view.ply - 1][0] : null, true);
    }
    const atEnd = view.ply === g.moves.length;
    $('ply-label').textContent = view.ply === 0 ? 'start' : 'ply ' + view.ply + ' / ' + g.moves.length;
    $('viewer-fen').textContent = atEnd && g.final_fen ? g.final_fen : fen;
    for (const span of document.querySelectorAll('#movelist span')) {
      span.classList.toggle('current', Number(span.dataset.ply) === view.ply);
    }
    const current = document.querySelector('#movelist span.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
  }

  function drawGame(g) {
    view.game = g;
    $('viewer').hidden = false;
    $('viewer-title').textContent = g.white + ' \u2013 ' + g.black + '  ' + g.result;
    $('viewer-meta').textContent = [g.reason, g.tournament + ' round ' + g.round + ', pair ' + g.pair + ', game ' + g.game,
                                    g.time_control && 'tc ' + g.time_control, g.opening && 'opening ' + g.opening,
                                    g.started_at].filter(Boolean).join(' \u00b7 ');
    const a = $('pgn-download');
    a.href = 'data:application/x-chess-pgn;charset=utf-8,' + encodeURIComponent(g.pgn);
    a.download = 'knightly-game-' + g.id + '.pgn';
    const ol = clear($('movelist'));
    const blackFirst = (g.start_fen.split(' ')[1] || 'w') === 'b';
    // Moves are numbered from the start position's move number, as the PGN numbers them (a
    // game from a book starts at 4. g4, or 14... Qh4#).
    const firstMove = Math.max(1, parseInt(g.start_fen.split(' ')[5], 10) || 1);
    ol.setAttribute('start', String(firstMove));
    let li = null;
    g.moves.forEach((m, i) => {
      const byWhite = (i % 2 === 0) !== blackFirst;
      if (byWhite || !li) { li = el('li'); ol.append(li); if (!byWhite) li.append('\u2026 '); }
      li.append(el('span', { 'data-ply': i + 1, class: m[9] ? 'book' : null, text: m[1] || m[0],
                             onclick: () => showPly(i + 1) }), ' ');
    });
    const scores = g.moves.map((m, i) => ({ x: i + 1, y: whiteScore(g, i) })).filter(p => p.y !== null);
    // A move with a mate score carries the engine's maximum depth (Stockfish: 245), not how deep
    // it searched: left out, so the depth axis fits the real depths.
    const depths = g.moves.map((m, i) => ({ x: i + 1, y: m[9] || m[4] !== null ? null : m[5] }))
                          .filter(p => p.y !== null);
    chart('chart-game', {
      type: 'line',
      data: { datasets: [
        { label: 'score (White, pawns)', data: scores, borderColor: '#1d232b', pointRadius: 0, yAxisID: 'y' },
        { label: 'depth', data: depths, borderColor: '#f0ad4e', pointRadius: 0, yAxisID: 'y1' },
      ] },
      options: { parsing: false,
                 scales: { x: countAxis('ply'), y: { title: axisTitle('pawns') },
                           y1: { position: 'right', title: axisTitle('depth'), grid: { drawOnChartArea: false } } },
                 onClick: (e, items) => { if (items.length) showPly(items[0].element.$context.raw.x); } },
    });
    showPly(0);
  }

  function openGame(id) {
    list.selected = id;
    for (const tr of document.querySelectorAll('#games tbody tr')) tr.classList.toggle('selected', Number(tr.dataset.id) === id);
    if (!LIVE) {
      const g = data.details && data.details[String(id)];
      if (g) drawGame(g);
      return Promise.resolve();
    }
    return fetchJson('api/game/' + id).then(drawGame);
  }

  $('ply-start').addEventListener('click', () => showPly(0));
  $('ply-prev').addEventListener('click', () => showPly(view.ply - 1));
  $('ply-next').addEventListener('click', () => showPly(view.ply + 1));
  $('ply-end').addEventListener('click', () => showPly(view.game ? view.game.moves.length : 0));
  document.addEventListener('keydown', (e) => {
    if (!view.game || e.target.tagName === 'SELECT') return;
    if (e.key === 'ArrowRight') showPly(view.ply + 1);
    else if (e.key === 'ArrowLeft') showPly(view.ply - 1);
    else if (e.key === 'Home') showPly(0);
    else if (e.key === 'End') showPly(view.game.moves.length);
  });
  for (const id of ['filter-engine', 'filter-result', 'filter-termination']) $(id).addEventListener('change', () => loadGames(false));
  $('games-more').addEventListener('click', () => loadGames(true));

  // ------------------------------------------------------------------ live: progress, games being played
  function drawSummary(s) {
    $('live').hidden = false;
    $('games-total').textContent = fmtInt(s.games);
    $('live-state').textContent = ' \u00b7 live, updated ' + s.now;
    const box = clear($('progress'));
    for (const t of s.tournaments) {
      const pct = t.total ? Math.min(100, 100 * t.games / t.total) : null;
      const line = t.name + ' (' + t.kind + ', ' + t.status + '): ' + fmtInt(t.games) +
                   (t.total ? ' / ' + fmtInt(t.total) + ' games (' + pct.toFixed(1) + '%)' : ' games') +
                   (t.games_per_hour !== null ? ', ' + fmtInt(Math.round(t.games_per_hour)) + ' games/h' : '') +
                   (t.status === 'running' && t.total ? ', ETA ' + fmtSeconds(t.eta_s) : '');
      const row = el('div', { class: 'progress-row', 'data-tournament': t.name }, [el('div', { text: line })]);
      if (pct !== null) row.append(el('div', { class: 'bar' }, [el('div', { style: 'width:' + pct.toFixed(2) + '%' })]));
      box.append(row);
    }
    const active = clear($('active'));
    if (!s.active.length) {
      active.append(el('p', { class: 'note', text: s.active_note || 'No game is being played.' }));
    } else {
      const wrap = el('div', { class: 'active-games' });
      for (const a of s.active) {
        const card = el('div', { class: 'active-game', 'data-tournament': a.tournament }, [
          el('div', { text: (a.white || '?') + ' \u2013 ' + (a.black || '?') }),
          el('div', { class: 'note', text: a.tournament + ' round ' + a.round + ', pair ' + a.pair + ', game ' + a.game +
                                           (a.ply ? ', ply ' + a.ply : '') + ' \u00b7 ' + a.worker +
                                           ' \u00b7 heartbeat ' + Math.round(a.heartbeat_ago_ms / 1000) + ' s ago' }),
        ]);
        if (a.fen) { const b = el('div'); drawBoard(b, placementOf(a.fen), null, false); card.prepend(b); }
        wrap.append(card);
      }
      active.append(wrap);
    }
  }

  // The summary every second; the whole document again when the database changed since the
  // one shown was built (a stale answer from the server's cache is fetched again next time).
  let fetching = false;
  function poll() {
    fetchJson('api/summary').then(s => {
      drawSummary(s);
      if (s.generation === data.generation || fetching) return null;
      fetching = true;
      return fetchJson('api/report').then(doc => {
        if (doc.generation === data.generation) return null;
        data = doc;
        drawAll();
        if (!list.nextBefore || list.rows.length <= 50) return loadGames(false);
        return null;
      }).finally(() => { fetching = false; });
    }).catch(err => {
      $('live-state').textContent = ' \u00b7 connection lost (' + err.message + '), retrying';
    }).finally(() => setTimeout(poll, POLL_MS));
  }

  // ------------------------------------------------------------------ everything
  function drawAll() {
    drawStandings();
    drawRatings();
    drawH2h();
    drawTerminations();
    drawHealth();
    drawWorkers();
    drawMatch();
    drawMoves();
    fillFilterOptions();
    drawHeader();
  }

  drawAll();
  loadGames(false).then(() => {
    if (list.rows.length) return openGame(list.rows[0].id);
    return null;
  }).finally(() => { document.body.dataset.ready = '1'; });
  if (LIVE) poll();
})();
