// An SPSA tune's parameter charts in a real browser (docs/tuning.md): `knightly report` of a
// tune of two parameters and `knightly serve` of the same database draw one chart per
// parameter, its path over the iterations between its bounds, and the path is the one
// `knightly query tune --format json` gives. The screenshot is kept in the build directory.
'use strict';

const fs = require('fs');
const path = require('path');
const t = require('./lib');

const knightly = t.env('KNIGHTLY');
const output = t.env('KNIGHTLY_BROWSER_OUTPUT');

// Two parameters of knightly-engine (the knight's value and evaluation noise), ten iterations.
function makeTune(dir) {
  const db = path.join(dir, 'tune.db');
  fs.writeFileSync(path.join(dir, 'tune.toml'), [
    '[tournament]', 'name = "tune-chart"', 'concurrency = 2', 'seed = 3', 'maxmoves = 40', 'depth = 2',
    '[openings]', 'random_plies = 4',
    '[[engine]]', 'name = "kn"', 'builtin = true', 'options = { Search = "alphabeta", Eval = "material+pst" }',
    '[tune]', 'engine = "kn"', 'iterations = 10', 'delay = 1',
    '[[tune.param]]', 'name = "KnightValue"', 'start = 107', 'min = 0', 'max = 1000', 'c_end = 40', 'r_end = 0.05',
    '[[tune.param]]', 'name = "EvalNoise"', 'start = 50', 'min = 0', 'max = 200', 'c_end = 10', 'r_end = 0.05', '',
  ].join('\n'));
  t.run([knightly, 'tune', path.join(dir, 'tune.toml'), '--db', db, '--quiet']);
  return db;
}

// Each chart of the tune as the page drew it: its title, the path's points and the bounds.
async function tuneCharts(page) {
  return page.evaluate(() => Object.values(Chart.instances)
    .filter((c) => c.canvas.id.startsWith('chart-tune-'))
    .sort((a, b) => a.canvas.id.localeCompare(b.canvas.id))
    .map((c) => ({
      id: c.canvas.id,
      visible: c.canvas.offsetParent !== null && c.width > 0 && c.height > 0,
      labels: c.data.datasets.map((d) => d.label),
      path: c.data.datasets[0].data.map((p) => [p.x, p.y]),
      min: c.data.datasets[1].data[0].y,
      max: c.data.datasets[2].data[0].y,
    })));
}

function checkAgainstQuery(charts, tune, what) {
  t.check(charts.length === tune.params.length, what + ': one chart per parameter', charts.map((c) => c.id));
  tune.params.forEach((p, i) => {
    const c = charts[i];
    if (!c) return;
    t.check(c.visible, what + ': the chart of ' + p.name + ' is visible');
    t.check(c.labels[0] === p.name, what + ': chart ' + i + ' is ' + p.name, c.labels);
    t.check(c.min === p.min && c.max === p.max, what + ': ' + p.name + "'s bounds are query tune's", [c.min, c.max]);
    // The start, then the value after each iteration, as query tune computes them.
    const expected = [[0, p.start]].concat(tune.path.filter((it) => it.values !== null).map((it) => [it.iteration, it.values[i]]));
    t.check(c.path.length === expected.length && c.path.length === tune.finished + 1,
            what + ': ' + p.name + "'s path has a point per finished iteration", [c.path.length, tune.finished]);
    t.check(c.path.every((pt, k) => expected[k] && pt[0] === expected[k][0] && Math.abs(pt[1] - expected[k][1]) < 1e-6),
            what + ': ' + p.name + "'s path is query tune's", { shown: c.path, expected });
    t.check(c.path[c.path.length - 1][1] === p.value, what + ': ' + p.name + ' ends at its value now', p.value);
  });
}

t.main(async () => {
  const dir = t.tempDir('knightly-tune-test-');
  fs.mkdirSync(output, { recursive: true });
  const db = makeTune(dir);
  const tune = JSON.parse(t.run([knightly, 'query', 'tune', 'tune-chart', '--db', db, '--format', 'json']));
  t.require(tune.finished === 10, 'the tune finished its 10 iterations', tune.finished);
  const context = await t.launchBrowser();

  // The report file, offline.
  const file = path.join(dir, 'tune.html');
  t.run([knightly, 'report', '--db', db, '--tournament', 'tune-chart', '-o', file]);
  {
    const page = await context.newPage();
    const seen = t.watch(page);
    await context.setOffline(true);
    await page.route('**/*', (route) => (route.request().url().startsWith('file://') ? route.continue() : route.abort()));
    await page.goto('file://' + file);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    t.check(await page.isVisible('#tune-section'), 'report: the tune section shows');
    const summary = await page.textContent('#tune-summary');
    t.check(summary.includes('10 of 10 iterations'), 'report: the summary counts the iterations', summary);
    checkAgainstQuery(await tuneCharts(page), tune, 'report');
    t.check(seen.errors.length === 0, 'report: no script error', seen.errors);
    await page.screenshot({ path: path.join(output, 'report-tune.png'), fullPage: true });
    t.log('screenshot ' + path.join(output, 'report-tune.png'));
    await page.close();
    await context.setOffline(false);
  }

  // knightly serve of the same database (its only tune, no filter).
  const serve = t.start([knightly, 'serve', '--db', db, '--bind', '127.0.0.1:0']);
  const line = await t.waitFor('serve to listen', () => serve.lines.find((l) => l.includes('http://')) || serve.exited, 30000);
  t.require(typeof line === 'string', 'serve listens', serve.stderr);
  const url = line.match(/http:\/\/127\.0\.0\.1:\d+\//);
  t.require(url, 'serve names its loopback address', line);
  {
    const page = await context.newPage();
    const seen = t.watch(page);
    await page.goto(url[0]);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    t.check(await page.isVisible('#tune-section'), 'serve: the tune section shows');
    checkAgainstQuery(await tuneCharts(page), tune, 'serve');
    t.check(seen.errors.length === 0, 'serve: no script error', seen.errors);
  }

  // A report without a tune has no tune section.
  fs.writeFileSync(path.join(dir, 'plain.toml'), [
    '[tournament]', 'name = "plain"', 'rounds = 1', 'seed = 1', 'maxmoves = 20', 'depth = 1',
    '[[engine]]', 'name = "a"', 'builtin = true', '[[engine]]', 'name = "b"', 'builtin = true', '',
  ].join('\n'));
  t.run([knightly, 'run', path.join(dir, 'plain.toml'), '--db', db, '--quiet']);
  const plain = path.join(dir, 'plain.html');
  t.run([knightly, 'report', '--db', db, '--tournament', 'plain', '-o', plain]);
  {
    const page = await context.newPage();
    await page.goto('file://' + plain);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
    t.check(await page.isHidden('#tune-section'), 'plain: no tune section');
    t.check((await tuneCharts(page)).length === 0, 'plain: no tune chart');
  }
});
