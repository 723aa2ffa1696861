// (d) A mill: after closing it, exactly the removable stones are
// highlighted, a click removes one; the last move and the removed point are
// marked. Played at one screen, with the mouse, by drag and drop, by
// keyboard and by typing moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, getState, waitMoves, shownMoves, sleep, fillNewGame, startGame,
} from './helpers.mjs';

const suite = useServerAndBrowser('mill');

const removable = (page) => page.$$eval('.board .pt.is-removable', (els) => els.map((e) => e.dataset.point).sort());

test('a mill: removable stones highlighted, the removal works', async () => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  await page.goto(suite.server.url);
  await fillNewGame(page, { kind: 'local' });
  const id = await startGame(page);
  await page.waitForSelector('svg.board.interactive');
  assert.match(await page.textContent('#status'), /Weiß am Zug/);

  // Placements by click; legal targets are highlighted.
  assert.equal(await page.$$eval('.board .pt.is-target', (els) => els.length), 24);
  const moves = ['a7', 'b6', 'd7', 'd6'];
  for (const [i, mv] of moves.entries()) {
    await page.click(`.board [data-point=${mv}]`);
    await waitMoves(page, i + 1);
  }
  // White closes a7-d7-g7: Black's b6 and d6 may be removed.
  await page.click('.board [data-point=g7]');
  await page.waitForSelector('.board .pt.is-removable');
  assert.deepEqual(await removable(page), ['b6', 'd6']);
  assert.match(await page.textContent('#hint'), /Mühle!/);
  await shot(page, 'd-mill-choose');
  assert.equal((await getState(suite.server.url, id)).ply, 4, 'nothing is sent before the choice');
  await page.click('.board [data-point=b6]');
  await waitMoves(page, 5);
  let st = await getState(suite.server.url, id);
  assert.equal(st.moves[4], 'g7xb6');
  assert.deepEqual(await shownMoves(page), ['a7', 'b6', 'd7', 'd6', 'g7xb6']);
  assert.equal(await page.$('.board [data-point=b6].has-stone'), null);
  await page.waitForSelector('.board [data-point=b6].last-removed');
  await page.waitForSelector('.board [data-point=g7].last');
  assert.equal(await page.textContent('.player-bar[data-color=black] .count'), '7 in der Hand · 1 verloren');
  await shot(page, 'd-mill-removed');

  // Keyboard: focus a point, move the focus ring with the arrows, Enter places.
  await page.focus('.board [data-point=a7]');
  await page.keyboard.press('ArrowDown'); // a4
  await page.keyboard.press('ArrowRight'); // b4
  const focused = await page.evaluate(() => document.activeElement?.dataset?.point);
  assert.equal(focused, 'b4');
  await page.keyboard.press('Enter');
  await waitMoves(page, 6);
  assert.equal((await getState(suite.server.url, id)).moves[5], 'b4');

  // Typing moves: a mill move without the removal asks for it.
  await page.fill('#move-input', 'a1');
  await page.press('#move-input', 'Enter');
  await waitMoves(page, 7);
  await page.fill('#move-input', 'c5');
  await page.press('#move-input', 'Enter');
  await waitMoves(page, 8);
  await page.fill('#move-input', 'a4');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('.board .pt.is-removable');
  assert.deepEqual(await removable(page), ['b4', 'c5', 'd6']);
  await page.keyboard.press('Escape').catch(() => {});
  await page.fill('#move-input', 'a4xc5');
  await page.press('#move-input', 'Enter');
  await waitMoves(page, 9);
  st = await getState(suite.server.url, id);
  assert.equal(st.moves[8], 'a4xc5');

  // An illegal typed move is refused in words, nothing is sent.
  await page.fill('#move-input', 'a4');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#toast.show:has-text("nicht erlaubt")');
  assert.equal((await getState(suite.server.url, id)).ply, 9);

  // Replay a mill move from the list and go back to the game.
  await page.click('#move-list button.move[data-ply="5"]');
  await page.waitForSelector('.board [data-point=b6].last-removed');
  assert.equal(await page.$('svg.board.interactive'), null);
  await page.click('#nav-last');
  await page.waitForSelector('svg.board.interactive');
  assert.deepEqual(page.errors, []);
});

test('drag and drop moves a stone; a flight closes a mill', async () => {
  // From a set-up position: White has three stones and flies.
  const created = await fetch(`${suite.server.url}/api/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'muehle', kind: 'local', rules: 'standard', position: 'W.W/.../.../B....W/B../B../B.. w 0 0 0 20' }),
  }).then((r) => r.json());
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  await page.goto(suite.server.url);
  await page.evaluate(({ id, tokens }) => {
    localStorage.setItem(`brett.seats.${id}`, JSON.stringify(tokens));
  }, created);
  await page.goto(`${suite.server.url}/game/${created.id}`);
  await page.waitForSelector('svg.board.interactive');
  assert.match(await page.textContent('.player-bar[data-color=white] .phase'), /springt/);
  const drag = async (from, to) => {
    const a = await page.locator(`.board [data-point=${from}]`).boundingBox();
    const b = await page.locator(`.board [data-point=${to}]`).boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await page.mouse.up();
  };
  // g4 flies to d7 and closes a7-d7-g7: Black's stones a4, a1, b2?… removable.
  await drag('g4', 'd7');
  await page.waitForSelector('.board .pt.is-removable');
  const rem = await removable(page);
  assert.ok(rem.length >= 2, `removable ${rem}`);
  await shot(page, 'd-flight-mill');
  await page.click(`.board [data-point=${rem[0]}]`);
  await waitMoves(page, 1);
  const st = await getState(suite.server.url, created.id);
  assert.equal(st.moves[0], `g4-d7x${rem[0]}`);
  await sleep(10);
});
