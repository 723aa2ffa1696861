// (c) A reload in the middle of a game keeps everything: the moves, the seat
// (token remembered per game), the board's orientation, the language, and
// the game goes on. Also for the invited guest, whose link lost its token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, getState, waitState, clickMove, waitMoves, shownMoves, fillNewGame, startGame,
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
