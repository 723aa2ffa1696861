// (a) A whole game against the computer, to its result, through the UI;
// the take-back on the way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, waitState, clickMove, waitMoves, logErrorsAfter, fillNewGame, startGame,
} from './helpers.mjs';

const suite = useServerAndBrowser('computer');

// The end in the player's (White's) words, naming the computer.
const EXPECT_DE = {
  'blocked': /^(Du hast gewonnen – Computer \(Stufe 1\) kann nicht mehr ziehen|Du hast verloren – du kannst nicht mehr ziehen)$/,
  'two-stones': /^(Du hast gewonnen – Computer \(Stufe 1\) hat nur noch zwei Steine|Du hast verloren – du hast nur noch zwei Steine)$/,
  'repetition': /Unentschieden durch dreifache Stellungswiederholung/,
  'no-mill': /Unentschieden: 40 Halbzüge ohne Mühle/,
};

test('a whole game against the computer to its result', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  try {
    await play(page);
  } catch (e) {
    await shot(page, 'a-computer-FAILED');
    throw e;
  }
});

async function play(page) {
  await page.goto(suite.server.url);
  await fillNewGame(page, { kind: 'computer', level: 1, color: 'white', name: 'Anna' });
  // A shorter no-mill rule keeps the game short.
  await page.click('.rules-details summary');
  await page.fill('#no-mill', '40');
  const id = await startGame(page);
  await page.waitForSelector('.player-bar.bottom .name');
  assert.equal(await page.textContent('.player-bar.bottom .name'), 'Anna');
  assert.match(await page.textContent('.rules-box'), /Remis nach 40 Halbzügen ohne Mühle/);
  await shot(page, 'a-computer-start');

  // First move, then take it back.
  let st = await waitState(suite.server.url, id, (s) => s.turn === 'white' && !s.thinking);
  await clickMove(page, 'd6', st.legal_moves);
  st = await waitState(suite.server.url, id, (s) => s.ply === 2 && !s.thinking);
  await waitMoves(page, 2);
  await page.waitForSelector('#takeback:not([disabled])');
  await page.click('#takeback');
  st = await waitState(suite.server.url, id, (s) => s.ply === 0 && !s.thinking);
  await page.waitForFunction(() => document.querySelectorAll('#move-list button.move').length === 0);

  // Play on: a move that closes a mill when there is one, else the first legal move.
  let plies = 0;
  for (;;) {
    st = await waitState(suite.server.url, id, (s) => s.status === 'over' || (s.turn === 'white' && !s.thinking), 30000);
    if (st.status === 'over') break;
    const mills = st.legal_moves.filter((m) => m.includes('x'));
    const pick = (mills.length ? mills : st.legal_moves)[(plies * 7) % (mills.length || st.legal_moves.length)];
    await page.waitForSelector('svg.board.interactive');
    await clickMove(page, pick, st.legal_moves);
    await waitState(suite.server.url, id, (s) => s.ply > st.ply, 10000);
    plies += 1;
    if (plies === 12) await shot(page, 'a-computer-middle');
    assert.ok(plies < 400, 'the game should end');
  }
  await page.waitForSelector('.status-line.over');
  const text = await page.textContent('#status');
  assert.ok(EXPECT_DE[st.reason], `unexpected reason ${st.reason}`);
  assert.match(text, EXPECT_DE[st.reason]);
  if (st.result === '1-0') assert.match(text, /^Du hast gewonnen/);
  if (st.result === '0-1') assert.match(text, /^Du hast verloren/);
  // The board is no longer interactive, the move list holds the whole game.
  assert.equal(await page.$('svg.board.interactive'), null);
  const shown = await page.$$eval('#move-list button.move', (els) => els.map((e) => e.textContent));
  assert.deepEqual(shown, st.moves);
  await shot(page, 'a-computer-end');

  // Replay: click the first move, then step with the buttons.
  await page.click('#move-list button.move >> nth=0');
  await page.waitForSelector('.replay-info:has-text("Stellung nach 1. ")');
  const placed = await page.$$eval('.board .pt.has-stone', (els) => els.length);
  assert.equal(placed, 1);
  await page.click('#nav-next');
  await page.waitForSelector('.replay-info:has-text("Stellung nach 1… ")');
  await shot(page, 'a-computer-replay');
  assert.deepEqual(page.errors, []);
}
