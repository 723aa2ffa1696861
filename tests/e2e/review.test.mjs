// The analysis of a whole game: after a finished (here: imported) game a
// button starts it, a progress bar follows it, then the evaluation graph
// has one point per position, a click on it shows that position in the
// replay, and the move that gave a piece away is marked as a blunder with
// the better move named, in the summary per player too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, importRecord, logErrorsAfter } from './helpers.mjs';

const suite = useServerAndBrowser('review');

// White's first move (e3-f4) gives a piece away; g3-f4 keeps the balance.
const BLUNDER = '[GameType "42"]\n[FEN "W:Wc3,e3,g3,d2,a1:Bd6,f6,b6,h6,g7"]\n\n1. e3-f4 f6-g5 2. d2-e3 g5-h4 *\n';

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`the whole game is analysed with progress, graph and marks (${width}×${height})`, async (t) => {
    const { page } = await newPage(suite.browser, { locale: 'en-GB', width, height });
    logErrorsAfter(t, page);
    await page.goto(`${suite.server.url}/archive`);
    const id = await importRecord(page, BLUNDER);
    await page.waitForSelector('#whole-start');
    assert.equal((await page.textContent('#whole-start')).trim(), 'Analyse the whole game');
    await page.click('#whole-start');
    // The progress bar while it runs (5 positions, half a second each).
    await page.waitForSelector('#whole-progress progress');
    assert.match(await page.textContent('#whole-progress'), /of 5 positions analysed/);
    // Done: the graph has a point per position, the summary and the marks.
    await page.waitForSelector('#whole-summary', { timeout: 60000 });
    assert.equal(await page.getAttribute('#whole-graph', 'data-points'), '5');
    assert.equal(await page.locator('#whole-graph rect.whole-hit').count(), 5);
    assert.equal(await page.locator('#whole-progress').count(), 0);
    const blunder = page.locator('#whole-marks li.blunder').first();
    assert.equal(await blunder.getAttribute('data-ply'), '0');
    assert.match(await blunder.textContent(), /^1\. e3-f4\?\? White: blunder\. Better: g3-f4$/);
    const white = await page.$$eval('#whole-summary tbody tr:first-child td', (els) => els.map((e) => e.textContent));
    assert.equal(white[2], '1', `White's blunders: ${white}`);
    // A click on the graph shows that position in the replay.
    // In the middle of the screen: a toast at the bottom (the import's) does not take the click.
    await page.locator('#whole-graph').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = await page.locator('#whole-graph').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForSelector('#move-list button.move.current[data-ply="2"]');
    await page.locator('#whole-graph rect.whole-hit[data-ply="1"]').click({ force: true });
    await page.waitForSelector('#move-list button.move.current[data-ply="1"]');
    // A click on the marked move shows the position after it.
    await page.click('#whole-marks li.blunder button');
    await page.waitForSelector('#move-list button.move.current[data-ply="1"]');
    await shot(page, `review-${width}`);
    // The analysis is stored with the game: another visitor sees it at once.
    const { page: other } = await newPage(suite.browser, { locale: 'de-DE', width, height });
    logErrorsAfter(t, other);
    await other.goto(`${suite.server.url}/game/${id}`);
    await other.waitForSelector('#whole-summary');
    assert.match(await other.textContent('#whole-marks'), /Weiß: Patzer\. Besser: g3-f4/);
    assert.equal(await other.locator('#whole-start').count(), 0);
    // The summary fits its card on this screen, in English and in German (longer words).
    for (const p of [page, other]) {
      const over = await p.$eval('#whole-summary', (el) => {
        const card = el.parentElement.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return Math.max(r.right - card.right, r.right - document.documentElement.clientWidth);
      });
      assert.ok(over <= 0.5, `the summary reaches ${over} px past its card`);
    }
    assert.deepEqual(page.errors, []);
    assert.deepEqual(other.errors, []);
  });
}
