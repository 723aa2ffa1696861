// Clocks in the browser (#32): the time control chosen on the home page and
// shown in the game and the archive, both clocks next to the players with
// the running one ticking (tenths under 10 s), a short online game lost on
// time ending on both pages within a second of the deadline, the sound
// switch and the tab title, premoves, give time and abort, the "your turn"
// list, a claim against an opponent who left, and the drift of the page's
// clock after 100 moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, api, getState, waitState, waitMoves, clickMove, logErrorsAfter,
  fillNewGame, startGame, openWithSeats, waitRemembered, sleep,
} from './helpers.mjs';

const suite = useServerAndBrowser('clocks');

/** Seconds of a clock's text (`4:58`, `0:09.4`, `1:02:03`). */
function seconds(text) {
  const parts = text.trim().split(':').map(Number);
  return parts.reduce((acc, x) => acc * 60 + x, 0);
}

async function post(path, body) {
  const res = await api(suite.server.url, 'POST', path, body);
  if (res.status >= 300) throw new Error(`POST ${path} ${res.status}: ${JSON.stringify(res.data)}`);
  return res.data;
}

/** An online game with both players in (White: Anna, Black: Ben): {id, white, black} tokens. */
async function onlineGame(timeControl) {
  const created = await post('/api/games', { kind: 'online', color: 'white', name: 'Anna', time_control: timeControl });
  await post(`/api/games/${created.id}/join`, { token: created.invite.token, name: 'Ben' });
  return { id: created.id, white: created.tokens.white, black: created.invite.token };
}

/** Both players' pages of online game `g` (White's in German, Black's in English). */
async function openBoth(g) {
  const { page: host } = await newPage(suite.browser, { locale: 'de-DE' });
  const { page: guest } = await newPage(suite.browser, { locale: 'en-US', width: 390, height: 844 });
  await openWithSeats(host, suite.server.url, { id: g.id, tokens: { white: g.white } });
  await openWithSeats(guest, suite.server.url, { id: g.id, tokens: { black: g.black } });
  for (const p of [host, guest]) await p.waitForSelector('#clock-white');
  return { host, guest };
}

const move = (g, token, mv) => getState(suite.server.url, g.id)
  .then((st) => post(`/api/games/${g.id}/moves`, { token, move: mv, ply: st.ply }));

test('a hot-seat game on a custom clock: both clocks, the running one ticks, tenths under 10 s', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-US' });
  logErrorsAfter(t, page);
  // The beeps the page makes, counted.
  await page.addInitScript(() => {
    window.beeps = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function createOscillator() { window.beeps += 1; return make.call(this); };
  });
  try {
    await page.goto(suite.server.url);
    await fillNewGame(page, { kind: 'local' });
    await page.selectOption('#time-control', 'custom');
    await page.fill('#tc-minutes', '0.25');
    await page.fill('#tc-increment', '0');
    await shot(page, 'clocks-home-custom');
    const id = await startGame(page);
    await page.waitForSelector('#clock-white');
    assert.equal((await page.textContent('#game-tc')).trim(), '0.25+0');
    assert.match(await page.textContent('#rules-tc'), /0\.25\+0/);
    assert.equal(await page.textContent('#clock-white'), '0:15');
    assert.equal(await page.textContent('#clock-black'), '0:15');
    // The first move of each side is not on the clock.
    let st = await getState(suite.server.url, id);
    await clickMove(page, 'd6', st.legal_moves);
    await waitMoves(page, 1);
    assert.equal(await page.$('.clock.running'), null);
    st = await getState(suite.server.url, id);
    await clickMove(page, 'f4', st.legal_moves);
    await waitMoves(page, 2);
    await page.waitForSelector('#clock-white.running');
    assert.ok(await page.isVisible('#clock-black'));
    assert.ok(!(await page.$eval('#clock-black', (e) => e.classList.contains('running'))));
    const first = seconds(await page.textContent('#clock-white'));
    await sleep(1300);
    const later = seconds(await page.textContent('#clock-white'));
    assert.ok(later < first, `the running clock ticks down (${first} → ${later})`);
    assert.equal(seconds(await page.textContent('#clock-black')), 15, "the other clock stands");
    // Under 20 s the running clock is red; under 10 s it shows tenths.
    assert.ok(await page.$eval('#clock-white', (e) => e.classList.contains('low')));
    await page.waitForFunction(() => /^0:0\d\.\d$/.test(document.querySelector('#clock-white').textContent), null, { timeout: 9000 });
    const tenths = await page.textContent('#clock-white');
    await sleep(250);
    assert.notEqual(await page.textContent('#clock-white'), tenths, 'the tenths move');
    // A beep when the clock ran low, and one a second under 10 s.
    const beeps = await page.evaluate(() => window.beeps);
    await sleep(2100);
    const more = await page.evaluate(() => window.beeps);
    assert.ok(beeps >= 1, `${beeps} beeps`);
    assert.ok(more - beeps >= 2 && more - beeps <= 3, `${more - beeps} beeps in 2.1 s under 10 s`);
    // Switched off: silence.
    await page.uncheck('#clock-sound');
    const off = await page.evaluate(() => window.beeps);
    await sleep(1500);
    assert.equal(await page.evaluate(() => window.beeps), off);
    await shot(page, 'clocks-hotseat');
  } catch (e) {
    await shot(page, 'clocks-hotseat-FAILED');
    throw e;
  }
});

test('a short online game lost on time ends on both pages within a second of the deadline; the archive shows its clock', async (t) => {
  const g = await onlineGame('0.25+0');
  const { host, guest } = await openBoth(g);
  logErrorsAfter(t, { host, guest });
  try {
    // The first moves: the countdown to the abort shows until both have moved.
    await host.waitForSelector('#abort-countdown:not([hidden])');
    assert.match(await host.textContent('#abort-countdown'), /abgebrochen/);
    await move(g, g.white, 'd6');
    const sent = Date.now();
    const answer = await move(g, g.black, 'f4');
    const got = Date.now();
    assert.equal(answer.clock.running, 'white');
    // The server's deadline, as the state that started White's clock tells it.
    const deadline = (sent + got) / 2 + answer.clock.white_ms;
    await host.waitForSelector('#clock-white.running');
    await guest.waitForSelector('#clock-white.running');
    assert.ok(await host.isHidden('#abort-countdown'));
    const ended = async (page) => {
      await page.waitForSelector('.status-line.over', { timeout: 25000 });
      return Date.now();
    };
    const [hostEnd, guestEnd] = await Promise.all([ended(host), ended(guest)]);
    const late = [hostEnd - deadline, guestEnd - deadline];
    console.log(`end shown after the deadline: host ${Math.round(late[0])} ms, guest ${Math.round(late[1])} ms`);
    for (const ms of late) assert.ok(ms < 1000, `the end shows within 1 s of the deadline (${Math.round(ms)} ms)`);
    assert.equal(await host.textContent('#status'), 'Du hast auf Zeit verloren – Ben gewinnt');
    assert.equal(await guest.textContent('#status'), 'You won on time – Anna ran out of time');
    assert.equal(await guest.textContent('#clock-white'), '0:00.0');
    const st = await getState(suite.server.url, g.id);
    assert.equal(st.reason, 'time');
    assert.equal(st.result, '0-1');
    await shot(guest, 'clocks-flag-guest');

    // The archive shows the game's time control.
    await guest.goto(`${suite.server.url}/archive`);
    const row = guest.locator(`tr[data-id="${g.id}"]`);
    await row.waitFor();
    assert.match(await row.locator('.rules-cell').textContent(), /0\.25\+0/);
    assert.match(await row.locator('.result').textContent(), /ran out of time/);
  } catch (e) {
    await shot(host, 'clocks-flag-FAILED-host');
    await shot(guest, 'clocks-flag-FAILED-guest');
    throw e;
  } finally {
    await host.context().close();
    await guest.context().close();
  }
});

test('premove, the tab title, the sound switch, give time; the "your turn" list', async (t) => {
  const g = await onlineGame('5+0');
  const { host, guest } = await openBoth(g);
  logErrorsAfter(t, { host, guest });
  try {
    await move(g, g.white, 'd6');
    await move(g, g.black, 'f4');
    await host.waitForSelector('#clock-white.running');
    await guest.waitForSelector('#clock-white.running');
    // White's move: White's tab shows White's clock, Black's the usual title.
    await host.waitForFunction(() => /^⏱ [45]:\d\d · brett$/.test(document.title));
    assert.doesNotMatch(await guest.title(), /⏱/);
    // The opponent's connection shows as a dot.
    await guest.waitForSelector('.player-bar[data-color=white] .presence.on');

    // A premove entered during White's turn, cancelled by Escape …
    await guest.click('.board [data-point=a1]');
    await guest.waitForSelector('.board [data-point=a1].premove');
    assert.match(await guest.textContent('#hint'), /Premove a1/);
    await guest.keyboard.press('Escape');
    await guest.waitForSelector('.board .premove', { state: 'detached' });
    // … then another one, played as soon as White has moved.
    await guest.click('.board [data-point=b4]');
    await guest.waitForSelector('.board [data-point=b4].premove');
    await shot(guest, 'clocks-premove');
    let st = await getState(suite.server.url, g.id);
    assert.equal(st.ply, 2, 'a premove waits');
    // White's move carries the network delay White's page measured on its socket.
    const sentMove = host.waitForRequest((r) => r.url().endsWith(`/api/games/${g.id}/moves`) && r.method() === 'POST');
    await clickMove(host, 'd2', st.legal_moves);
    const body = JSON.parse((await sentMove).postData());
    assert.equal(body.move, 'd2');
    assert.ok(Number.isInteger(body.lag_ms) && body.lag_ms >= 0 && body.lag_ms < 500, `lag_ms ${body.lag_ms}`);
    st = await waitState(suite.server.url, g.id, (s) => s.ply >= 4, 5000);
    assert.deepEqual(st.moves, ['d6', 'f4', 'd2', 'b4']);
    await waitMoves(guest, 4);
    await waitMoves(host, 4);
    assert.equal(await guest.$('.board .premove'), null);
    // Now the title shows on White's side again, and not on Black's.
    await guest.waitForFunction(() => !document.title.startsWith('⏱'));

    // Give time: 15 s more on Black's clock, on both pages.
    const before = seconds(await host.textContent('#clock-black'));
    await host.click('#give-time');
    for (const p of [host, guest]) {
      await p.waitForFunction((b) => {
        const [m, s] = document.querySelector('#clock-black').textContent.split(':').map(Number);
        return m * 60 + s >= b + 14;
      }, before);
    }
    st = await getState(suite.server.url, g.id);
    assert.ok(st.clock.black_ms >= 300000 + 14000, `black has ${st.clock.black_ms} ms`);

    // The sound switch: on at first, off after a click, still off after a reload.
    assert.ok(await guest.isChecked('#clock-sound'));
    await guest.uncheck('#clock-sound');
    await guest.reload();
    await guest.waitForSelector('#clock-sound');
    assert.ok(!(await guest.isChecked('#clock-sound')));
    assert.equal(await guest.evaluate(() => localStorage.getItem('brett.clock.sound')), 'false');

    // White's home page: the games where it is White's move, timed ones
    // first (an untimed game against the computer after them).
    const comp = await post('/api/games', { kind: 'computer', color: 'white', level: 1 });
    await openWithSeats(host, suite.server.url, { id: comp.id, tokens: comp.tokens });
    await waitRemembered(host, comp.id);
    await host.goto(suite.server.url);
    await host.waitForFunction(() => document.querySelectorAll('#your-turn li').length >= 2);
    const ids = await host.$$eval('#your-turn li', (els) => els.map((e) => Number(e.dataset.id)));
    assert.deepEqual(ids, [g.id, comp.id]);
    await shot(host, 'clocks-your-turn');
    assert.match(await host.textContent(`#your-turn li[data-id="${g.id}"]`), /5\+0.*noch 4:\d\d/);
    assert.equal(await host.getAttribute(`#your-turn li[data-id="${comp.id}"] a`, 'href'), `/game/${comp.id}`);
    // Black's home page lists none of them (not Black's move).
    await guest.goto(suite.server.url);
    await guest.waitForSelector('.my-games li');
    assert.equal(await guest.$('#your-turn'), null);
  } catch (e) {
    await shot(host, 'clocks-premove-FAILED-host');
    await shot(guest, 'clocks-premove-FAILED-guest');
    throw e;
  } finally {
    await host.context().close();
    await guest.context().close();
  }
});

test('abort before the first moves ends the game as aborted on both pages', async (t) => {
  const g = await onlineGame('3+2');
  const { host, guest } = await openBoth(g);
  logErrorsAfter(t, { host, guest });
  try {
    await guest.waitForSelector('#abort:not([hidden])');
    await guest.waitForSelector('#abort-countdown:not([hidden])');
    assert.match(await guest.textContent('#abort-countdown'), /First move within 0:[0-3]\d/);
    await guest.click('#abort');
    await guest.waitForSelector('.status-line.over');
    await host.waitForSelector('.status-line.over');
    assert.match(await guest.textContent('#status'), /The game was aborted – no result/);
    assert.match(await host.textContent('#status'), /Die Partie wurde abgebrochen – ohne Ergebnis/);
    assert.ok(await host.isHidden('#abort'));
    assert.doesNotMatch(await host.textContent('.end-banner'), /\*/);
    const st = await getState(suite.server.url, g.id);
    assert.equal(st.reason, 'aborted');
  } finally {
    await host.context().close();
    await guest.context().close();
  }
});

test('a player whose opponent has left claims the win', async (t) => {
  const g = await onlineGame('5+0');
  const { host, guest } = await openBoth(g);
  logErrorsAfter(t, { host, guest });
  try {
    await move(g, g.white, 'd6');
    await move(g, g.black, 'f4');
    await host.waitForSelector('.player-bar[data-color=black] .presence.on');
    assert.ok(await host.isHidden('#claim-box'));
    // Black's page goes; White sees it, and after 30 s may claim.
    const left = Date.now();
    await guest.context().close();
    await host.waitForSelector('.player-bar[data-color=black] .presence.off');
    assert.ok(await host.isHidden('#claim-box'), 'no claim at once');
    await host.waitForSelector('#claim-win', { timeout: 40000 });
    assert.ok(Date.now() - left >= 29000, `the claim is offered after ${Date.now() - left} ms`);
    assert.ok(await host.isVisible('#claim-draw'));
    assert.match(await host.textContent('#claim-box'), /Ben hat die Partie verlassen/);
    await host.click('#claim-win');
    await host.waitForSelector('.status-line.over');
    assert.equal(await host.textContent('#status'), 'Du hast gewonnen – Ben hat die Partie verlassen');
    const st = await getState(suite.server.url, g.id);
    assert.deepEqual([st.result, st.reason], ['1-0', 'claimed']);
  } catch (e) {
    await shot(host, 'clocks-claim-FAILED-host');
    throw e;
  } finally {
    await host.context().close();
  }
});

test('a correspondence game: days per move, the clock in days, a day given', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-US' });
  logErrorsAfter(t, page);
  // The new-game form offers correspondence for online games only.
  await page.goto(suite.server.url);
  await fillNewGame(page, { kind: 'local' });
  assert.equal(await page.$('#time-control option[value="3d"]'), null);
  await fillNewGame(page, { kind: 'online' });
  assert.ok(await page.$('#time-control option[value="3d"]'));
  const g = await onlineGame('3d');
  await openWithSeats(page, suite.server.url, { id: g.id, tokens: { white: g.white } });
  await page.waitForSelector('#clock-white');
  assert.equal((await page.textContent('#game-tc')).trim(), '3 days per move');
  assert.equal(await page.textContent('#clock-black'), '3 d 00:00');
  assert.equal(await page.textContent('#give-time'), '+1 day for the opponent');
  await page.click('#give-time');
  await page.waitForFunction(() => document.querySelector('#clock-black').textContent === '4 d 00:00');
  await page.context().close();
});

test('clock drift after 100 moves', async (t) => {
  // A hot-seat game on 30+0 played through the API; the page follows over
  // its socket. Repetitions and moves without a mill do not end it.
  const created = await post('/api/games', {
    kind: 'local', game: 'muehle', rules: 'standard', options: { repetition: null, no_mill: null }, time_control: '30+0',
  });
  const { id, tokens } = created;
  const { page } = await newPage(suite.browser, { locale: 'en-US' });
  logErrorsAfter(t, page);
  await openWithSeats(page, suite.server.url, { id, tokens });
  await page.waitForSelector('#clock-white');
  let st = created.state;
  for (let i = 0; i < 100; i++) {
    assert.equal(st.status, 'ongoing', `the game goes on at ply ${st.ply}`);
    const quiet = st.legal_moves.filter((m) => !m.includes('x'));
    const pick = (quiet.length ? quiet : st.legal_moves)[(i * 7) % (quiet.length || st.legal_moves.length)];
    st = await post(`/api/games/${id}/moves`, { token: tokens[st.turn], move: pick, ply: st.ply });
  }
  await waitMoves(page, 100);
  await sleep(300);
  const running = st.clock.running;
  assert.ok(running, 'a clock runs');
  // The page's running time (as it draws it) at one moment, and the
  // server's from a fresh state at the middle of its request.
  const e0 = Date.now();
  const shown = await page.evaluate((c) => {
    const el = document.getElementById(`clock-${c}`);
    return Number(el.dataset.ms) - (performance.now() - Number(el.dataset.at));
  }, running);
  const e1 = Date.now();
  const t0 = Date.now();
  const fresh = await getState(suite.server.url, id);
  const t1 = Date.now();
  const atServer = fresh.clock[`${running}_ms`];
  const shownThen = shown - ((t0 + t1) / 2 - (e0 + e1) / 2);
  const drift = Math.round(shownThen - atServer);
  console.log(`clock drift after 100 moves: ${drift} ms (request round trips ${e1 - e0} ms, ${t1 - t0} ms)`);
  assert.ok(Math.abs(drift) < 250, `drift ${drift} ms`);
});
