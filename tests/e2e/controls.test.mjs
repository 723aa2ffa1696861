// Issue #12 §3 item 12: (a) a game at one screen can take back its last
// move; (b) importing with an empty box says why nothing happened; (c) a Dame
// record downloads as .pdn, a Mühle record as .txt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, api, getState, waitMoves, shownMoves, logErrorsAfter, fillNewGame, startGame, shot, openWithSeats, waitRemembered } from './helpers.mjs';

const suite = useServerAndBrowser('controls');

test('a game at one screen takes back its last move, whoever made it', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'muehle', kind: 'local' });
  const id = await startGame(page);
  await page.waitForSelector('svg.board.interactive');
  // Nothing to take back yet.
  assert.equal(await page.isVisible('#takeback'), true);
  assert.equal(await page.isDisabled('#takeback'), true);
  for (const [i, p] of ['d6', 'f4', 'd2'].entries()) {
    await page.click(`.board [data-point=${p}]`);
    await waitMoves(page, i + 1);
  }
  await page.waitForSelector('#takeback:not([disabled])');
  assert.match(await page.textContent('#takeback'), /Zug zurücknehmen/);
  // White's d2 goes, then Black's f4.
  await page.click('#takeback');
  await waitMoves(page, 2);
  assert.deepEqual(await shownMoves(page), ['d6', 'f4']);
  assert.match(await page.textContent('#status'), /Weiß am Zug/);
  await page.waitForSelector('#takeback:not([disabled])');
  await page.click('#takeback');
  await waitMoves(page, 1);
  assert.match(await page.textContent('#status'), /Schwarz am Zug/);
  let st = await getState(suite.server.url, id);
  assert.deepEqual(st.moves, ['d6']);
  // The game goes on from there.
  await page.click('.board [data-point=b4]');
  await waitMoves(page, 2);
  st = await getState(suite.server.url, id);
  assert.deepEqual(st.moves, ['d6', 'b4']);

  // A Dame game at one screen, too.
  const { data: dame } = await api(suite.server.url, 'POST', '/api/games', { game: 'dame', kind: 'local' });
  await api(suite.server.url, 'POST', `/api/games/${dame.id}/moves`, { move: 'c3-d4', token: dame.tokens.white, ply: 0 });
  await openWithSeats(page, suite.server.url, dame);
  await waitMoves(page, 1);
  await page.waitForSelector('#takeback:not([disabled])');
  await page.click('#takeback');
  await page.waitForSelector('#move-list .empty');
  assert.equal((await getState(suite.server.url, dame.id)).ply, 0);

  // An online game has no take-back button.
  const { data: online } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'online', color: 'white' });
  await openWithSeats(page, suite.server.url, { id: online.id, tokens: online.tokens });
  // (The game waits for the invited player: no resign or draw either.)
  await page.waitForFunction(() => /Warte auf den Gegner/.test(document.getElementById('status')?.textContent || ''));
  assert.equal(await page.isVisible('#takeback'), false);
  await api(suite.server.url, 'POST', `/api/games/${online.id}/join`, { token: online.invite.token });
  await page.waitForSelector('#resign');
  assert.equal(await page.isVisible('#takeback'), false);
});

test('importing with an empty box says why nothing happened', async (t) => {
  for (const [locale, lang, words] of [['de-DE', 'de', /leer/], ['en-GB', 'en', /empty/], ['fr-FR', 'fr', /vide/], ['it-IT', 'it', /vuoto/]]) {
    const { page } = await newPage(suite.browser, { locale });
    logErrorsAfter(t, page);
    await page.goto(`${suite.server.url}/archive`);
    await page.selectOption('#lang-select', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    await page.fill('#import-text', '   \n ');
    await page.click('#import-btn');
    const msg = page.locator('#import-error');
    await msg.waitFor({ timeout: 3000 });
    assert.match(await msg.textContent(), words);
    assert.equal(await msg.getAttribute('role'), 'alert');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-text');
    assert.equal(new URL(page.url()).pathname, '/archive');
    if (lang === 'de') await shot(page, 'controls-import-empty');
    // Typing clears the message.
    await page.fill('#import-text', '1. d6');
    await msg.waitFor({ state: 'detached' });
    await page.context().close();
  }
});

test('a Dame record downloads as .pdn, a Mühle record as .txt', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  const download = async (selector) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    return dl.suggestedFilename();
  };
  const { data: dame } = await api(suite.server.url, 'POST', '/api/games', { game: 'international', kind: 'local' });
  const { data: mill } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local' });
  await openWithSeats(page, suite.server.url, dame);
  await page.waitForSelector('.dame-board');
  assert.match(await download('#export'), /\.pdn$/);
  await openWithSeats(page, suite.server.url, mill);
  await page.waitForSelector('svg.board');
  assert.match(await download('#export'), /\.txt$/);
  await page.goto(`${suite.server.url}/archive?status=all`); // running games too
  await page.waitForSelector(`tr[data-id="${dame.id}"]`);
  assert.match(await download(`tr[data-id="${dame.id}"] a[download]`), /\.pdn$/);
  assert.match(await download(`tr[data-id="${mill.id}"] a[download]`), /\.txt$/);
});

test('the board is one tab stop: its focused point or square, where the arrow keys work', async (t) => {
  for (const game of ['muehle', 'dame']) {
    const { data } = await api(suite.server.url, 'POST', '/api/games', { game, kind: 'local' });
    const { page, context } = await newPage(suite.browser, { locale: 'en-GB' });
    logErrorsAfter(t, page);
    await openWithSeats(page, suite.server.url, data);
    // The view begins with an empty Mühle board and replaces it by the
    // game's own board when the state comes, before it remembers the game.
    await waitRemembered(page, data.id);
    await page.waitForSelector(game === 'dame' ? 'svg.board .sq' : 'svg.board .pt');
    await page.focus('#main');
    const focused = () => page.evaluate(() => {
      const a = document.activeElement;
      return { tag: a.tagName.toLowerCase(), cell: a.dataset.point || a.dataset.square || null };
    });
    await page.keyboard.press('Tab');
    const first = await focused();
    assert.equal(first.tag, 'g', `${game}: the first stop is a cell, not the board (${JSON.stringify(first)})`);
    for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
      await page.keyboard.press(key);
      if ((await focused()).cell !== first.cell) break;
    }
    const moved = await focused();
    assert.ok(moved.tag === 'g' && moved.cell !== first.cell, `${game}: the arrow keys move between cells (${JSON.stringify(moved)})`);
    // Shift+Tab leaves the board at once: no stop on the board itself.
    await page.keyboard.press('Shift+Tab');
    assert.ok(!['svg', 'g'].includes((await focused()).tag), `${game}: ${JSON.stringify(await focused())}`);
    await context.close();
  }
});
