// (c) A reload in the middle of a game keeps everything: the moves, the seat
// (token remembered per game), the board's orientation, the language, and
// the game goes on. Also for the invited guest, whose link lost its token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, getState, waitState, clickMove, waitMoves, shownMoves, fillNewGame, startGame,
  openNewGame, api, sleep, waitRemembered,
} from './helpers.mjs';

const suite = useServerAndBrowser('reload');

test('a reload in the middle of a computer game keeps everything', async () => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE', width: 375, height: 740 });
  await page.goto(suite.server.url);
  await fillNewGame(page, { kind: 'computer', level: 1, color: 'black', name: 'Clara' });
  const id = await startGame(page);
  // Black: the board is turned, the computer opens.
  await page.waitForSelector('.player-bar.bottom[data-color=black]');
  for (let i = 0; i < 3; i++) {
    const st = await waitState(suite.server.url, id, (s) => s.turn === 'black' && !s.thinking);
    await waitMoves(page, st.ply); // the page has the computer's move too
    await page.waitForSelector('svg.board.interactive');
    await clickMove(page, st.legal_moves[0], st.legal_moves);
    await waitState(suite.server.url, id, (s) => s.ply > st.ply);
  }
  let st = await waitState(suite.server.url, id, (s) => s.turn === 'black' && !s.thinking);
  await waitMoves(page, st.ply);
  await page.click('#flip'); // White at the bottom now, by choice
  await page.waitForSelector('.player-bar.bottom[data-color=white]');
  await page.selectOption('#lang-select', 'en');
  await page.waitForSelector('#status:has-text("Your move")');
  const before = await shownMoves(page);
  await shot(page, 'c-reload-before');

  await page.reload();
  await waitMoves(page, st.ply);
  assert.deepEqual(await shownMoves(page), before);
  await page.waitForSelector('#status:has-text("Your move")');
  assert.equal(await page.textContent('.player-bar[data-color=black] .name'), 'Clara');
  assert.equal(await page.textContent('.player-bar[data-color=black] .tag'), 'you');
  await page.waitForSelector('.player-bar.bottom[data-color=white]');
  await page.waitForSelector('svg.board.interactive');
  await shot(page, 'c-reload-after');

  // The seat still works after the reload.
  await clickMove(page, st.legal_moves[0], st.legal_moves);
  await waitState(suite.server.url, id, (s) => s.ply > st.ply);
  // And on a later visit through the plain game address.
  await page.goto(suite.server.url);
  await page.click(`a[href="/game/${id}"]`);
  st = await waitState(suite.server.url, id, (s) => s.turn === 'black' && !s.thinking);
  await waitMoves(page, st.ply);
  await page.waitForSelector('svg.board.interactive');
  assert.deepEqual(page.errors, []);
});

test('the invited guest keeps the seat over a reload', async () => {
  const { page: host } = await newPage(suite.browser);
  const { page: guest } = await newPage(suite.browser);
  await host.goto(suite.server.url);
  await fillNewGame(host, { kind: 'online', color: 'black' });
  const id = await startGame(host);
  const invite = await host.inputValue('#invite-link');
  await guest.goto(invite);
  await guest.click('#join');
  await guest.waitForSelector('.join-box', { state: 'hidden' });
  let st = await getState(suite.server.url, id);
  await clickMove(guest, 'a1', st.legal_moves);
  await waitMoves(host, 1);
  await guest.reload();
  await waitMoves(guest, 1);
  assert.equal(await guest.$('.join-box:not([hidden])'), null);
  await host.reload();
  await waitMoves(host, 1);
  st = await getState(suite.server.url, id);
  await clickMove(host, 'g7', st.legal_moves);
  await waitMoves(guest, 2);
  st = await getState(suite.server.url, id);
  await guest.waitForSelector('svg.board.interactive');
  await clickMove(guest, 'a4', st.legal_moves);
  await waitMoves(host, 3);
  assert.deepEqual(await shownMoves(host), ['a1', 'g7', 'a4']);
});

// The page asks for the state when it opens and whenever its socket
// (re)connects. An answer taken before the computer's reply but arriving
// after the socket brought that reply must not turn the page back: before
// this was handled, a loaded machine could leave the move list a move
// behind the server with nothing left to bring it up to date.
test('a state answer older than the socket\'s news does not turn the page back', async () => {
  const { page } = await newPage(suite.browser);
  const base = suite.server.url;
  const game = await openNewGame(page, base, { kind: 'computer', level: 1, color: 'white' });
  await page.waitForSelector('svg.board.interactive');
  // Every state answer is taken from the server at once and handed to the page only later.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let asked = 0;
  let answered = 0;
  const stateUrl = new RegExp(`/api/games/${game.id}$`);
  await page.route(stateUrl, async (route) => {
    const response = await route.fetch();
    asked += 1;
    await held;
    await route.fulfill({ response });
  });
  page.on('requestfinished', (req) => { if (stateUrl.test(req.url())) answered += 1; });
  await page.reload();
  await page.waitForSelector('svg.board.interactive');
  while (asked < 2) await sleep(20); // on opening and on the socket's connection
  const st = await getState(base, game.id);
  const played = await api(base, 'POST', `/api/games/${game.id}/moves`, { move: st.legal_moves[0], token: game.tokens.white, ply: 0 });
  assert.equal(played.status, 200, JSON.stringify(played.data));
  await waitState(base, game.id, (s) => s.ply === 2 && !s.thinking);
  await waitMoves(page, 2); // through the socket
  release();
  while (answered < asked) await sleep(20);
  await sleep(300);
  assert.equal((await shownMoves(page)).length, 2);
  await page.waitForSelector('svg.board.interactive');
  assert.deepEqual(page.errors, []);
});

test('the home page keeps what is typed in its form while its games\' states arrive', async () => {
  const { page, context } = await newPage(suite.browser, { locale: 'en-GB' });
  const game = await openNewGame(page, suite.server.url, { kind: 'local' });
  await waitRemembered(page, game.id);
  // The state of each remembered game comes after the page is drawn.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route((url) => url.pathname === `/api/games/${game.id}`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(suite.server.url);
  await page.waitForSelector(`.my-games a[href="/game/${game.id}"]`);
  assert.equal(await page.locator('.my-games .badge').count(), 0);
  await page.focus('#name');
  await page.keyboard.type('Gre');
  await page.evaluate(() => { document.querySelector('#name').dataset.mark = 'before'; });
  release();
  await page.waitForSelector('.my-games .badge');
  await page.keyboard.type('ta');
  assert.equal(await page.inputValue('#name'), 'Greta');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'name');
  assert.equal(await page.getAttribute('#name', 'data-mark'), 'before', 'the form was not drawn anew');
  await context.close();
});
