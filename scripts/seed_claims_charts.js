// The charts of docs/seed-claims.md: `knightly report` of a claim's database, opened in
// Debian's headless Chromium (driven by playwright-core from tests/browser, as the browser
// tests do), one chart cut out as a PNG.
//   node scripts/seed_claims_charts.js OUT_DIR PNG_DIR
// OUT_DIR is a seed-claims run's directory (build/seed-claims/scale-S, with the claim*.db
// files); the PNGs go to PNG_DIR. KNIGHTLY (default build/release/knightly) is the runner. A
// claim whose database is missing is skipped with a line saying so; any other failure exits 1.
'use strict';

const fs = require('fs');
const path = require('path');
const lib = require('../tests/browser/lib.js');

// The picture of each claim that says more than its row: which database, which chart.
const charts = [
  { db: 'claim2-mcts', chart: 'chart-ratings', png: 'claim2-mcts-ratings.png' },
  { db: 'claim3-shuffle', chart: 'chart-terminations', png: 'claim3-shuffle-terminations.png' },
  { db: 'claim4-eval-depth', chart: 'chart-ratings', png: 'claim4-eval-depth-ratings.png' },
  { db: 'claim4-eval-time', chart: 'chart-ratings', png: 'claim4-eval-time-ratings.png' },
  { db: 'claim5-depth-fixed', chart: 'chart-ratings', png: 'claim5-depth-fixed-ratings.png' },
  { db: 'claim5-depth-time', chart: 'chart-ratings', png: 'claim5-depth-time-ratings.png' },
  { db: 'claim6-strongest-vs-stockfish', chart: 'chart-ratings', png: 'claim6-strongest-ratings.png' },
];

const [outDir, pngDir] = process.argv.slice(2);
if (!outDir || !pngDir) {
  console.error('usage: node scripts/seed_claims_charts.js OUT_DIR PNG_DIR');
  process.exit(2);
}
const knightly = process.env.KNIGHTLY || path.join(__dirname, '..', 'build', 'release', 'knightly');

lib.main(async () => {
  fs.mkdirSync(pngDir, { recursive: true });
  const work = lib.tempDir('knightly-seed-charts-');
  const browser = await lib.launchBrowser();
  const page = await browser.newPage();
  const seen = lib.watch(page);
  for (const c of charts) {
    const db = path.join(outDir, c.db + '.db');
    if (!fs.existsSync(db)) {
      lib.log('skip ' + c.png + ': ' + db + ' is missing (run scripts/seed-claims ' + c.db + ')');
      continue;
    }
    const html = path.join(work, c.db + '.html');
    lib.run([knightly, 'report', '--db', db, '-o', html]);
    await page.goto('file://' + html);
    // The chart is drawn once its canvas has a size (animation is off in the report).
    await page.waitForFunction((id) => Object.values(Chart.instances).some(
      (ch) => ch.canvas.id === id && ch.width > 0 && ch.canvas.offsetParent !== null), c.chart);
    const box = page.locator('#' + c.chart).locator('xpath=..');
    await box.screenshot({ path: path.join(pngDir, c.png) });
    lib.require(seen.errors.length === 0, c.db + ': the report shows no script error', seen.errors);
    lib.log('wrote ' + path.join(pngDir, c.png));
  }
});
