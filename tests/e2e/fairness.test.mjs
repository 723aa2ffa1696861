// Fair use of engine time in the analysis view: when the engine is busy
// with another player's analysis the view says so (its place in the queue)
// and asks again by itself (docs/API.md, "Engine time").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, logErrorsAfter, shot } from './helpers.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a busy engine: the analysis view shows the queue and analyses once the engine is free', async (t) => {
  // One engine slot, no waiting: a second analysis is answered engine_busy at once.
  const server = await startServer('fairness', { args: ['--engine-slots', '1', '--analysis-queue', '0', '--analysis-wait', '0'] });
  const browser = await launchBrowser();
  t.after(async () => { await browser.close(); await server.stop(); });
  // Another player's analysis holds the engine for 8 s: long enough that the
  // page is loaded and asks while it runs, even on a loaded machine.
  const other = fetch(`${server.url}/api/analyze`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-brett-client': 'another-player' },
    body: JSON.stringify({ game: 'dame', time_ms: 8000, lines: 1 }),
  });
  await sleep(400);
  const { page } = await newPage(browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await page.goto(`${server.url}/analysis?variant=dame`);
  await page.click('#analyze-btn');
  const busy = page.locator('#engine-busy');
  await busy.waitFor();
  const text = await busy.textContent();
  assert.match(text, /number 1 in the queue/);
  assert.match(text, /Trying again in [1-8] s/);
  await busy.scrollIntoViewIfNeeded();
  await shot(page, 'analysis-engine-busy');
  assert.equal((await other).status, 200);
  // The view asks again by itself and shows the engine's lines.
  await page.locator('.results ol.lines li').first().waitFor({ timeout: 20000 });
  assert.equal(await busy.count(), 0);
  // The browser names itself: the same id on every request, kept.
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('brett.client')));
  assert.match(id, /^[0-9a-f]{32}$/);
  // Only the 503 answer itself may be logged.
  assert.deepEqual(page.errors.filter((e) => !/status of 503/.test(e)), []);
});
