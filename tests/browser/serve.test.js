// knightly serve in a real browser while `knightly run` writes into the same database: the
// page's game count rises without a reload, the progress of the running tournament and the
// games being played on their boards show, an engine named <script>alert(1)</script> shows as
// text and opens no dialog; the server answers 404 to unknown paths and 405 to other methods.
// The screenshot is kept in the build directory (KNIGHTLY_BROWSER_OUTPUT).
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const t = require('./lib');

const knightly = t.env('KNIGHTLY');
const output = t.env('KNIGHTLY_BROWSER_OUTPUT');
const HOSTILE = '<script>alert(1)</script>';

function config(name, rounds, limits) {
  return [
    '[tournament]', 'name = ' + JSON.stringify(name), 'rounds = ' + rounds, 'concurrency = 1', 'seed = 5',
    'maxmoves = 30', '[openings]', 'random_plies = 2',
    '[[engine]]', 'name = ' + JSON.stringify(HOSTILE), 'builtin = true', 'options = { Search = "random" }', limits,
    '[[engine]]', 'name = "ab"', 'builtin = true', 'options = { Search = "alphabeta" }', limits, '',
  ].join('\n');
}

function request(port, method, target) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

t.main(async () => {
  const dir = t.tempDir('knightly-serve-test-');
  fs.mkdirSync(output, { recursive: true });
  const db = path.join(dir, 'live.db');
  // A first, finished tournament makes the database serve opens.
  fs.writeFileSync(path.join(dir, 'first.toml'), config('first', 1, 'depth = 1'));
  t.run([knightly, 'run', path.join(dir, 'first.toml'), '--db', db, '--quiet']);

  const serve = t.start([knightly, 'serve', '--db', db, '--bind', '127.0.0.1:0']);
  const line = await t.waitFor('serve to listen', () => serve.lines.find((l) => l.includes('http://')) || serve.exited, 30000);
  t.require(typeof line === 'string', 'serve listens', serve.stderr);
  const url = line.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
  t.require(url, 'serve names its loopback address', line);
  const port = Number(url[1]);

  const context = await t.launchBrowser();
  const page = await context.newPage();
  const seen = t.watch(page);
  await page.goto(url[0]);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  const count = async () => Number((await page.textContent('#games-total')).replace(/,/g, ''));
  const before = await count();
  t.check(before === 2, 'the page shows the first tournament\'s 2 games', before);
  await page.evaluate(() => { window.knightlyMarker = 'not reloaded'; });

  // A second tournament into the same database, a game every two seconds or so: a game shows on
  // its board once it has lasted a second (the position its worker records about once a second).
  fs.writeFileSync(path.join(dir, 'second.toml'), config('second', 8, 'st = 0.4'));
  const runner = t.start([knightly, 'run', path.join(dir, 'second.toml'), '--db', db, '--quiet']);
  const rose = await t.waitFor('the game count to rise', async () => (await count()) > before && (await count()), 90000, 200);
  t.check(rose > before, 'the game count rose without a reload (' + before + ' -> ' + rose + ')');
  const again = await t.waitFor('the game count to rise again', async () => (await count()) > rose && (await count()), 90000, 200);
  t.check(again > rose, 'and rose again (' + rose + ' -> ' + again + ')');
  t.check((await page.evaluate(() => window.knightlyMarker)) === 'not reloaded', 'the page was never reloaded');
  t.check((await page.evaluate(() => performance.getEntriesByType('navigation').length)) === 1, 'one navigation only');

  // Progress of the running tournament, standings as games finish.
  const progress = await t.waitFor('the running tournament\'s progress', async () => {
    const text = await page.textContent('#progress');
    return text.includes('second (run, running)') && text;
  }, 30000, 200);
  t.check(/second \(run, running\): \d+ \/ 16 games/.test(progress), 'progress shows games done of 16', progress);
  // With two of its games stored: their rate and the time left at that rate.
  const eta = await t.waitFor('the running tournament\'s rate and ETA', async () => {
    const row = await page.textContent('#progress [data-tournament="second"]');
    return /games\/h, ETA /.test(row) && row;
  }, 30000, 200);
  t.check(/second \(run, running\): \d+ \/ 16 games \([\d.]+%\), [\d,]+ games\/h, ETA \d/.test(eta), 'progress shows a rate and an ETA', eta);
  t.check(await page.isVisible('[data-tournament="second"] .bar'), 'a progress bar for it');
  t.check(await page.isVisible('#active'), 'the games-in-progress panel shows');
  // A game being played, on a board at the position its worker recorded last.
  const placement = await t.waitFor('a game in progress on its board', async () =>
    (await page.$$eval('#active .active-game svg', (s) => s.map((b) => b.getAttribute('data-placement'))))[0], 60000, 200);
  t.check(/^([1-8pnbrqkPNBRQK]{1,8}\/){7}[1-8pnbrqkPNBRQK]{1,8}$/.test(placement), 'the board shows a position', placement);
  t.check(/ply \d+/.test(await page.textContent('#active')), 'with the plies played so far', await page.textContent('#active'));
  const standings = await t.tableRows(page, '#standings');
  const json = JSON.parse(t.run([knightly, 'query', 'standings', '--db', db, '--format', 'json']));
  const games = (rows) => rows.reduce((n, r) => n + Number(r.games), 0);
  t.check(games(standings) > 2 * before && games(standings) <= games(json.standings),
          'the standings grew with the finished games', [games(standings), games(json.standings)]);

  // The hostile name is text, never markup (labelled by its limits, which differ between the
  // two tournaments: "<script>alert(1)</script> (depth 1)").
  const cells = await page.$$eval('#standings td', (tds) => tds.map((td) => td.textContent));
  t.check(cells.some((c) => c.startsWith(HOSTILE + ' (')), 'the engine named ' + HOSTILE + ' shows as text', cells);
  t.check((await page.$$eval('script', (s) => s.length)) === 3, 'no script element was injected');
  t.check(seen.dialogs.length === 0, 'no dialog opened', seen.dialogs);
  t.check(seen.errors.length === 0, 'no script error', seen.errors);
  t.check(seen.requests.every((u) => u.startsWith(url[0])), 'the page asked nothing of any other origin',
          seen.requests.filter((u) => !u.startsWith(url[0])));

  // A game from the API replays in the page.
  await page.click('#games tbody tr');
  await page.waitForSelector('#board svg');
  t.check(await page.isVisible('#viewer'), 'a game opens in the viewer');

  await page.screenshot({ path: path.join(output, 'serve.png'), fullPage: true });
  t.log('screenshot ' + path.join(output, 'serve.png'));

  // The server's answers to what it does not do.
  t.check((await request(port, 'GET', '/no/such/page')).status === 404, 'unknown path: 404');
  t.check((await request(port, 'GET', '/api/game/99999999')).status === 404, 'unknown game: 404');
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const r = await request(port, method, '/api/summary');
    t.check(r.status === 405 && r.headers.allow === 'GET, HEAD', method + ': 405 with Allow: GET, HEAD', r.status);
  }
  const head = await request(port, 'HEAD', '/');
  t.check(head.status === 200 && head.body === '' && Number(head.headers['content-length']) > 1000, 'HEAD /: headers only');
  const echo = await request(port, 'GET', '/' + encodeURIComponent(HOSTILE));
  t.check(echo.status === 404 && !echo.body.includes('<script>') && echo.headers['content-type'].startsWith('application/json'),
          'a hostile path is answered escaped, as JSON', echo.body);

  await runner.stop('SIGINT', 60000);
  const stopped = await serve.stop('SIGTERM', 10000);
  t.check(stopped.code === 0, 'serve stops on SIGTERM with exit 0', stopped);
});
