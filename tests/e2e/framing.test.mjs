// No other site can show the app in a frame (clickjacking: a player's seats
// live in the browser, so a framed page could have their clicks stolen),
// and the app's own pages run under its Content-Security-Policy without a
// single violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { useServerAndBrowser, newPage, shot, logErrorsAfter, openNewGame, clickMove, waitMoves } from './helpers.mjs';

const suite = useServerAndBrowser('framing');

/** A page of another origin (another port) that frames `src`. */
async function framingSite(src) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>evil</title><p>Click here to win!</p>
      <iframe id="victim" src="${src}" width="800" height="600"></iframe>`);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

test('another site cannot show the app in a frame', async (t) => {
  const { page } = await newPage(suite.browser);
  const game = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local' });
  const evil = await framingSite(`${suite.server.url}/game/${game.id}`);
  t.after(() => evil.close());
  await page.goto(evil.url);
  await page.waitForSelector('#victim');
  await page.waitForTimeout(1500);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame, 'the iframe is there');
  // The framed document is Chromium's error page, not the app: no board,
  // nothing to click.
  let title = null;
  try {
    title = await frame.evaluate(() => document.title);
  } catch { /* the blocked frame cannot be read at all */ }
  assert.notEqual(title, 'brett – Mühle');
  assert.equal(await frame.$('svg'), null, 'no board in the frame');
  await shot(page, 'framing-blocked');
});

test('the app runs under its Content-Security-Policy without a violation', async (t) => {
  const { page } = await newPage(suite.browser);
  logErrorsAfter(t, page);
  const violations = [];
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const response = await page.goto(`${suite.server.url}/`);
  assert.match(response.headers()['content-security-policy'], /frame-ancestors 'none'/);
  await page.waitForSelector('#lang-select');
  // A game with moves, its live socket and its record: every kind of
  // request the app makes.
  await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local' });
  await clickMove(page, 'd6');
  await waitMoves(page, 1);
  for (const path of ['/archive', '/puzzles', '/analysis']) {
    await page.goto(`${suite.server.url}${path}`);
    await page.waitForLoadState('networkidle');
  }
  assert.deepEqual(violations, []);
  assert.deepEqual(page.errors, []);
});
