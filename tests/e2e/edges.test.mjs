// The game page's rough edges: a draw offer shows above the board, names
// who offers it and says that a move declines it; the game controls keep
// their places after a take-back; the replay buttons are in view on a
// laptop screen; a game's record is copied to the clipboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, api, getState, waitState, waitMoves, clickMove, logErrorsAfter, openWithSeats,
  openNewGame,
} from './helpers.mjs';

const suite = useServerAndBrowser('edges');

const post = async (path, body) => {
  const r = await api(suite.server.url, 'POST', path, body);
  if (r.status !== 200 && r.status !== 201) throw new Error(`POST ${path} ${r.status}: ${JSON.stringify(r.data)}`);
  return r.data;
};

/** Where `sel` is on the screen now (no scrolling): {top, bottom, left, right, inView}. */
const placeOf = (page, sel) => page.$eval(sel, (el) => {
  const r = el.getBoundingClientRect();
  return {
    top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    inView: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
  };
});

test('a draw offer shows above the board with the offerer\'s name, and a move declines it', async (t) => {
  // Anna on a laptop plays White, Ben on a phone Black.
  const g = await post('/api/games', { game: 'muehle', kind: 'online', color: 'white', name: 'Anna' });
  await post(`/api/games/${g.id}/join`, { token: g.invite.token, name: 'Ben' });
  const { page: anna } = await newPage(suite.browser, { locale: 'de-DE', width: 1280, height: 800 });
  const { page: ben } = await newPage(suite.browser, { locale: 'de-DE', width: 390, height: 844 });
  logErrorsAfter(t, { anna, ben });
  try {
    await openWithSeats(anna, suite.server.url, { id: g.id, tokens: g.tokens });
    await openWithSeats(ben, suite.server.url, { id: g.id, tokens: { black: g.invite.token } });
    for (const p of [anna, ben]) await p.waitForSelector('#offer-draw');

    // Ben offers: Anna sees it by his name, in view, above the board.
    await ben.click('#offer-draw');
    await anna.waitForSelector('#draw-banner #accept-draw');
    const text = await anna.textContent('#draw-banner');
    assert.match(text, /Ben bietet Remis an/);
    assert.doesNotMatch(text, /Schwarz bietet/);
    assert.match(text, /Dein Zug lehnt es ab/);
    let where = await placeOf(anna, '#draw-banner');
    let board = await placeOf(anna, '.board-wrap');
    assert.ok(where.inView, `1280×800: the offer at ${JSON.stringify(where)}`);
    assert.ok(where.bottom <= board.top, `the offer above the board (${where.bottom} / ${board.top})`);
    await shot(anna, 'edges-draw-laptop');
    await anna.click('#decline-draw');
    await anna.waitForSelector('#draw-banner', { state: 'hidden' });

    // Anna moves, then offers a draw: Ben sees it on the phone, in view.
    let st = await getState(suite.server.url, g.id);
    await clickMove(anna, 'd6', st.legal_moves);
    await waitMoves(ben, 1);
    await anna.click('#offer-draw');
    await ben.waitForSelector('#draw-banner #decline-draw');
    assert.match(await ben.textContent('#draw-banner'), /Anna bietet Remis an.*Dein Zug lehnt es ab/s);
    // (Ben's page is scrolled down to the controls where he offered his draw.)
    assert.ok(await ben.evaluate(() => scrollY) > 0);
    where = await placeOf(ben, '#draw-banner');
    assert.ok(where.inView, `390×844: the offer at ${JSON.stringify(where)}`);
    assert.ok(await ben.$eval('#draw-banner', (el) => !!(el.compareDocumentPosition(document.querySelector('.board-wrap')) & Node.DOCUMENT_POSITION_FOLLOWING)),
      'the offer comes before the board');
    await shot(ben, 'edges-draw-phone');

    // Ben moves instead of answering: the offer is declined and goes away.
    st = await getState(suite.server.url, g.id);
    await clickMove(ben, 'f4', st.legal_moves);
    await waitState(suite.server.url, g.id, (s) => s.ply === 2 && !s.draw_offer);
    await ben.waitForSelector('#draw-banner', { state: 'hidden' });
    await anna.waitForSelector('#draw-banner', { state: 'hidden' });
  } catch (e) {
    await shot(anna, 'edges-draw-FAILED-anna');
    await shot(ben, 'edges-draw-FAILED-ben');
    throw e;
  }
});

/** The boxes of the game controls. */
const controlBoxes = (page) => page.evaluate(() => Object.fromEntries(['flip', 'takeback', 'resign'].map((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, { x: Math.round(r.x), y: Math.round(r.y + scrollY), w: Math.round(r.width), h: Math.round(r.height) }];
})));

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

for (const [width, height] of [[390, 844], [1280, 800]]) {
  test(`the game controls keep their places after a take-back (${width}×${height})`, async (t) => {
    const { page } = await newPage(suite.browser, { locale: 'de-DE', width, height });
    logErrorsAfter(t, page);
    // A local game at one screen with a few moves: the take-back shortens the move list.
    const g = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local' });
    const moves = ['a7', 'g1', 'd7', 'g4', 'b6', 'a1', 'f6'];
    for (const [i, mv] of moves.entries()) await post(`/api/games/${g.id}/moves`, { move: mv, token: i % 2 ? g.tokens.black : g.tokens.white, ply: i });
    await waitMoves(page, moves.length);
    await page.waitForSelector('#takeback:not([disabled])');
    const before = await controlBoxes(page);
    await page.click('#takeback');
    await waitMoves(page, moves.length - 1);
    await page.waitForSelector('#takeback:not([disabled])');
    const after = await controlBoxes(page);
    await shot(page, `edges-takeback-${width}`);
    assert.deepEqual(after.resign, before.resign, 'the resign button stays where it was');
    assert.ok(!overlaps(after.resign, before.takeback), `resign ${JSON.stringify(after.resign)} is not where take-back was ${JSON.stringify(before.takeback)}`);
    assert.deepEqual(after.takeback, before.takeback, 'the take-back button stays where it was');
    // The list keeps its height, its rows their own.
    const rows = await page.$$eval('#move-list .move-row', (els) => els.map((el) => el.getBoundingClientRect().height));
    assert.ok(rows.length === 3 && rows.every((x) => x > 10 && x < 50), `rows ${rows}`);
  });
}

/** Plays `n` plies of a local game through the API (a legal move each, spread over the choices). */
async function playPlies(g, n) {
  for (let i = 0; i < n; i++) {
    const st = await getState(suite.server.url, g.id);
    if (st.status !== 'ongoing') return st.ply;
    const pick = st.legal_moves[(i * 7 + 3) % st.legal_moves.length];
    await post(`/api/games/${g.id}/moves`, { move: pick, token: g.tokens[st.turn], ply: st.ply });
  }
  return n;
}

for (const game of ['muehle', 'dame']) {
  test(`the replay buttons are in view at 1280×800 with a long move list (${game})`, async (t) => {
    const { page } = await newPage(suite.browser, { locale: 'de-DE', width: 1280, height: 800 });
    logErrorsAfter(t, page);
    const { data: g } = await api(suite.server.url, 'POST', '/api/games', { game, kind: 'local' });
    const plies = await playPlies(g, 40);
    assert.ok(plies >= 20, `${plies} plies`);
    await openWithSeats(page, suite.server.url, g);
    await waitMoves(page, plies);
    for (const id of ['nav-first', 'nav-prev', 'nav-next', 'nav-last']) {
      const where = await placeOf(page, `#${id}`);
      assert.ok(where.inView, `${game}: #${id} at ${JSON.stringify(where)} of 1280×800`);
    }
    assert.equal(await page.evaluate(() => scrollY), 0);
    await shot(page, `edges-replay-${game}`);
  });
}

test('the record is copied to the clipboard from the game page and from the archive', async (t) => {
  const { context, page } = await newPage(suite.browser, { locale: 'en-GB' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
  logErrorsAfter(t, page);
  const { data: g } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local', name: 'Clara' });
  for (const [i, mv] of ['d6', 'f4', 'd2'].entries()) await post(`/api/games/${g.id}/moves`, { move: mv, token: i % 2 ? g.tokens.black : g.tokens.white, ply: i });
  await post(`/api/games/${g.id}/resign`, { token: g.tokens.black });
  const record = (await api(suite.server.url, 'GET', `/api/games/${g.id}/record`)).data;
  assert.match(record, /d6/);

  await page.goto(`${suite.server.url}/game/${g.id}`);
  await page.waitForSelector('#copy-record');
  await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
  await page.click('#copy-record');
  await page.waitForFunction(() => /copied/i.test(document.getElementById('toast')?.textContent || ''));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), record);

  await page.goto(`${suite.server.url}/archive`);
  await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
  await page.click(`[data-copy-record="${g.id}"]`);
  await page.waitForFunction(() => /copied/i.test(document.getElementById('toast')?.textContent || ''));
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), record);
  await shot(page, 'edges-copy-archive');
});
