// (b) Two browser contexts play an online game through the invite link: each
// sees the other's moves live, the guest cannot move the host's stones.
// A player name with markup shows as text. The server restarts in the middle
// of the game: both pages reconnect by themselves and every acknowledged move
// is still there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, getState, waitState, clickMove, waitMoves, shownMoves, api,
  logErrorsAfter, fillNewGame, startGame,
} from './helpers.mjs';

const suite = useServerAndBrowser('online');

const EVIL = '<img src=x onerror="window.__pwned=1">';

test('online game through the invite link, live on both sides, server restart', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'de-DE' });
  const { page: guest } = await newPage(suite.browser, { locale: 'en-US', width: 375, height: 740 });
  logErrorsAfter(t, { host, guest });
  try {
    await run(host, guest);
  } catch (e) {
    await shot(host, 'b-online-FAILED-host');
    await shot(guest, 'b-online-FAILED-guest');
    throw e;
  }
});

async function run(host, guest) {
  // The host creates the game and plays White.
  await host.goto(suite.server.url);
  await fillNewGame(host, { kind: 'online', color: 'white', name: EVIL });
  const id = await startGame(host);
  await host.waitForSelector('#invite-link');
  const invite = await host.inputValue('#invite-link');
  assert.match(invite, new RegExp(`/game/${id}#token=`));
  const watch = await host.inputValue('#watch-link');
  assert.equal(watch, `${suite.server.url}/game/${id}`);
  assert.match(await host.textContent('#status'), /Warte auf den Gegner/);
  await shot(host, 'b-online-invite');

  // The guest opens the invite, sees the host's name as text, joins as Ben.
  await guest.goto(invite);
  await guest.waitForSelector('#join');
  assert.equal(new URL(guest.url()).hash, '', 'the token leaves the address bar');
  const hostName = await guest.textContent('.player-bar[data-color=white] .name');
  assert.equal(hostName, EVIL);
  assert.equal(await guest.$('.player-bar img'), null);
  assert.equal(await guest.evaluate(() => window.__pwned), undefined);
  await guest.fill('#join-name', 'Ben');
  await guest.click('#join');
  await guest.waitForSelector('.join-box', { state: 'hidden' });
  // The guest plays Black: the board is turned for them.
  await guest.waitForSelector('.player-bar.bottom[data-color=black]');
  await host.waitForFunction(() => document.querySelector('.player-bar[data-color=black] .name')?.textContent === 'Ben');
  assert.equal(await host.$('#invite-link'), null, 'the invite disappears once taken');
  assert.match(await host.textContent('#status'), /Du bist am Zug/);
  assert.match(await guest.textContent('#status'), /to move/);

  // The guest cannot move while it is White's turn, nor touch White's stones.
  let st = await getState(suite.server.url, id);
  assert.equal(await guest.$('svg.board.interactive'), null);
  await guest.click('.board [data-point=d6]', { force: true });
  await guest.waitForTimeout(300);
  st = await getState(suite.server.url, id);
  assert.equal(st.ply, 0);

  // Moves, each seen live by the other side.
  const script = ['d6', 'f4', 'd2', 'b4', 'a7', 'g1'];
  for (const [i, mv] of script.entries()) {
    const mover = i % 2 === 0 ? host : guest;
    st = await getState(suite.server.url, id);
    await clickMove(mover, mv, st.legal_moves);
    await waitMoves(host, i + 1);
    await waitMoves(guest, i + 1);
  }
  assert.deepEqual(await shownMoves(host), script);
  assert.deepEqual(await shownMoves(guest), script);
  await shot(host, 'b-online-host');
  await shot(guest, 'b-online-guest');

  // White to move; the guest tries to select and drag White's stone d6.
  await guest.click('.board [data-point=d6]', { force: true });
  assert.equal(await guest.$('.board [data-point=d6].selected'), null);
  const box = await guest.locator('.board [data-point=d6]').boundingBox();
  await guest.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await guest.mouse.down();
  await guest.mouse.move(box.x + box.width / 2, box.y + box.height * 1.6, { steps: 5 });
  await guest.mouse.up();
  await guest.waitForTimeout(300);
  st = await getState(suite.server.url, id);
  assert.equal(st.ply, script.length);
  // The server refuses, too: the guest's token holds no right to White's move.
  const guestToken = await guest.evaluate((gid) => JSON.parse(localStorage.getItem(`brett.seats.${gid}`)).black, id);
  assert.ok(guestToken);
  const refused = await api(suite.server.url, 'POST', `/api/games/${id}/moves`, { move: st.legal_moves[0], token: guestToken, ply: st.ply });
  assert.equal(refused.status, 409);
  assert.equal(refused.data.code, 'not_your_turn');

  // The server goes away in the middle of the game and comes back.
  await suite.server.kill();
  await host.waitForSelector('.conn.offline, .conn.connecting', { timeout: 15000 });
  await guest.waitForSelector('.conn.offline, .conn.connecting', { timeout: 15000 });
  await shot(guest, 'b-online-offline');
  await suite.server.start();
  await host.waitForSelector('.conn.online', { timeout: 30000 });
  await guest.waitForSelector('.conn.online', { timeout: 30000 });
  st = await getState(suite.server.url, id);
  assert.deepEqual(st.moves, script, 'every acknowledged move survives the restart');
  assert.deepEqual(await shownMoves(host), script);
  assert.deepEqual(await shownMoves(guest), script);

  // The game goes on after the restart, live on both sides.
  await clickMove(host, 'g7', st.legal_moves);
  await waitMoves(guest, script.length + 1);
  st = await getState(suite.server.url, id);
  await clickMove(guest, st.legal_moves.find((m) => !m.includes('x')), st.legal_moves);
  await waitMoves(host, script.length + 2);
  await shot(host, 'b-online-after-restart');

  // A watcher (no token) follows live and cannot move.
  const { page: watcher } = await newPage(suite.browser, { locale: 'de-DE' });
  await watcher.goto(watch);
  await waitMoves(watcher, script.length + 2);
  assert.match(await watcher.textContent('#hint'), /Du schaust zu/);
  assert.equal(await watcher.$('svg.board.interactive'), null);
  st = await getState(suite.server.url, id);
  await clickMove(host, st.legal_moves.find((m) => !m.includes('x')), st.legal_moves);
  await waitMoves(watcher, script.length + 3);
  await watcher.context().close();

  // Draw offered by the guest, accepted by the host.
  st = await waitState(suite.server.url, id, (s) => s.turn === 'black');
  await guest.click('#offer-draw');
  await host.waitForSelector('#accept-draw');
  await host.click('#accept-draw');
  await host.waitForSelector('.status-line.over');
  assert.match(await host.textContent('#status'), /Unentschieden durch Einigung/);
  await guest.waitForSelector('.status-line.over');
  assert.match(await guest.textContent('#status'), /Draw by agreement/);
  await shot(guest, 'b-online-draw');
  assert.equal(await host.evaluate(() => window.__pwned), undefined);
}
