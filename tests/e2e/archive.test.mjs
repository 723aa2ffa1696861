// Archive and analysis: the list of games, export and import of a record,
// replay of the imported game, and the analysis board with the engine's lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, api, waitMoves, importRecord, logErrorsAfter } from './helpers.mjs';

const suite = useServerAndBrowser('archive');

test('archive: list, export, import, replay', async () => {
  // A short finished local game, made through the API.
  const { data: created } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local', rules: 'standard', name: 'Dora <b>' });
  const tok = created.tokens;
  const moves = ['d6', 'f4', 'd2', 'b4'];
  for (const [i, mv] of moves.entries()) {
    const r = await api(suite.server.url, 'POST', `/api/games/${created.id}/moves`, { move: mv, token: i % 2 ? tok.black : tok.white, ply: i });
    assert.equal(r.status, 200, JSON.stringify(r.data));
  }
  const res = await api(suite.server.url, 'POST', `/api/games/${created.id}/resign`, { token: tok.white });
  assert.equal(res.status, 200, JSON.stringify(res.data));

  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  await page.goto(`${suite.server.url}/archive`);
  const row = page.locator(`tr[data-id="${created.id}"]`);
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, new RegExp(`Partie ${created.id}`));
  assert.match(text, /Dora <b>/);
  assert.match(text, /gibt auf/);
  assert.match(text, /Standard/);
  await shot(page, 'f-archive');

  // Export: the record as text.
  const [download] = await Promise.all([page.waitForEvent('download'), row.locator('a[download]').click()]);
  const record = await (await fetch(`${suite.server.url}/api/games/${created.id}/record`)).text();
  assert.match(download.suggestedFilename(), /\.txt$/);
  assert.match(record, /1\. d6 f4 2\. d2 b4/);

  // Import it back, land in the imported game, replay it.
  const imported = await importRecord(page, record, created.id);
  await waitMoves(page, 4);
  await page.click('#nav-first');
  await page.waitForSelector('.replay-info:has-text("Anfangsstellung")');
  assert.equal(await page.$$eval('.board .pt.has-stone', (els) => els.length), 0);
  await page.click('#nav-next');
  await page.click('#nav-next');
  await page.waitForSelector('.board [data-point=f4].has-stone.black');
  await page.click('#move-list button.move[data-ply="4"]');
  await page.waitForSelector('.board [data-point=b4].has-stone.black');
  await shot(page, 'f-imported-replay');
  assert.deepEqual(page.errors, []);
});

test('analysis board: set up, analyse, follow a line', async () => {
  const { page } = await newPage(suite.browser, { locale: 'en-US', width: 375, height: 740 });
  await page.goto(`${suite.server.url}/analysis`);
  await page.waitForSelector('svg.board');
  // Set up: White a7, d7 and Black b6, f6; White to move, seven stones in each hand.
  await page.click('.board [data-point=a7]');
  await page.click('.board [data-point=d7]');
  for (const p of ['b6', 'b6', 'f6', 'f6']) await page.click(`.board [data-point=${p}]`);
  await page.fill('#hand-white', '7');
  await page.press('#hand-white', 'Tab');
  await page.fill('#hand-black', '7');
  await page.press('#hand-black', 'Tab');
  assert.equal(await page.inputValue('#position-text'), 'WW./B.B/.../....../.../.../... w 7 7 0 1');
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  await page.waitForSelector('.lines .line', { timeout: 30000 });
  // Three lines with scores and reasons; one of them closes the mill at g7.
  assert.equal(await page.locator('.lines .line').count(), 3);
  const heads = await page.$$eval('.lines .line .pv', (els) => els.map((e) => e.querySelector('.move').textContent));
  assert.ok(heads.some((m) => /^g7x(b6|f6)$/.test(m)), `lines ${heads}`);
  assert.match(await page.textContent('.lines .line .score'), /^[+-]\d+\.\d\d$|win|loss/);
  assert.ok((await page.textContent('.lines .why')).length > 0);
  // Clicking a move of a line shows the position after it.
  const first = heads[0].replace(/x.*/, '');
  await page.click('.lines .line .pv .move >> nth=0');
  await page.waitForSelector(`.board [data-point=${first.slice(-2)}].has-stone.white`);
  await shot(page, 'g-analysis');

  // Play mode: moves on the board by the rules.
  await page.click('.lines .line .pv .move >> nth=0'); // keep the line shown
  await page.click('button:has-text("Back to the position")');
  await page.click('#mode-play');
  // g7 closes the mill; b6 and f6 may be removed.
  await page.click('.board [data-point=g7]');
  await page.waitForSelector('.board .pt.is-removable');
  assert.deepEqual(await page.$$eval('.board .pt.is-removable', (els) => els.map((e) => e.dataset.point).sort()), ['b6', 'f6']);
  await page.click('.board [data-point=b6]');
  await page.waitForSelector('.board [data-point=b6]:not(.has-stone)');
  assert.equal(await page.inputValue('#position-text'), 'WWW/..B/.../....../.../.../... b 6 7 0 1');
  assert.deepEqual(page.errors, []);
});

test('the analysis explains its lines in the player\'s language (#12 §3.3)', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis`);
  await page.waitForSelector('svg.board');
  // Black a7 and d7 threaten g7: White's best move blocks it.
  for (const p of ['a7', 'a7', 'd7', 'd7', 'b6', 'f2']) await page.click(`.board [data-point=${p}]`);
  await page.fill('#hand-white', '7');
  await page.press('#hand-white', 'Tab');
  await page.fill('#hand-black', '7');
  await page.press('#hand-black', 'Tab');
  assert.match(await page.inputValue('#position-text'), / w 7 7 /);
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  try {
    await page.waitForSelector('.lines .line .why li', { timeout: 30000 });
  } catch (e) {
    await shot(page, 'analysis-reasons-FAILED');
    throw e;
  }
  const reasons = await page.$$eval('.lines .why li', (els) => els.map((e) => e.textContent));
  assert.ok(reasons.some((r) => r === 'verhindert die Mühle von Schwarz auf g7'), JSON.stringify(reasons));
  for (const r of reasons) assert.doesNotMatch(r, /\b(blocks|closes|improves|threatens|wins by force)\b/, r);
});

test('a record is imported from a file', async (t) => {
  const { page, context } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector('#import-file', { state: 'attached' });
  await page.setInputFiles('#import-file', {
    name: 'game.txt', mimeType: 'text/plain',
    buffer: Buffer.from('[White "File <Anna>"]\n[Black "Ben"]\n\n1. d6 f4 2. d2 *\n'),
  });
  await page.waitForURL(/\/game\/\d+$/);
  await waitMoves(page, 3);
  assert.match(await page.textContent('body'), /File <Anna>/);
  // A file that is no record: the box shows it, and the error says why.
  await page.goto(`${suite.server.url}/archive`);
  await page.setInputFiles('#import-file', { name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('1. d6 d6 *') });
  await page.waitForSelector('#import-error');
  assert.match(await page.textContent('#import-error'), /d6 is taken already/);
  assert.equal(await page.inputValue('#import-text'), '1. d6 d6 *');
  await context.close();
});

test('an answer that comes after its page was left does not replace the next page', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  // The archive's list is held until the imported game's page is shown.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route((url) => url.pathname === '/api/games' && url.searchParams.has('limit'), async (route) => {
    await held;
    await route.continue();
  });
  const late = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/games' && r.request().method() === 'GET');
  await page.goto(`${suite.server.url}/archive`);
  await importRecord(page, '[Rules "standard"]\n\n1. d6 f4 2. d2 b4 *\n');
  await waitMoves(page, 4);
  release();
  await late;
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.equal(await page.locator('.archive').count(), 0, 'the archive is not drawn over the game');
  assert.equal(await page.locator('#move-list button.move').count(), 4);
  assert.deepEqual(page.errors, []);
});

test('a record typed while the list arrives stays, with the focus, and a filter keeps its focus', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  let release;
  let held = new Promise((r) => { release = r; });
  await page.route((url) => url.pathname === '/api/games' && url.searchParams.has('limit'), async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector('#import-text');
  await page.focus('#import-text');
  await page.keyboard.type('[Rules "standard"]\n\n1. d6 ');
  await page.evaluate(() => { document.querySelector('#import-text').dataset.mark = 'before'; });
  let answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/games' && r.request().method() === 'GET');
  release();
  await answered;
  await page.waitForSelector('.archive :is(.archive-table, #archive-empty)');
  await page.keyboard.type('f4 *');
  assert.equal(await page.inputValue('#import-text'), '[Rules "standard"]\n\n1. d6 f4 *');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-text');
  assert.equal(await page.getAttribute('#import-text', 'data-mark'), 'before', 'the import form was not drawn anew');
  // A filter chosen from the keyboard: the list follows, the focus stays on the filter.
  held = new Promise((r) => { release = r; });
  answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/games' && new URL(r.url()).searchParams.get('status') === 'all');
  await page.focus('#archive-status');
  await page.selectOption('#archive-status', 'all');
  release();
  await answered;
  await page.waitForURL(/status=all/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'archive-status');
  assert.equal(await page.inputValue('#import-text'), '[Rules "standard"]\n\n1. d6 f4 *');
  assert.deepEqual(page.errors, []);
});

test('the archive pages through the games; the pager keeps the focus', async (t) => {
  for (let i = 0; i < 23; i++) {
    const r = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local', rules: 'standard', name: 'Pagina' });
    assert.equal(r.status, 201);
  }
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/archive?status=all&player=Pagina`);
  await page.waitForFunction(() => /^1–20 of 23$/.test(document.querySelector('.pager .muted')?.textContent || ''));
  assert.equal(await page.locator('.archive-table tbody tr').count(), 20);
  assert.ok(await page.isDisabled('#archive-prev'));
  await page.focus('#archive-next');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.pager .muted')?.textContent === '21–23 of 23');
  assert.equal(await page.locator('.archive-table tbody tr').count(), 3);
  assert.match(page.url(), /offset=20/);
  assert.ok(await page.isDisabled('#archive-next'));
  // On the last page "next" is disabled: the focus went to "previous", and Enter goes back.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'archive-prev');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.pager .muted')?.textContent === '1–20 of 23');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'archive-next');
  assert.doesNotMatch(page.url(), /offset=/);
});
