// knightly serve's test queue (/tests) in a real browser: an engine in a git repository the
// test writes (a shell engine and a Makefile honouring EXE=), tests submitted with `knightly
// submit` and played by `knightly work`, then the list as OpenBench's index shows it (state,
// the LLR on a bar between its bounds, Elo, games, pentanomial, the commits, submitter), the
// reason of a failed build, each test's own live report with its workers' time-control factor,
// and the engine's history chart. A submitter named <script>alert(1)</script> is text.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const t = require('./lib');

const knightly = t.env('KNIGHTLY');
const engine = t.env('KNIGHTLY_ENGINE');
const output = t.env('KNIGHTLY_BROWSER_OUTPUT');
const HOSTILE = '<script>alert(1)</script>';

// A commit of the test engine: knightly-engine with Search = `search`, whose bench prints
// `bench` nodes at 500000 nps.
function commit(repo, search, bench, message, makefile) {
  fs.writeFileSync(path.join(repo, 'engine.sh'), [
    '#!/bin/sh',
    'if [ "$1" = bench ]; then echo "Nodes searched : ' + bench + '"; echo "Nodes/second : 500000"; exit 0; fi',
    '{ printf "setoption name Search value ' + search + '\\n"; cat; } | exec ' + JSON.stringify(engine),
    '',
  ].join('\n'));
  fs.writeFileSync(path.join(repo, 'Makefile'), makefile ||
    'EXE ?= engine\n$(EXE): engine.sh\n\tcp engine.sh $(EXE)\n\tchmod +x $(EXE)\n');
  const git = ['git', '-C', repo, '-c', 'user.name=Test', '-c', 'user.email=t@knightly.invalid'];
  t.run(git.concat(['add', 'engine.sh', 'Makefile']));
  t.run(git.concat(['commit', '--quiet', '--allow-empty', '-m', message + '\n\nBench: ' + bench]));
  return t.run(['git', '-C', repo, 'rev-parse', 'HEAD']).trim();
}

function get(base, target) {
  return new Promise((resolve, reject) => {
    http.get(base + target, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    }).on('error', reject);
  });
}

t.main(async () => {
  const dir = t.tempDir('knightly-queue-test-');
  fs.mkdirSync(output, { recursive: true });
  const repo = path.join(dir, 'engine');
  fs.mkdirSync(repo);
  t.run(['git', 'init', '--quiet', '--initial-branch=main', repo]);
  const git = (args) => t.run(['git', '-C', repo].concat(args));
  const base = commit(repo, 'greedy', 1000, 'Greedy captures');
  git(['checkout', '--quiet', '-b', 'strong']);
  const strong = commit(repo, 'alphabeta', 2000, 'Search the tree');
  git(['checkout', '--quiet', 'main']);
  git(['checkout', '--quiet', '-b', 'same']);
  const same = commit(repo, 'greedy', 1000, 'Rename a variable');
  git(['checkout', '--quiet', 'main']);
  git(['checkout', '--quiet', '-b', 'broken']);
  commit(repo, 'greedy', 1000, 'Break the build', 'EXE ?= engine\n$(EXE):\n\t@echo "engine.c:1: error: this does not build"; exit 1\n');
  git(['checkout', '--quiet', 'main']);

  const db = path.join(dir, 'queue.db');
  const cache = path.join(dir, 'cache');
  const spec = (ref) => 'repo=' + repo + ' ref=' + ref;
  const submit = (args) => t.run([knightly, 'submit'].concat(args, ['--db', db, '--cache', cache]));
  submit(['--new', spec('strong'), '--base', spec('main'), '--depth', '2', '--elo0', '0', '--elo1', '50',
          '--max-games', '400', '--name', 'stronger', '--submitter', HOSTILE, '--priority', '3']);
  submit(['--new', spec('broken'), '--base', spec('main'), '--depth', '2', '--name', 'broken', '--submitter', 'ada', '--priority', '2']);
  // Equal engines, a scaled clock: a finite Elo for the history chart, a factor for the report.
  fs.writeFileSync(path.join(dir, 'same.toml'), [
    '[tournament]', 'name = "same"', 'rounds = 4', 'games = 2', 'maxmoves = 30', 'depth = 1', 'tc = "2+0.02"',
    'reference_nps = 1000000', '[openings]', 'random_plies = 6',
    '[[engine]]', 'name = "dev"', 'repo = "engine"', 'ref = "same"',
    '[[engine]]', 'name = "base"', 'repo = "engine"', 'ref = "main"', '',
  ].join('\n'));
  submit([path.join(dir, 'same.toml'), '--submitter', 'bob', '--priority', '1']);
  t.run([knightly, 'work', '--db', db, '--cache', cache, '--until-empty', '--quiet'], { timeout: 400000 });
  // Submitted after the worker left: it stays queued.
  submit(['--new', spec('strong'), '--base', spec('main'), '--depth', '2', '--name', 'later', '--submitter', 'cy']);
  const json = JSON.parse(t.run([knightly, 'query', 'tests', '--db', db, '--format', 'json'])).tests;
  const byName = Object.fromEntries(json.map((r) => [r.name, r]));
  t.require(byName.stronger && byName.stronger.state === 'H1', 'the stronger commit is decided H1', byName.stronger);
  t.require(byName.broken && byName.broken.state === 'failed', 'the broken build failed its test', byName.broken);

  const serve = t.start([knightly, 'serve', '--db', db, '--bind', '127.0.0.1:0']);
  const line = await t.waitFor('serve to name the test queue', () => serve.lines.find((l) => l.includes('/tests')) || serve.exited, 30000);
  t.require(typeof line === 'string', 'serve names the queue', serve.stderr);
  const url = line.match(/(http:\/\/127\.0\.0\.1:\d+)\/tests/);
  t.require(url, 'the queue is on loopback', line);

  const context = await t.launchBrowser();
  const page = await context.newPage();
  const seen = t.watch(page);
  await page.goto(url[1] + '/tests');
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });

  const rows = await t.tableRows(page, '#tests');
  t.check(rows.length === 4, 'four tests listed', rows.length);
  t.check(JSON.stringify(rows.map((r) => r.Test.split('\n')[0].replace(/broken.*/, 'broken'))) === JSON.stringify(['later', 'same', 'broken', 'stronger']),
          'newest first', rows.map((r) => r.Test));
  const row = (name) => rows.find((r) => r.Test.startsWith(name)) || {};
  t.check(row('stronger').State === 'H1' && row('broken').State === 'failed' && row('same').State === 'complete' && row('later').State === 'queued',
          'each test\'s state', rows.map((r) => r.State));
  // The figures are the server's: the same as knightly query tests prints.
  const strongRow = row('stronger');
  t.check(strongRow.Games.startsWith(String(byName.stronger.games) + ' ('), 'games as query tests counts them', [strongRow.Games, byName.stronger.games]);
  t.check(strongRow.Pentanomial === '[' + [byName.stronger.ll, byName.stronger.ld, byName.stronger.wl_dd, byName.stronger.wd, byName.stronger.ww].join(', ') + ']',
          'the pentanomial counts', strongRow.Pentanomial);
  t.check(strongRow.LLR.includes(byName.stronger.llr.toFixed(2)) && strongRow.LLR.includes('(-2.94, 2.94)'), 'the LLR and its bounds', strongRow.LLR);
  const sameRow = row('same');
  t.check(sameRow.Elo === (byName.same.elo === null ? '' : (byName.same.elo >= 0 ? '+' : '') + byName.same.elo.toFixed(2) + ' \u00b1 ' + byName.same.elo95.toFixed(2)),
          'Elo \u00b1 its interval', [sameRow.Elo, byName.same.elo, byName.same.elo95]);
  t.check(strongRow['Commits (new, base)'].includes(strong.slice(0, 10)) && strongRow['Commits (new, base)'].includes(base.slice(0, 10)) &&
          strongRow['Commits (new, base)'].includes('Search the tree'), 'the two commits with their subjects', strongRow['Commits (new, base)']);
  t.check(strongRow.Submitter === HOSTILE, 'the hostile submitter shows as text', strongRow.Submitter);
  t.check(row('broken').Test.includes('this does not build'), 'a failed build shows the build\'s last lines', row('broken').Test);

  // The LLR bar: the H1 test's mark at its upper bound, the queued test without one.
  const bars = await page.$$eval('#tests tbody tr', (trs) => trs.map((tr) => {
    const cell = tr.querySelector('.llr-cell');
    const mark = tr.querySelector('.llr .mark');
    return { test: tr.dataset.test, at: cell ? Number(cell.dataset.at) : null, left: mark ? mark.style.left : null };
  }));
  const strongBar = bars.find((b) => b.test === 'stronger');
  t.check(strongBar && strongBar.at === 1 && parseFloat(strongBar.left) === 100, 'the H1 test\'s LLR mark is at its upper bound', strongBar);
  const laterBar = bars.find((b) => b.test === 'later');
  t.check(laterBar && laterBar.at === 0.5, 'a queued test\'s LLR (0) is in the middle of its bounds', laterBar);

  // The history chart: the tested commits of the engine with a finite Elo, in time.
  const charts = await t.charts(page);
  const history = charts.find((c) => c.id === 'chart-history');
  const finite = json.filter((r) => r.elo !== null && r.games > 0).length;
  t.check(history && history.visible && history.datasets[0].points === finite && finite >= 1,
          'the history chart has a point per tested commit with an Elo', [charts, finite]);
  const commits = await page.$eval('#chart-history', (c) => c.dataset.commits);
  t.check(commits.includes(same.slice(0, 10)), 'the history names the commits', commits);

  t.check((await page.$$eval('script', (s) => s.length)) === 3, 'no script element was injected');
  t.check(seen.dialogs.length === 0, 'no dialog opened', seen.dialogs);
  t.check(seen.errors.length === 0, 'no script error', seen.errors);
  t.check(seen.requests.every((u) => u.startsWith(url[1])), 'the page asked nothing of any other origin',
          seen.requests.filter((u) => !u.startsWith(url[1])));
  await page.screenshot({ path: path.join(output, 'queue.png'), fullPage: true });
  t.log('screenshot ' + path.join(output, 'queue.png'));

  // Each test links to its own live report: its games only, and the workers' factor.
  await Promise.all([page.waitForNavigation(), page.click('#tests tbody tr[data-test="same"] a')]);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  t.check(page.url() === url[1] + '/tests/' + byName.same.id + '/', 'the link opens the test\'s page', page.url());
  t.check((await page.textContent('#title')) === 'Test same', 'titled by the test', await page.textContent('#title'));
  t.check(Number((await page.textContent('#games-total')).replace(/,/g, '')) === byName.same.games, 'its games only',
          [await page.textContent('#games-total'), byName.same.games]);
  t.check(await page.isVisible('#workers-section'), 'the workers of a scaled test are shown');
  const workers = await t.tableRows(page, '#workers');
  t.check(workers.length >= 1 && workers.every((w) => Number(w.tc_factor) === 2 && Number(w.nps) === 500000),
          'each with its speed and time-control factor', workers);
  await page.screenshot({ path: path.join(output, 'queue-test.png'), fullPage: true });

  // The routes: the data the page polls, a test's page without its slash, a test not there.
  const api = await get(url[1], '/api/tests');
  t.check(api.status === 200 && JSON.parse(api.body).queue.tests.length === 4, '/api/tests lists the four tests', api.status);
  const bare = await get(url[1], '/tests/' + byName.same.id);
  t.check(bare.status === 301 && bare.headers.location === '/tests/' + byName.same.id + '/', 'a test\'s page without its slash is redirected', [bare.status, bare.headers.location]);
  const none = await get(url[1], '/tests/999999/');
  t.check(none.status === 404 && none.body.includes('no test 999999'), 'a test that is not there: 404', [none.status, none.body]);
  const sub = await get(url[1], '/tests/' + byName.same.id + '/api/summary');
  t.check(sub.status === 200 && JSON.parse(sub.body).tournaments.length === 1, 'a test\'s API covers its tournament only', sub.body.slice(0, 200));

  const stopped = await serve.stop('SIGTERM', 10000);
  t.check(stopped.code === 0, 'serve stops on SIGTERM with exit 0', stopped);
}, 420000);
