// The test queue's list (knightly serve, /tests): every test as OpenBench's index shows it,
// and each engine's history of tested commits. All figures come from the server's `knightly
// query tests` table (runner/query/test_list.h), never computed here. Text from the database is
// set as text, never parsed as HTML.
(function () {
  'use strict';
  const POLL_MS = 2000;
  let data = JSON.parse(document.getElementById('knightly-data').textContent);
  let chart = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const c of children || []) node.append(c);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function fmtInt(n) { return n === null || n === undefined ? '' : Number(n).toLocaleString('en-US'); }
  function fixed(n, d) { return n === null || n === undefined ? '' : Number(n).toFixed(d); }
  function short(sha) { return sha ? sha.slice(0, 10) : '?'; }
  function rows() { return (data.queue && Array.isArray(data.queue.tests)) ? data.queue.tests : []; }

  // The LLR on a bar from its lower bound (left) to its upper (right).
  function llrCell(t) {
    if (t.llr === null || t.lower === null || t.upper === null) return el('td', { text: '' });
    const span = t.upper - t.lower;
    const at = span > 0 ? Math.min(1, Math.max(0, (t.llr - t.lower) / span)) : 0.5;
    const bar = el('div', { class: 'llr', title: 'LLR ' + fixed(t.llr, 2) + ' between ' + fixed(t.lower, 2) + ' and ' + fixed(t.upper, 2) });
    bar.append(el('div', { class: 'mark', style: 'left:' + (100 * at).toFixed(1) + '%' }));
    return el('td', { class: 'llr-cell', 'data-llr': String(t.llr), 'data-at': at.toFixed(4) }, [
      bar,
      el('div', { class: 'llr-text', text: fixed(t.llr, 2) + ' (' + fixed(t.lower, 2) + ', ' + fixed(t.upper, 2) + ')' +
                                          (t.elo0 !== null ? ' [' + fixed(t.elo0, 1) + ', ' + fixed(t.elo1, 1) + ']' : '') }),
    ]);
  }

  function eloText(t) {
    if (t.games === 0) return '';
    if (t.elo === null) return t.wins > t.losses ? '+inf' : (t.wins < t.losses ? '-inf' : '');
    return (t.elo >= 0 ? '+' : '') + fixed(t.elo, 2) + ' \u00b1 ' + fixed(t.elo95, 2);
  }

  function drawTests() {
    const list = rows();
    $('tests-total').textContent = fmtInt(list.length);
    $('generated').textContent = data.generated_at ? ', as of ' + data.generated_at : '';
    $('tests-empty').hidden = list.length > 0;
    const table = clear($('tests'));
    const head = ['Test', 'State', 'LLR', 'Elo', 'Games', 'Pentanomial', 'Commits (new, base)', 'Submitter', 'Submitted'];
    table.append(el('thead', {}, [el('tr', {}, head.map(h => el('th', { text: h })))]));
    const body = el('tbody');
    for (const t of list) {
      const name = el('td', {}, [el('a', { href: 'tests/' + t.id + '/', text: t.name })]);
      if (t.state === 'failed' && t.decision) {
        // A failed build's own last lines say most (what came after the ':' and a new line);
        // all of the reason on hover.
        const why = t.decision.replace(/^failed: /, '');
        const cut = why.indexOf(':\n');
        const lines = (cut >= 0 ? why.slice(cut + 2) : why).split('\n');
        name.append(el('div', { class: 'why', title: why, text: (lines.length > 4 ? '\u2026\n' : '') + lines.slice(-4).join('\n') }));
      }
      const commits = el('td', { class: 'commits' }, [
        el('div', {}, [document.createTextNode(short(t.new_commit) + ' '), el('span', { class: 'subject', text: t.new_subject || t.new || '' })]),
        el('div', {}, [document.createTextNode(short(t.base_commit) + ' '), el('span', { class: 'subject', text: t.base_subject || t.base || '' })]),
      ]);
      const ptnml = t.games ? '[' + [t.ll, t.ld, t.wl_dd, t.wd, t.ww].join(', ') + ']' : '';
      body.append(el('tr', { 'data-test': t.name, 'data-state': t.state }, [
        name,
        el('td', {}, [el('span', { class: 'state ' + t.state, text: t.state })]),
        llrCell(t),
        el('td', { class: 'num elo', text: eloText(t) }),
        el('td', { class: 'num', text: fmtInt(t.games) + (t.games ? ' (' + t.wins + '-' + t.draws + '-' + t.losses + ')' : '') }),
        el('td', { class: 'num ptnml', text: ptnml }),
        commits,
        el('td', { text: t.submitter || '' }),
        el('td', { text: (t.submitted || '') + (t.finished ? ' \u2192 ' + t.finished : '') }),
      ]));
    }
    table.append(body);
  }

  // One line per engine (repository): each tested commit's Elo against its base, in time.
  function drawHistory() {
    const byRepo = new Map();
    for (const t of rows()) {
      if (t.elo === null || t.elo === undefined || !t.games) continue;
      const repo = t.new_repo || t.new || '?';
      if (!byRepo.has(repo)) byRepo.set(repo, []);
      const when = Date.parse(t.finished || t.submitted);
      byRepo.get(repo).push({ x: when, y: t.elo, err: t.elo95 || 0, test: t });
    }
    const pick = $('history-repo');
    const chosen = pick.value;
    clear(pick);
    for (const repo of byRepo.keys()) pick.append(el('option', { value: repo, text: repo }));
    if (chosen && byRepo.has(chosen)) pick.value = chosen;
    $('history-pick').hidden = byRepo.size < 2;
    $('history-empty').hidden = byRepo.size > 0;
    const points = (byRepo.get(pick.value) || []).sort((a, b) => a.x - b.x);
    if (chart) { chart.destroy(); chart = null; }
    const canvas = $('chart-history');
    canvas.dataset.points = String(points.length);
    canvas.dataset.commits = points.map(p => short(p.test.new_commit)).join(' ');
    if (!points.length) return;
    // The 95% intervals as whiskers, drawn under the points.
    const whiskers = {
      id: 'whiskers',
      beforeDatasetsDraw(c) {
        const ctx = c.ctx, xs = c.scales.x, ys = c.scales.y, area = c.chartArea;
        ctx.save();
        ctx.beginPath();
        ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
        ctx.clip();
        ctx.strokeStyle = '#8aa2bf';
        for (const p of c.data.datasets[0].data) {
          const x = xs.getPixelForValue(p.x);
          ctx.beginPath();
          ctx.moveTo(x, ys.getPixelForValue(p.y - p.err));
          ctx.lineTo(x, ys.getPixelForValue(p.y + p.err));
          ctx.stroke();
        }
        ctx.restore();
      },
    };
    // Room for every interval, and for a single day or a single point.
    const lows = points.map(p => p.y - p.err), highs = points.map(p => p.y + p.err);
    const yPad = Math.max(1, 0.05 * (Math.max(...highs) - Math.min(...lows)));
    const xs = points.map(p => p.x);
    const xPad = Math.max(3600e3, 0.05 * (Math.max(...xs) - Math.min(...xs)));
    const days = (Math.max(...xs) - Math.min(...xs)) > 2 * 86400e3;
    chart = new Chart(canvas, {
      type: 'line',
      data: { datasets: [{ label: 'Elo against the base', data: points, borderColor: '#2f6fb3', backgroundColor: '#2f6fb3', showLine: true, pointRadius: 4 }] },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false, parsing: false,
        scales: {
          x: { type: 'linear', min: Math.min(...xs) - xPad, max: Math.max(...xs) + xPad,
               title: { display: true, text: 'decided (or submitted), UTC' },
               ticks: { maxTicksLimit: 8, callback: v => days ? new Date(v).toISOString().slice(0, 10)
                                                              : new Date(v).toISOString().slice(5, 16).replace('T', ' ') } },
          y: { min: Math.floor(Math.min(...lows) - yPad), max: Math.ceil(Math.max(...highs) + yPad),
               title: { display: true, text: 'Elo against the base' } },
        },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: ctx => {
            const p = ctx.raw, t = p.test;
            return short(t.new_commit) + ' ' + (t.new_subject || '') + ': ' + fixed(p.y, 1) + ' \u00b1 ' + fixed(p.err, 1) + ' (' + t.state + ', ' + t.name + ')';
          } } },
        },
      },
      plugins: [whiskers],
    });
  }

  function drawAll() {
    drawTests();
    drawHistory();
  }

  function poll() {
    fetch('api/tests', { cache: 'no-store' }).then(r => {
      if (!r.ok) throw new Error('api/tests: HTTP ' + r.status);
      return r.json();
    }).then(doc => {
      $('live-state').textContent = '';
      if (doc.generation === data.generation) return;
      data = doc;
      drawAll();
    }).catch(err => {
      $('live-state').textContent = ' \u00b7 connection lost (' + err.message + '), retrying';
    }).finally(() => setTimeout(poll, POLL_MS));
  }

  $('history-repo').addEventListener('change', drawHistory);
  drawAll();
  document.body.dataset.ready = '1';
  setTimeout(poll, POLL_MS);
})();
