// The charts of docs/seed-claims.md: `knightly report` of a claim's games (the scratch database
// scripts/seed_claims_table.py imported them into), opened in Debian's headless Chromium (driven
// by playwright-core from tests/browser, as the browser tests do), one chart cut out as a PNG.
//   node scripts/seed_claims_charts.js CHARTS_JSON PNG_DIR
// CHARTS_JSON is the table script's charts.json: a list of { db, tournaments, chart, png }. The
// PNGs go to PNG_DIR. KNIGHTLY (default build/release/knightly) is the runner. A chart whose
// database is missing is skipped with a line saying so; any other failure exits 1.
'use strict';

const fs = require('fs');
const path = require('path');
const lib = require('../tests/browser/lib.js');

const [chartsJson, pngDir] = process.argv.slice(2);
if (!chartsJson || !pngDir) {
  console.error('usage: node scripts/seed_claims_charts.js CHARTS_JSON PNG_DIR');
  process.exit(2);
}
const knightly = process.env.KNIGHTLY || path.join(__dirname, '..', 'build', 'release', 'knightly');
const charts = JSON.parse(fs.readFileSync(chartsJson, 'utf8'));

lib.main(async () => {
  fs.mkdirSync(pngDir, { recursive: true });
  const work = lib.tempDir('knightly-seed-charts-');
  const browser = await lib.launchBrowser();
  const page = await browser.newPage();
  const seen = lib.watch(page);
  for (const c of charts) {
    if (!fs.existsSync(c.db)) {
      lib.log('skip ' + c.png + ': ' + c.db + ' is missing');
      continue;
    }
    const html = path.join(work, path.basename(c.png, '.png') + '.html');
    lib.run([knightly, 'report', '--db', c.db, '-o', html,
      ...c.tournaments.flatMap((t) => ['--tournament', t])]);
    await page.goto('file://' + html);
    // The chart is drawn once its canvas has a size (animation is off in the report).
    await page.waitForFunction((id) => Object.values(Chart.instances).some(
      (ch) => ch.canvas.id === id && ch.width > 0 && ch.canvas.offsetParent !== null), c.chart);
    const box = page.locator('#' + c.chart).locator('xpath=..');
    await box.screenshot({ path: path.join(pngDir, c.png) });
    lib.require(seen.errors.length === 0, c.png + ': the report shows no script error', seen.errors);
    lib.log('wrote ' + path.join(pngDir, c.png));
  }
});
