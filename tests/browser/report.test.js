// knightly report in a real browser with the network off: the standings table equals
// `knightly query standings --format json`, every chart has its data points, replaying a game
// to its end shows the final position pgn-extract computes from the game's stored PGN (the
// page's download, found in `knightly export`), a hostile engine name shows as text and opens
// no dialog. The screenshots are kept in the build directory (KNIGHTLY_BROWSER_OUTPUT).
'use strict';

const fs = require('fs');
const path = require('path');
const t = require('./lib');

const knightly = t.env('KNIGHTLY');
const engine = t.env('KNIGHTLY_ENGINE');
const mock = t.env('KNIGHTLY_MOCK');
const output = t.env('KNIGHTLY_BROWSER_OUTPUT');
const pgnExtract = process.env.KNIGHTLY_PGN_EXTRACT || '/usr/games/pgn-extract';
const HOSTILE = '<script>alert(1)</script>';

// A database with a three-engine round robin under a clock (one engine is a UCI process with
// a hostile name) and an SPRT between two of its engines.
function makeDatabase(dir) {
  const db = path.join(dir, 'report.db');
  fs.writeFileSync(path.join(dir, 'trio.toml'), [
    '[tournament]', 'name = "trio"', 'rounds = 2', 'concurrency = 2', 'seed = 17', 'maxmoves = 40',
    'tc = "2+0.05"', '[openings]', 'random_plies = 4',
    '[[engine]]', 'name = "ab"', 'builtin = true', 'options = { Search = "alphabeta", Eval = "material+pst" }',
    '[[engine]]', 'name = "greedy"', 'builtin = true', 'options = { Search = "greedy" }',
    '[[engine]]', 'name = ' + JSON.stringify(HOSTILE), 'command = ' + JSON.stringify(engine),
    'options = { Search = "random" }', '',
  ].join('\n'));
  t.run([knightly, 'run', path.join(dir, 'trio.toml'), '--db', db, '--quiet']);
  t.run([knightly, 'sprt', '--new', 'builtin=ab name=ab option.Search=alphabeta option.Eval=material+pst',
         '--base', 'builtin=greedy name=greedy option.Search=greedy', '--depth', '2', '--elo0', '0', '--elo1', '200',
         '--max-games', '24', '--concurrency', '2', '--name', 'gate', '--db', db, '--quiet'], { expect: [0, 1, 3] });
  return db;
}

// A ladder of twelve random movers (one [[engine]] with a ladder), a gauntlet from the first:
// more rows than the ratings chart's default height labels.
function makeLadder(dir) {
  const db = path.join(dir, 'ladder.db');
  fs.writeFileSync(path.join(dir, 'ladder.toml'), [
    '[tournament]', 'name = "ladder"', 'format = "gauntlet"', 'rounds = 1', 'concurrency = 2', 'seed = 5',
    'maxmoves = 30', 'depth = 1', '[[engine]]', 'name = "r"', 'builtin = true', 'options = { Search = "random" }',
    'ladder = { key = "nodes", values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }', '',
  ].join('\n'));
  t.run([knightly, 'run', path.join(dir, 'ladder.toml'), '--db', db, '--quiet']);
  return db;
}

// A match of the mock engine's faults: one that crashes on its third move, one that answers
// illegal moves, one that thinks past its clock, and a steady one.
function makeFaults(dir) {
  const db = path.join(dir, 'faults.db');
  t.run([knightly, 'play', '-engine', 'cmd=' + mock, 'name=crasher', 'args=--seed 1 --crash-on-go 3',
         '-engine', 'cmd=' + mock, 'name=cheat', 'args=--seed 2 --illegal-move',
         '-engine', 'cmd=' + mock, 'name=slow', 'args=--seed 3 --delay 1500',
         '-engine', 'cmd=' + mock, 'name=steady', 'args=--seed 4',
         '-each', 'tc=1+0.01', '-rounds', '1', '-games', '2', '-maxmoves', '15', '-recover', '-db', db]);
  return db;
}

async function openReport(context, file) {
  const page = await context.newPage();
  const seen = t.watch(page);
  // Nothing may leave the page: offline, and any request that is not the file itself aborted.
  await context.setOffline(true);
  await page.route('**/*', (route) => (route.request().url().startsWith('file://') ? route.continue() : route.abort()));
  await page.goto('file://' + file);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  return { page, seen };
}

async function checkCharts(page, expected, what) {
  const list = await t.charts(page);
  const ids = list.map((c) => c.id).sort();
  for (const id of expected) t.check(ids.includes(id), what + ': chart ' + id + ' is drawn', ids);
  for (const c of list) {
    t.check(c.visible, what + ': chart ' + c.id + ' is visible');
    t.check(c.datasets.length > 0 && c.datasets.every((d) => d.points > 0),
            what + ': chart ' + c.id + ' has data points in every dataset', c.datasets);
  }
  // No canvas in a shown section is left without its chart.
  const bare = await page.evaluate(() => [...document.querySelectorAll('canvas')]
    .filter((cv) => cv.offsetParent !== null && !Object.values(Chart.instances).some((c) => c.canvas === cv))
    .map((cv) => cv.id));
  t.check(bare.length === 0, what + ': every visible canvas has a chart', bare);
}

async function checkStandings(page, db, args, what) {
  const json = JSON.parse(t.run([knightly, 'query', 'standings', '--db', db, '--format', 'json', ...args]));
  t.require(json.standings.length > 0, what + ': the query has standings');
  const shown = await t.tableRows(page, '#standings');
  const diff = t.sameTable(shown, json.standings);
  t.check(diff === null, what + ': the standings table equals knightly query standings --format json', diff);
  return json.standings;
}

// Replays the shown game move by move with the "next" button and compares the board at the
// end with pgn-extract's final position for the game's stored PGN: the one the page offers for
// download, which is found verbatim in `knightly export` (the PGN column of the database).
async function checkReplay(page, dir, db, what) {
  const href = await page.getAttribute('#pgn-download', 'href');
  t.require(href && href.startsWith('data:application/x-chess-pgn'), what + ': the PGN download link is there');
  const pgn = decodeURIComponent(href.slice(href.indexOf(',') + 1));
  t.require(pgn.includes('[Result "') && t.run([knightly, 'export', '--db', db]).includes(pgn),
            what + ': the page\'s PGN is the game\'s stored PGN (knightly export)', pgn.slice(0, 400));
  const pgnFile = path.join(dir, 'replayed.pgn');
  fs.writeFileSync(pgnFile, pgn);
  const extracted = t.run([pgnExtract, '-F', '-s', pgnFile]);
  const fens = [...extracted.matchAll(/\{ "([^"]+)" \}/g)].map((m) => m[1]);
  t.require(fens.length === 1, what + ': pgn-extract reads the downloaded PGN and gives its final FEN', extracted.slice(0, 400));
  const finalFen = fens[0];

  const plies = await page.evaluate(() => document.querySelectorAll('#movelist span[data-ply]').length);
  t.require(plies > 0, what + ': the game has moves to replay');
  await page.click('#ply-start');
  t.check((await page.textContent('#ply-label')) === 'start', what + ': the replay starts at the start');
  for (let i = 0; i < plies; ++i) await page.click('#ply-next');
  t.check((await page.textContent('#ply-label')) === 'ply ' + plies + ' / ' + plies, what + ': the replay reached the last ply');
  const board = await t.boardPieces(page);
  const want = t.placementPieces(finalFen.split(' ')[0]);
  t.check(JSON.stringify(Object.entries(board).sort()) === JSON.stringify(Object.entries(want).sort()),
          what + ': the board at the end is the final position (' + finalFen + ')', board);
  const shownFen = (await page.textContent('#viewer-fen')).trim();
  t.check(shownFen.split(' ').slice(0, 3).join(' ') === finalFen.split(' ').slice(0, 3).join(' '),
          what + ': the FEN shown at the end agrees with pgn-extract', shownFen);
  // One step back and forward again: the replay is not stuck at the end.
  await page.click('#ply-prev');
  t.check((await page.textContent('#ply-label')) === 'ply ' + (plies - 1) + ' / ' + plies, what + ': one ply back');
}

t.main(async () => {
  const dir = t.tempDir('knightly-report-test-');
  fs.mkdirSync(output, { recursive: true });
  const db = makeDatabase(dir);
  const context = await t.launchBrowser();

  // The whole database: three engines, two tournaments.
  const all = path.join(dir, 'all.html');
  t.run([knightly, 'report', '--db', db, '-o', all, '--title', 'Knightly <b>report</b> test']);
  {
    const { page, seen } = await openReport(context, all);
    t.check(seen.requests.every((u) => u.startsWith('file://')), 'all: the page loads nothing but itself', seen.requests);
    t.check((await page.title()) === 'Knightly <b>report</b> test', 'all: the title shows as text');
    const standings = await checkStandings(page, db, [], 'all');
    t.check(standings.some((r) => r.engine === HOSTILE), 'all: the hostile engine is in the standings');
    const cells = await page.$$eval('#standings td', (tds) => tds.map((td) => td.textContent));
    t.check(cells.includes(HOSTILE), 'all: the hostile name shows as text in the table');
    t.check((await page.$$eval('script', (s) => s.length)) === 3, 'all: no script element was injected');
    await checkCharts(page, ['chart-ratings', 'chart-terminations', 'chart-depth', 'chart-nodes', 'chart-nps',
                             'chart-time', 'chart-clock', 'chart-game'], 'all');
    t.check(await page.isHidden('#match-section'), 'all: no match section with three engines');
    const gamesTotal = Number((await page.textContent('#games-total')).replace(/,/g, ''));
    const queried = JSON.parse(t.run([knightly, 'query', 'tournaments', '--db', db, '--format', 'json']));
    t.check(gamesTotal === queried.tournaments.reduce((n, r) => n + r.games, 0), 'all: the game count is the database\'s', gamesTotal);

    // Filter the list by the hostile engine: every row has it.
    await page.selectOption('#filter-engine', HOSTILE);
    const rows = await t.tableRows(page, '#games');
    t.check(rows.length > 0 && rows.every((r) => r.white === HOSTILE || r.black === HOSTILE), 'all: the engine filter keeps its games', rows.length);
    await page.click('#games tbody tr');
    await checkReplay(page, dir, db, 'all');
    t.check(seen.dialogs.length === 0, 'all: no dialog opened', seen.dialogs);
    t.check(seen.errors.length === 0, 'all: no script error', seen.errors);
    await page.screenshot({ path: path.join(output, 'report.png'), fullPage: true });
    t.log('screenshot ' + path.join(output, 'report.png'));
  }

  // The SPRT alone: the match section with Elo, LLR and pentanomial charts.
  const gate = path.join(dir, 'gate.html');
  t.run([knightly, 'report', '--db', db, '--tournament', 'gate', '-o', gate]);
  {
    const { page, seen } = await openReport(context, gate);
    t.check(seen.requests.every((u) => u.startsWith('file://')), 'gate: the page loads nothing but itself', seen.requests);
    await checkStandings(page, db, ['--tournament', 'gate'], 'gate');
    t.check(await page.isVisible('#match-section'), 'gate: the match section shows');
    await checkCharts(page, ['chart-elo', 'chart-llr', 'chart-ptnml', 'chart-ratings', 'chart-depth', 'chart-game'], 'gate');
    const sprt = JSON.parse(t.run([knightly, 'query', 'sprt', '--db', db, '--tournament', 'gate', '--format', 'json'])).sprt[0];
    const llr = await page.evaluate(() => {
      const c = Object.values(Chart.instances).find((x) => x.canvas.id === 'chart-llr');
      const d = c.data.datasets[0].data;
      return { last: d[d.length - 1].y, upper: c.data.datasets[1].data[0].y, lower: c.data.datasets[2].data[0].y };
    });
    t.check(Math.abs(llr.last - sprt.llr) < 1e-3, 'gate: the LLR path ends at knightly query sprt\'s LLR', [llr.last, sprt.llr]);
    t.check(Math.abs(llr.upper - sprt.upper) < 1e-3 && Math.abs(llr.lower - sprt.lower) < 1e-3, 'gate: the bounds are query sprt\'s', llr);
    await checkReplay(page, dir, db, 'gate');
    t.check(seen.dialogs.length === 0, 'gate: no dialog opened', seen.dialogs);
    t.check(seen.errors.length === 0, 'gate: no script error', seen.errors);
    await page.screenshot({ path: path.join(output, 'report-sprt.png'), fullPage: true });
    t.log('screenshot ' + path.join(output, 'report-sprt.png'));
  }

  // A game from a book position (Black to move at move 14): the viewer numbers its moves as
  // the PGN does, and shows the whole FEN of every position, as pgn-extract computes it.
  const bookDb = path.join(dir, 'book.db');
  const bookFen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 14';
  fs.writeFileSync(path.join(dir, 'book.pgn'), [
    '[Event "book"]', '[Site "?"]', '[Date "2026.01.01"]', '[Round "1"]', '[White "w"]', '[Black "b"]',
    '[Result "1/2-1/2"]', '[SetUp "1"]', '[FEN "' + bookFen + '"]', '',
    '14... Nf6 15. Nc3 Bc5 16. Bc4 O-O 1/2-1/2', '', ''].join('\n'));
  t.run([knightly, 'import', path.join(dir, 'book.pgn'), '--db', bookDb]);
  const book = path.join(dir, 'book.html');
  t.run([knightly, 'report', '--db', bookDb, '-o', book]);
  {
    const { page, seen } = await openReport(context, book);
    const numbers = await page.evaluate(() => {
      const ol = document.getElementById('movelist');
      return { start: ol.start, items: ol.children.length, first: ol.children[0].textContent.trim() };
    });
    t.check(numbers.start === 14 && numbers.items === 3, 'book: the move list starts at move 14', numbers);
    t.check(numbers.first.startsWith('\u2026 Nf6'), 'book: Black\'s first move stands alone at 14...', numbers);
    const extracted = t.run([pgnExtract, '-Wepd', '-s', path.join(dir, 'book.pgn')]).trim().split('\n')
      .filter((l) => l.length);
    await page.click('#ply-start');
    t.check((await page.textContent('#viewer-fen')).trim() === bookFen, 'book: the start FEN shows whole');
    for (let i = 1; i <= 6; ++i) {
      await page.click('#ply-next');
      const shown = (await page.textContent('#viewer-fen')).trim();
      // pgn-extract's EPD of the position before the move i+1 (its first line is the start).
      const epd = extracted[i] ? extracted[i].split(' ').slice(0, 4).join(' ') : '';
      t.check(shown.split(' ').length === 6 && (epd === '' || shown.startsWith(epd)),
              'book: ply ' + i + ' shows a whole FEN (' + shown + ')', [shown, extracted[i]]);
    }
    // Count axes have whole-number ticks only.
    const ticks = await page.evaluate(() => Object.values(Chart.instances).flatMap((c) =>
      ['x', 'y'].filter((a) => c.scales[a] && c.scales[a].options.ticks.precision === 0)
        .flatMap((a) => c.scales[a].ticks.map((k) => k.value))));
    t.check(ticks.length > 0 && ticks.every((v) => Number.isInteger(v)), 'book: count axes have whole ticks', ticks);
    t.check(seen.errors.length === 0, 'book: no script error', seen.errors);
  }

  // Faults: the health table is knightly query health's, each fault counted.
  const faultsDb = makeFaults(dir);
  const faults = path.join(dir, 'faults.html');
  t.run([knightly, 'report', '--db', faultsDb, '-o', faults]);
  {
    const { page, seen } = await openReport(context, faults);
    const json = JSON.parse(t.run([knightly, 'query', 'health', '--db', faultsDb, '--format', 'json']));
    const shown = await t.tableRows(page, '#health');
    const diff = t.sameTable(shown, json.health);
    t.check(diff === null, 'faults: the health table equals knightly query health --format json', diff);
    const row = (name) => json.health.find((r) => r.engine === name) || {};
    t.check(row('crasher').crashes > 0, 'faults: the crasher\'s crashes are counted', row('crasher'));
    t.check(row('cheat').illegal_moves > 0, 'faults: the cheat\'s illegal moves are counted', row('cheat'));
    t.check(row('slow').time_losses > 0, 'faults: the slow engine\'s time losses are counted', row('slow'));
    t.check(row('steady').time_losses + row('steady').crashes + row('steady').illegal_moves === 0,
            'faults: the steady engine has no fault', row('steady'));
    t.check(json.health.every((r) => r.latency_moves === 0 || r.latency_max_ms >= r.latency_mean_ms),
            'faults: each latency has a mean and a max', json.health);
    t.check(await page.isVisible('#health'), 'faults: the health section shows');
    t.check(seen.errors.length === 0, 'faults: no script error', seen.errors);
    await page.screenshot({ path: path.join(output, 'report-health.png'), fullPage: true });
  }

  // Twelve engines: the ratings chart grows with its rows and labels every one of them.
  const ladderDb = makeLadder(dir);
  const ladder = path.join(dir, 'ladder.html');
  t.run([knightly, 'report', '--db', ladderDb, '-o', ladder]);
  {
    const { page, seen } = await openReport(context, ladder);
    const shown = await page.evaluate(() => {
      const c = Object.values(Chart.instances).find((x) => x.canvas.id === 'chart-ratings');
      return { rows: c.data.labels.length, labelled: c.scales.y.ticks.map((k) => c.scales.y.getLabelForValue(k.value)) };
    });
    const engines = JSON.parse(t.run([knightly, 'query', 'ratings', '--db', ladderDb, '--format', 'json'])).ratings.map((r) => r.engine);
    t.check(engines.length === 12 && shown.rows === 12, 'ladder: twelve engines rated and charted', [engines.length, shown.rows]);
    t.check(JSON.stringify([...shown.labelled].sort()) === JSON.stringify([...engines].sort()),
            'ladder: the ratings chart labels every engine', shown.labelled);
    t.check(seen.errors.length === 0, 'ladder: no script error', seen.errors);
    await page.screenshot({ path: path.join(output, 'report-ladder.png'), fullPage: true });
  }
});
