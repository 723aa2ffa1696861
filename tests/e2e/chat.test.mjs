// Issue #33 §5 in the browser: the chat of an online game between two
// players, a spectator in the spectators' room (who does not see the
// players' room), names and messages shown as text, blocking a player
// (and unblocking on the account page), reporting a message for the
// operator (`brett admin reports`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { useServerAndBrowser, newPage, api, logErrorsAfter, openWithSeats, BIN, sleep } from './helpers.mjs';

const suite = useServerAndBrowser('chat');
const EVIL = '<img src=x onerror=window.pwned=1>';

/** A new context whose page has registered `name` (logged in, as after the register page). */
async function person(name, locale = 'de-DE') {
  const p = await newPage(suite.browser, { locale });
  await p.page.goto(suite.server.url);
  const status = await p.page.evaluate(async (n) => {
    const res = await fetch('/api/account/register', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: n, password: 'correct horse 1' }),
    });
    localStorage.setItem('brett.login', 'true');
    return res.status;
  }, name);
  assert.equal(status, 201);
  return p;
}

/** Anna's online game (created from her page, so her account holds White). */
async function annasGame(page) {
  const created = await page.evaluate(async () => {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'online', color: 'white' }) });
    return res.json();
  });
  return created;
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

/** The texts of the chat's lines on a page. */
const lines = (page) => page.$$eval('#chat .chat-line', (els) => els.map((e) => `${e.querySelector('.chat-author').textContent}: ${e.querySelector('.chat-text').textContent}`));

async function waitLine(page, line) {
  await page.waitForFunction((l) => [...document.querySelectorAll('#chat .chat-line')]
    .some((e) => `${e.querySelector('.chat-author').textContent}: ${e.querySelector('.chat-text').textContent}` === l), line);
}

test('the players talk, a spectator talks in the spectators\' room; all of it as text', async (t) => {
  const a = await person('Anna');
  const c = await person('Carla', 'en-GB');
  const b = await newPage(suite.browser, { locale: 'fr-FR' });
  logErrorsAfter(t, { a: a.page, b: b.page, c: c.page });
  const game = await annasGame(a.page);
  const joined = await api(suite.server.url, 'POST', `/api/games/${game.id}/join`, { token: game.invite.token, name: EVIL });
  assert.equal(joined.status, 200);
  await a.page.goto(`${suite.server.url}/game/${game.id}`);
  await openWithSeats(b.page, suite.server.url, { id: game.id, tokens: { black: game.invite.token } });
  await b.page.selectOption('#lang-select', 'fr');
  await c.page.goto(`${suite.server.url}/game/${game.id}`);
  for (const [p, title] of [[a.page, 'Chat'], [b.page, 'Discussion'], [c.page, 'Spectators']]) {
    await p.waitForFunction((w) => document.querySelector('#chat h2')?.textContent === w, title);
  }
  // The players see one person watching: an eye drawn and the count, named in their language.
  await a.page.waitForFunction(() => document.querySelector('#spectators .spectator-count')?.textContent === '1');
  assert.equal(await a.page.locator('#spectators svg.eye-icon').count(), 1);
  assert.ok(await a.page.isVisible('#spectators'));
  assert.equal(await a.page.getAttribute('#spectators', 'aria-label'), '1 schaut zu');
  // The spectator's room says a guest cannot write; Carla can (her input
  // shows once the page knows her login).
  await c.page.waitForSelector('#chat-input', { state: 'visible' });

  await say(a.page, 'Viel Glück!');
  await waitLine(b.page, 'Anna: Viel Glück!');
  await say(b.page, EVIL);
  await waitLine(a.page, `${EVIL}: ${EVIL}`);
  await say(c.page, `spectating ${EVIL}`);
  await waitLine(c.page, `Carla: spectating ${EVIL}`);
  await sleep(500);
  // The spectator does not see the players' room, nor they hers while the game runs.
  assert.deepEqual(await lines(c.page), [`Carla: spectating ${EVIL}`]);
  assert.deepEqual(await lines(a.page), ['Anna: Viel Glück!', `${EVIL}: ${EVIL}`]);
  assert.deepEqual(await lines(b.page), ['Anna: Viel Glück!', `${EVIL}: ${EVIL}`]);
  // Nothing of it ran or became markup.
  for (const p of [a.page, b.page, c.page]) {
    assert.equal(await p.evaluate(() => window.pwned), undefined);
    assert.equal(await p.locator('#chat img, .player img').count(), 0);
  }
  // A message over 140 characters is refused with words.
  await say(c.page, 'x'.repeat(141));
  await c.page.waitForFunction(() => !document.querySelector('#chat .chat-error').hidden);
  assert.match(await c.page.textContent('#chat .chat-error'), /140/);

  // After the game the players read the spectators' room too (the replay).
  const resigned = await api(suite.server.url, 'POST', `/api/games/${game.id}/resign`, { token: game.invite.token });
  assert.equal(resigned.status, 200);
  await a.page.waitForSelector('#chat .chat-tabs:not([hidden])');
  await a.page.click('#chat .chat-tabs button:nth-child(2)');
  await waitLine(a.page, `Carla: spectating ${EVIL}`);
  await a.page.reload();
  await waitLine(a.page, 'Anna: Viel Glück!');
  assert.equal(await a.page.evaluate(() => window.pwned), undefined);
  for (const p of [a, b, c]) await p.context.close();
});

test('block a player: their messages no longer reach you; unblock on the account page; report a message', async (t) => {
  const a = await person('Anke');
  const b = await person('Bernd');
  logErrorsAfter(t, { a: a.page, b: b.page });
  const game = await annasGame(a.page);
  const joined = await b.page.evaluate(async ({ id, token }) => {
    const res = await fetch(`/api/games/${id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    return res.status;
  }, { id: game.id, token: game.invite.token });
  assert.equal(joined, 200);
  await a.page.goto(`${suite.server.url}/game/${game.id}`);
  await b.page.goto(`${suite.server.url}/game/${game.id}`);
  await say(b.page, 'du Flasche');
  await waitLine(a.page, 'Bernd: du Flasche');

  // Report it (a reason chosen), for the operator.
  await a.page.click('#chat .chat-line:not(.mine) .chat-report');
  await a.page.selectOption('#report-reason', 'insult');
  await a.page.click('dialog .btn.primary');
  await a.page.waitForFunction(() => document.querySelector('#toast')?.textContent.includes('gemeldet'));
  const reports = execFileSync(BIN, ['admin', 'reports', '--database', `sqlite://${suite.server.dir}/e2e.db`], { encoding: 'utf8' });
  assert.match(reports, /reported by Anke: insult/);
  assert.match(reports, /Bernd: du Flasche/);

  // Block him (after a confirmation): what he writes no longer comes.
  await a.page.click('#chat .chat-line:not(.mine) .chat-block');
  await a.page.click('dialog .btn.primary');
  await a.page.waitForFunction(() => document.querySelector('#toast')?.textContent.includes('blockiert'));
  assert.deepEqual(await lines(a.page), []);
  await say(b.page, 'hallo?');
  await waitLine(b.page, 'Bernd: hallo?');
  await say(a.page, 'noch da');
  await waitLine(a.page, 'Anke: noch da');
  await waitLine(b.page, 'Anke: noch da');
  assert.deepEqual(await lines(a.page), ['Anke: noch da']);
  await a.page.reload();
  await waitLine(a.page, 'Anke: noch da');
  assert.deepEqual(await lines(a.page), ['Anke: noch da']);

  // The account page lists him, with unblock.
  await a.page.goto(`${suite.server.url}/account`);
  await a.page.waitForSelector('#account-blocked .blocked-name');
  assert.equal(await a.page.textContent('#account-blocked .blocked-name'), 'Bernd');
  await a.page.click('#account-blocked button');
  await a.page.waitForFunction(() => !document.querySelector('#account-blocked .blocked-name'));
  await a.page.goto(`${suite.server.url}/game/${game.id}`);
  await waitLine(a.page, 'Bernd: hallo?');
  assert.deepEqual(a.page.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  for (const p of [a, b]) await p.context.close();
});
