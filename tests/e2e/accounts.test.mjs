// Issue #33 §1–§2 in the browser: register, log in and out (the header's
// account part), wrong passwords worded, "my games" following the account to
// another device (and played there through the login's cookie, with no seat
// token), changing the password, deleting the account, names shown as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, api, logErrorsAfter, fillNewGame, startGame, clickMove, waitState, shot, registerAccount, loginAccount,
} from './helpers.mjs';

const suite = useServerAndBrowser('accounts');
const PASSWORD = 'correct horse 1';

const register = (page, name, password = PASSWORD) => registerAccount(page, suite.server.url, name, password);
const login = (page, name, password = PASSWORD) => loginAccount(page, suite.server.url, name, password);

async function logout(page) {
  await page.click('#account-menu > summary');
  await page.click('#logout-link');
  await page.waitForSelector('#login-link');
}

/** The page's errors but the failed requests a test asks for (wrong passwords, taken names, asking who is logged in after a logout). */
const unexpected = (page) => page.errors.filter((e) => !/status of (401|403|409|429)/.test(e));

/** GET /api/account from the page (with its cookie): the status. */
const whoAmI = (page) => page.evaluate(async () => (await fetch('/api/account')).status);

test('register in one context, log in in another (a wrong password worded), log out', async (t) => {
  const a = await newPage(suite.browser, { locale: 'de-DE' });
  const b = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, { a: a.page, b: b.page });
  await a.page.goto(suite.server.url);
  assert.equal(await a.page.textContent('#login-link'), 'Anmelden');
  assert.equal(await a.page.textContent('#register-link'), 'Registrieren');
  await register(a.page, 'Anna_1');
  assert.equal(await whoAmI(a.page), 200);
  assert.match(await a.page.textContent('#account-h'), /Anna_1/);

  // A name the rules refuse is said before asking the server.
  await b.page.goto(`${suite.server.url}/register`);
  await b.page.fill('#account-name', 'x');
  await b.page.fill('#account-password', PASSWORD);
  await b.page.click('#account-submit');
  assert.equal(await b.page.textContent('#account-error'), 'The name: 3 to 20 letters, digits, _ or -.');
  // A taken name, whatever its case.
  await b.page.fill('#account-name', 'anna_1');
  await b.page.click('#account-submit');
  await b.page.waitForFunction(() => document.querySelector('#account-error')?.textContent === 'Someone has this name already. Choose another one.');

  await login(b.page, 'anna_1', 'not the password');
  await b.page.waitForSelector('#account-error');
  assert.equal(await b.page.textContent('#account-error'), 'Wrong name or password.');
  assert.equal(await whoAmI(b.page), 401);
  await login(b.page, 'anna_1');
  await b.page.waitForURL(/\/account$/);
  await b.page.waitForFunction(() => document.querySelector('#account-menu-name')?.textContent === 'Anna_1');
  await b.page.setViewportSize({ width: 390, height: 844 });
  await shot(b.page, 'account-page-390');

  await logout(b.page);
  assert.equal(await whoAmI(b.page), 401);
  assert.equal(new URL(b.page.url()).pathname, '/');
  // The other context's login holds.
  await a.page.reload();
  await a.page.waitForFunction(() => document.querySelector('#account-menu-name')?.textContent === 'Anna_1');
  assert.equal(await whoAmI(a.page), 200);
  // A guest's pages do not ask who is logged in (no request that fails).
  assert.deepEqual(a.page.errors, []);
  assert.deepEqual(unexpected(b.page), []);
  await a.context.close();
  await b.context.close();
});

test('too many wrong passwords: the wait from Retry-After, in the page’s language', async (t) => {
  const { context, page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/login`);
  for (let i = 0; i < 8; i++) {
    await page.fill('#account-name', 'nobody_here');
    await page.fill('#account-password', `wrong password ${i}`);
    await page.click('#account-submit');
    await page.waitForFunction(() => !document.querySelector('#account-submit').disabled && document.querySelector('#account-error'));
    if (/Zu viele Versuche/.test(await page.textContent('#account-error'))) break;
  }
  assert.match(await page.textContent('#account-error'), /^Zu viele Versuche; versuche es in \d+ s wieder\.$/);
  await context.close();
});

test('an account’s game follows it to another device and is played there through the login', async (t) => {
  const a = await newPage(suite.browser, { locale: 'de-DE' });
  const b = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, { a: a.page, b: b.page });
  await register(a.page, 'Bert');
  await a.page.goto(suite.server.url);
  await fillNewGame(a.page, { game: 'muehle', kind: 'computer', level: 1, color: 'white' });
  const id = await startGame(a.page);

  await login(b.page, 'bert');
  await b.page.waitForURL(/\/account$/);
  // The account page lists it, with its number and a link.
  await b.page.waitForSelector(`.account-games tr[data-id="${id}"] a[href="/game/${id}"]`);
  assert.equal(await b.page.getAttribute(`.account-games tr[data-id="${id}"]`, 'data-outcome'), 'ongoing');
  // "My games" on the home page too, though this browser never saw the game.
  await b.page.goto(suite.server.url);
  // The list is drawn again when the game's state has come in (its badge, and the "your
  // move" card above the list): a click before that may land while the link is replaced.
  const link = b.page.locator(`.my-games a[href="/game/${id}"]`);
  await b.page.locator(`.my-games a[href="/game/${id}"] .badge`).waitFor();
  await link.click();
  await b.page.waitForURL(new RegExp(`/game/${id}$`));
  assert.equal(await b.page.evaluate((g) => localStorage.getItem(`brett.seats.${g}`), id), null);
  await b.page.waitForSelector('.board [data-point=d6]');
  await b.page.waitForFunction(() => /Du bist am Zug|Dein Zug/.test(document.body.textContent));
  await clickMove(b.page, 'd6');
  const st = await waitState(suite.server.url, id, (s) => s.ply >= 1);
  assert.equal(st.moves?.[0] ?? 'd6', 'd6');
  assert.deepEqual(unexpected(b.page), []);
  await a.context.close();
  await b.context.close();
});

test('change the password, log in with the new one, delete the account', async (t) => {
  const a = await newPage(suite.browser, { locale: 'en-GB' });
  const b = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, { a: a.page, b: b.page });
  await register(a.page, 'Dora');
  await a.page.fill('#old-password', 'not my password');
  await a.page.fill('#new-password', 'a new password 2');
  await a.page.click('#password-submit');
  await a.page.waitForSelector('#password-error');
  assert.equal(await a.page.textContent('#password-error'), 'The password is wrong.');
  await a.page.fill('#old-password', PASSWORD);
  await a.page.fill('#new-password', 'a new password 2');
  await a.page.click('#password-submit');
  await a.page.waitForFunction(() => !document.querySelector('#password-error') && document.querySelector('#old-password').value === '');

  await login(b.page, 'dora', PASSWORD);
  await b.page.waitForSelector('#account-error');
  assert.equal(await b.page.textContent('#account-error'), 'Wrong name or password.');
  await login(b.page, 'dora', 'a new password 2');
  await b.page.waitForURL(/\/account$/);

  // Deleting asks for the password and says what becomes of the games.
  assert.match(await b.page.textContent('#delete-form'), /games stay in the archive/);
  await b.page.fill('#delete-password', 'wrong');
  await b.page.click('#delete-submit');
  await b.page.click('dialog .btn.primary');
  await b.page.waitForSelector('#delete-error');
  assert.equal(await b.page.textContent('#delete-error'), 'The password is wrong.');
  await b.page.fill('#delete-password', 'a new password 2');
  await b.page.click('#delete-submit');
  await b.page.click('dialog .btn.primary');
  await b.page.waitForSelector('#login-link');
  assert.equal(await whoAmI(b.page), 401);
  const again = await api(suite.server.url, 'POST', '/api/account/login', { name: 'dora', password: 'a new password 2' });
  assert.equal(again.status, 401);
  assert.deepEqual(unexpected(b.page), []);
  await a.context.close();
  await b.context.close();
});

test('the account page keeps what is typed in its forms while its lists arrive', async (t) => {
  const { context, page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await register(page, 'Fenja');
  // The account's games (and its blocked players) arrive after the page is
  // drawn; a player may already be typing in a form below them.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route((url) => url.pathname === '/api/account/games' || url.pathname === '/api/account', async (route) => {
    await held;
    await route.continue();
  });
  // Within the app (no reload): the page knows the account and draws its forms at once.
  await page.click('#account-menu > summary');
  await page.click('#account-link');
  await page.waitForSelector('#delete-password');
  assert.equal(await page.textContent('#account-games p'), '…');
  await page.focus('#delete-password');
  await page.keyboard.type('half typ');
  await page.evaluate(() => { document.querySelector('#delete-submit').dataset.mark = 'before'; });
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/account/games');
  release();
  await answered;
  await page.waitForSelector('#account-games-empty');
  await page.waitForSelector('#account-blocked .muted');
  await page.keyboard.type('ed');
  assert.equal(await page.inputValue('#delete-password'), 'half typed');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'delete-password');
  assert.equal(await page.getAttribute('#delete-submit', 'data-mark'), 'before', 'the form was not drawn anew');
  await page.click('#delete-submit');
  await page.click('dialog .btn');
  assert.deepEqual(unexpected(page), []);
  await context.close();
});

test('names are shown as text: an opponent named with <b>, " and &; filters by result', async (t) => {
  const { context, page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await register(page, 'Emil-2');
  const created = await page.evaluate(async () => {
    const res = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'muehle', kind: 'online', color: 'white', name: 'Emil' }) });
    return res.json();
  });
  const evil = '<b>Ben</b> "&amp; <img src=x>';
  const joined = await api(suite.server.url, 'POST', `/api/games/${created.id}/join`, { token: created.invite.token, name: evil });
  assert.equal(joined.status, 200, JSON.stringify(joined.data));
  // The guest resigns: the account has won.
  const resigned = await api(suite.server.url, 'POST', `/api/games/${created.id}/resign`, { token: created.invite.token });
  assert.equal(resigned.status, 200, JSON.stringify(resigned.data));
  await page.goto(`${suite.server.url}/account`);
  const row = page.locator(`.account-games tr[data-id="${created.id}"]`);
  await row.waitFor();
  assert.match(await row.locator('.players').textContent(), /<b>Ben<\/b> "&amp; <img src=x>/);
  assert.equal(await row.locator('b, img').count(), 0);
  assert.equal(await row.getAttribute('data-outcome'), 'won');
  await page.selectOption('#filter-result', 'lost');
  await page.waitForSelector('#account-games-empty');
  await page.selectOption('#filter-result', 'won');
  await row.waitFor();
  await page.selectOption('#filter-game', 'dame');
  await page.waitForSelector('#account-games-empty');
  // The header's menu shows the account's name as text too, and leads here.
  await page.goto(suite.server.url);
  await page.click('#account-menu > summary');
  await page.click('#account-link');
  await page.waitForURL(/\/account$/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** Elements past the viewport's right edge (as layout.test.mjs checks the other pages). */
function overflows() {
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.visually-hidden, [hidden], dialog')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > vw + 0.5 || r.left < -0.5) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" spans ${Math.round(r.left)}–${Math.round(r.right)}`);
  }
  return out;
}

for (const [width, height] of [[390, 844], [768, 1024], [1280, 800]]) {
  test(`the header's account part and the account pages fit ${width} px in every language`, async (t) => {
    const { context, page } = await newPage(suite.browser, { locale: 'de-DE', width, height });
    logErrorsAfter(t, page);
    const problems = [];
    const check = async (what) => {
      for (const lang of ['de', 'en', 'fr', 'it']) {
        await page.selectOption('#lang-select', lang);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
        for (const p of await page.evaluate(overflows)) problems.push(`${what} ${lang}: ${p}`);
      }
    };
    await page.goto(suite.server.url);
    await check('home (guest)');
    await page.goto(`${suite.server.url}/register`);
    await page.selectOption('#lang-select', 'en');
    await page.fill('#account-name', `Wide_${width}_name_abc`.slice(0, 20));
    await page.fill('#account-password', PASSWORD);
    await page.click('#account-submit');
    await page.waitForURL(/\/account$/);
    await page.waitForSelector('#account-games-h');
    await check('account');
    await page.click('#account-menu > summary');
    await check('account menu');
    await page.goto(suite.server.url);
    await check('home (logged in)');
    await shot(page, `accounts-home-${width}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
