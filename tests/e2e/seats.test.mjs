// Seats confirmed by the server before the page offers them (#12 §3):
// a wrong invite token (1), the join card first on a phone (2), an invite
// link opened after someone joined (7), an online game waiting for the
// invited player (8), and a declined draw offer told to the offerer (9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, getState, clickMove, waitMoves, api, logErrorsAfter,
  fillNewGame, startGame,
} from './helpers.mjs';

const suite = useServerAndBrowser('seats');

/** An online game made by the host page; returns {id, invite}. */
async function onlineGame(host, color = 'white') {
  await host.goto(suite.server.url);
  await fillNewGame(host, { kind: 'online', color, name: 'Anna' });
  const id = await startGame(host);
  await host.waitForSelector('#invite-link');
  return { id, invite: await host.inputValue('#invite-link') };
}

test('a wrong invite token shows a clear message and the spectator view, never a seat', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'en-US' });
  const { page: guest } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, { host, guest });
  const { id } = await onlineGame(host);
  await guest.goto(`${suite.server.url}/game/${id}#token=not-the-token`);
  await guest.waitForSelector('#seat-notice:not([hidden])');
  assert.match(await guest.textContent('#seat-notice'), /keinen Platz/);
  assert.match(await guest.textContent('#hint'), /Du schaust zu/);
  // No seat is offered: no join card, no resign or draw, no "your move".
  assert.equal(await guest.$('.join-box:not([hidden])'), null);
  assert.equal(await guest.isVisible('#resign'), false);
  assert.equal(await guest.isVisible('#offer-draw'), false);
  assert.doesNotMatch(await guest.textContent('#status'), /Du bist am Zug|Du spielst/);
  assert.equal(await guest.evaluate((k) => localStorage.getItem(k), `brett.seats.${id}`), null);
  await shot(guest, 'seats-bad-token');
});

test('on a phone the join card is the first thing on screen', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'en-US' });
  const { page: guest } = await newPage(suite.browser, { locale: 'de-DE', width: 390, height: 844 });
  logErrorsAfter(t, { host, guest });
  const { invite } = await onlineGame(host);
  await guest.goto(invite);
  await guest.waitForSelector('#join');
  await guest.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await guest.locator('.join-box').boundingBox();
  const board = await guest.locator('svg.board').boundingBox();
  // Below the header, which stays at the top: its heading is not hidden.
  const header = await guest.locator('.topbar').boundingBox();
  assert.ok(box.y >= header.y + header.height && box.y + box.height <= 844, `join card on screen: ${JSON.stringify(box)} under ${JSON.stringify(header)}`);
  assert.ok(await guest.isVisible('.join-box h2'), 'its heading');
  assert.ok(box.y < board.y, 'the join card comes before the board');
  const join = await guest.locator('#join').boundingBox();
  assert.ok(join.y + join.height <= 844, 'the join button is visible without scrolling');
  // It is nobody's move yet: the status says who is awaited.
  assert.equal(await guest.textContent('#status'), 'Du bist zu einer Partie eingeladen');
  const { page: watcher, context } = await newPage(suite.browser, { locale: 'de-DE' });
  await watcher.goto(invite.replace(/#.*$/, ''));
  await watcher.waitForSelector('svg.board');
  await watcher.waitForFunction(() => document.getElementById('status')?.textContent === 'Die Partie wartet auf den eingeladenen Spieler.');
  await context.close();
  await shot(guest, 'seats-phone-join');
});

test('an online game waits for the invited player; once joined, the link is a watch link', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'en-US' });
  const { page: guest } = await newPage(suite.browser, { locale: 'en-US' });
  const { page: third } = await newPage(suite.browser, { locale: 'en-US' });
  logErrorsAfter(t, { host, guest, third });
  const { id, invite } = await onlineGame(host);

  // Waiting: the host cannot move, resign or offer a draw. (The seat is
  // confirmed by the server after the first render: wait for it.)
  await host.waitForFunction(() => /Waiting for your opponent/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 5000 }).catch(() => {});
  assert.match(await host.textContent('#status'), /Waiting for your opponent/);
  assert.equal(await host.$('svg.board.interactive'), null);
  assert.equal(await host.isVisible('#resign'), false);
  assert.equal(await host.isVisible('#offer-draw'), false);
  await host.click('.board [data-point=d6]', { force: true });
  await host.waitForTimeout(300);
  assert.equal((await getState(suite.server.url, id)).ply, 0);
  // The server agrees.
  const hostToken = await host.evaluate((k) => JSON.parse(localStorage.getItem(k)).white, `brett.seats.${id}`);
  const early = await api(suite.server.url, 'POST', `/api/games/${id}/moves`, { move: 'd6', token: hostToken, ply: 0 });
  assert.equal(early.status, 409);
  assert.equal(early.data.code, 'waiting_for_opponent');

  // The guest joins; now the host plays.
  await guest.goto(invite);
  await guest.click('#join');
  await guest.waitForSelector('.join-box', { state: 'hidden' });
  await host.waitForSelector('svg.board.interactive');
  assert.equal(await host.isVisible('#resign'), true);
  let st = await getState(suite.server.url, id);
  await clickMove(host, 'd6', st.legal_moves);
  await waitMoves(guest, 1);

  // A third browser opens the same invite link: it watches, with a notice.
  await third.goto(invite);
  await third.waitForSelector('#seat-notice:not([hidden])');
  assert.match(await third.textContent('#seat-notice'), /already taken/);
  assert.equal(await third.$('.join-box:not([hidden])'), null);
  assert.equal(await third.$('svg.board.interactive'), null);
  assert.equal(await third.isVisible('#resign'), false);
  assert.match(await third.textContent('#hint'), /You are watching/);
  await shot(third, 'seats-taken');
  // Watching stays watching; the seat is not stored.
  await third.click('#dismiss-notice');
  assert.equal(await third.evaluate((k) => localStorage.getItem(k), `brett.seats.${id}`), null);
  // The guest still plays (its seat is stored and confirmed).
  st = await getState(suite.server.url, id);
  await guest.waitForSelector('svg.board.interactive');
  await clickMove(guest, 'f4', st.legal_moves);
  await waitMoves(host, 2);
});

test('the player whose draw offer is declined is told so', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'en-US' });
  const { page: guest } = await newPage(suite.browser, { locale: 'fr-FR' });
  logErrorsAfter(t, { host, guest });
  const { invite } = await onlineGame(host);
  await guest.goto(invite);
  await guest.click('#join');
  await guest.waitForSelector('.join-box', { state: 'hidden' });
  await host.waitForSelector('#offer-draw');
  await host.click('#offer-draw');
  await guest.waitForSelector('#decline-draw');
  await guest.click('#decline-draw');
  await host.waitForFunction(() => /Your draw offer was declined/.test(document.getElementById('toast')?.textContent || ''));
  // The offer box is gone and the host may offer again later.
  await host.waitForSelector('.draw-box', { state: 'hidden' });
});
