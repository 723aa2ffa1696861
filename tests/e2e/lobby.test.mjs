// Issue #33 §3 in the browser: two players in two browser contexts meet in
// the lobby (a seek posted by one and accepted by the other, a direct
// challenge), play and take a rematch with colours swapped; a guest's
// invitation nobody joined is cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, logErrorsAfter, openNewGame, waitState, gameIdOf, shot } from './helpers.mjs';

const suite = useServerAndBrowser('lobby');

/** Registers `name` from the page (its cookie is the login) and opens the lobby. */
async function member(name, locale) {
  const { page } = await newPage(suite.browser, { locale });
  await page.goto(suite.server.url);
  const status = await page.evaluate(async (n) => {
    const res = await fetch('/api/account/register', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: n, password: 'a long enough password' }),
    });
    localStorage.setItem('brett.login', 'true');
    return res.status;
  }, name);
  assert.equal(status, 201);
  await page.goto(`${suite.server.url}/lobby`);
  await page.waitForSelector('#seek-submit:not([disabled])');
  return page;
}

/** The seat the page's login holds in game `id`. */
const seatOf = (page, id) => page.evaluate(async (g) => (await (await fetch(`/api/games/${g}`)).json()).you, id);

/** Both pages land in the same game; its id. */
async function sameGame(a, b) {
  await a.waitForURL(/\/game\/\d+$/);
  await b.waitForURL(/\/game\/\d+$/);
  const id = gameIdOf(a);
  assert.equal(gameIdOf(b), id);
  return id;
}

test('a seek accepted from the lobby, then a rematch with colours swapped', async (t) => {
  const anna = await member('Anna', 'de-DE');
  const ben = await member('Ben', 'en-GB');
  logErrorsAfter(t, { anna, ben });
  assert.equal(await ben.textContent('#seeks'), 'Nobody is seeking a game right now.');

  await anna.selectOption('#seek-game', 'muehle|standard');
  await anna.selectOption('#seek-tc', '5+3');
  await anna.selectOption('#seek-color', 'white');
  await anna.click('#seek-submit');
  // Ben's lobby gets it live; Anna's shows hers with a cancel button.
  const row = ben.locator('li.seek', { hasText: 'Anna' });
  await row.waitFor();
  assert.match(await row.textContent(), /5\+3/);
  await anna.locator('li.seek .cancel-seek').waitFor();
  await shot(ben, 'lobby-seek');
  await row.locator('.accept-seek').click();

  const id = await sameGame(anna, ben);
  assert.equal(await seatOf(anna, id), 'white');
  assert.equal(await seatOf(ben, id), 'black');

  // Anna resigns; the rematch is offered by her, accepted by Ben.
  await anna.evaluate(async (g) => fetch(`/api/games/${g}/resign`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), id);
  await anna.click('#rematch');
  await anna.waitForSelector('#rematch-withdraw');
  await ben.click('#rematch-accept');
  await ben.waitForURL((u) => /\/game\/\d+$/.test(u.pathname) && gameIdOf(ben) !== id);
  await anna.waitForURL((u) => /\/game\/\d+$/.test(u.pathname) && gameIdOf(anna) !== id);
  const next = gameIdOf(ben);
  assert.equal(gameIdOf(anna), next);
  assert.equal(await seatOf(anna, next), 'black');
  assert.equal(await seatOf(ben, next), 'white');
  const st = await waitState(suite.server.url, next, (s) => s.players.white.joined && s.players.black.joined);
  assert.equal(st.clock.control, '5+3');
  assert.equal(st.players.white.name, 'Ben');
});

test('a direct challenge accepted, an invitation cancelled', async (t) => {
  const carla = await member('Carla', 'en-GB');
  const dora = await member('Dora', 'en-GB');
  logErrorsAfter(t, { carla, dora });
  await carla.selectOption('#seek-game', 'dame|');
  await carla.selectOption('#seek-tc', '3d');
  await carla.fill('#challenge-name', 'dora');
  await carla.click('#challenge-submit');
  await carla.locator('#challenges-out li.challenge .cancel-challenge').waitFor();
  const incoming = dora.locator('#challenges-in li.challenge', { hasText: 'Carla' });
  await incoming.waitFor();
  await incoming.locator('.accept-challenge').click();
  const id = await sameGame(carla, dora);
  const st = await waitState(suite.server.url, id, () => true);
  assert.equal(st.game, 'dame');
  assert.equal(st.clock.control, '3d');
  assert.deepEqual([await seatOf(carla, id), await seatOf(dora, id)].sort(), ['black', 'white']);

  // A guest's invitation nobody has joined: shared through the device's
  // share sheet (where there is one), then cancelled from the game page.
  const { page: guest } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, { guest });
  await guest.addInitScript(() => {
    navigator.share = async (data) => { window.shared = data; };
  });
  const game = await openNewGame(guest, suite.server.url, { kind: 'online', color: 'white' });
  await guest.evaluate((g) => localStorage.setItem(`brett.invite.${g.id}`, JSON.stringify({ color: g.invite.color, url: g.invite.url })), game);
  await guest.reload();
  await guest.click('#invite-share');
  const shared = await guest.waitForFunction(() => window.shared).then((h) => h.jsonValue());
  assert.match(shared.url, new RegExp(`/game/${game.id}#token=[^&]+&color=black$`));
  await guest.click('#cancel-invite');
  const over = await waitState(suite.server.url, game.id, (s) => s.status === 'over');
  assert.equal(over.reason, 'aborted');
  assert.equal(over.ply, 0);
});

test('a seek arriving while a name is typed keeps the form as it is', async (t) => {
  const emma = await member('Emma', 'en-GB');
  const finn = await member('Finn', 'en-GB');
  logErrorsAfter(t, { emma, finn });
  assert.equal(await finn.textContent('#challenges-in-none'), 'None.');
  assert.equal(await emma.textContent('#challenges-out-none'), 'None.');
  await emma.selectOption('#seek-tc', '10+5');
  await emma.focus('#challenge-name');
  await emma.keyboard.type('Fi');
  await emma.evaluate(() => { document.querySelector('#challenge-name').dataset.mark = 'before'; });
  // Finn posts a seek: Emma's list of seeks gets it live.
  const posted = await finn.evaluate(async () => (await fetch('/api/lobby/seeks', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'muehle', rules: 'standard', time_control: '3+2', rated: false, color: 'random' }),
  })).status);
  assert.equal(posted, 201);
  const finnsSeek = emma.locator('li.seek', { hasText: 'Finn' });
  await finnsSeek.waitFor();
  await emma.keyboard.type('nn');
  assert.equal(await emma.inputValue('#challenge-name'), 'Finn');
  assert.equal(await emma.evaluate(() => document.activeElement?.id), 'challenge-name');
  assert.equal(await emma.getAttribute('#challenge-name', 'data-mark'), 'before', 'the form was not drawn anew');
  assert.equal(await emma.inputValue('#seek-tc'), '10+5');
  // The focus on a listed seek's button stays there when another seek comes in.
  const seekId = await finnsSeek.getAttribute('data-id');
  await finnsSeek.locator('.accept-seek').focus();
  const second = await finn.evaluate(async () => (await fetch('/api/lobby/seeks', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'dame', time_control: '10+5', rated: false, color: 'random' }),
  })).status);
  assert.equal(second, 201);
  await emma.waitForFunction(() => document.querySelectorAll('li.seek').length === 2);
  assert.equal(await emma.evaluate(() => document.activeElement?.closest('li.seek')?.dataset.id), seekId);
  assert.equal(await emma.evaluate(() => document.activeElement?.classList.contains('accept-seek')), true);
  await emma.click('#challenge-submit');
  await emma.locator('#challenges-out li.challenge', { hasText: 'Finn' }).waitFor();
  // Finn's incoming challenge arrives while his seek stays listed.
  await finn.locator('#challenges-in li.challenge', { hasText: 'Emma' }).waitFor();
  assert.equal(await finn.locator('#challenges-in-none').count(), 0);
  assert.equal(await emma.locator('#challenges-out-none').count(), 0);
  await finn.locator('li.seek .cancel-seek').first().waitFor();
});

test('quick pairing: two players choose the same game and control and meet in a game on that clock', async (t) => {
  const gina = await member('Gina', 'it-IT');
  const hugo = await member('Hugo', 'en-GB');
  logErrorsAfter(t, { gina, hugo });
  // Each game of the catalogue has its row of controls.
  assert.equal(await hugo.locator('.quick-row').count(), 5);
  const button = (page) => page.locator('.quick-btn[data-game="dame-100"][data-tc="10+5"]');
  assert.equal(await button(hugo).textContent(), '10+5');
  await shot(hugo, 'lobby-quick');
  await button(gina).click();
  // Gina's quick pairing is a seek of hers until someone takes it: listed in both lobbies.
  await gina.locator('li.seek .cancel-seek').waitFor();
  await hugo.locator('li.seek', { hasText: 'Gina' }).waitFor();
  await button(hugo).click();
  const id = await sameGame(gina, hugo);
  const st = await waitState(suite.server.url, id, () => true);
  assert.equal(st.game, 'dame-100');
  assert.equal(st.clock.control, '10+5');
  assert.deepEqual([await seatOf(gina, id), await seatOf(hugo, id)].sort(), ['black', 'white']);
});
