// Players in the browser (#33 §2, §4, §6): a rated online game on a clock
// played to its end (the server's clock moved on through --test-clock), the
// end in each player's words with the rating change, the leaderboard and the
// players' pages (rating graph, games filtered by result); a correspondence
// game ended by time; the "your turn" sound and tab title; the language kept
// with the account; the archive's filters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, api, logErrorsAfter, fillNewGame, startGame, clickMove, shot,
  registerAccount, loginAccount,
} from './helpers.mjs';

const suite = useServerAndBrowser('players', { args: ['--test-clock'] });
const PASSWORD = 'correct horse 1';

const advance = (ms) => api(suite.server.url, 'POST', '/api/test/clock', { advance_ms: ms });

/** A page logged in as a new account `name`. */
async function member(name, locale, size = {}) {
  const { page, context } = await newPage(suite.browser, { locale, ...size });
  await registerAccount(page, suite.server.url, name, PASSWORD);
  return { page, context };
}

/** A finished local game named `name`: one placement, then `resign` ('white' or 'black') resigns; its id. */
async function resigned(name, resign) {
  const { data } = await api(suite.server.url, 'POST', '/api/games', { kind: 'local', name });
  await api(suite.server.url, 'POST', `/api/games/${data.id}/moves`, { move: 'd6', token: data.tokens.white, ply: 0 });
  await api(suite.server.url, 'POST', `/api/games/${data.id}/resign`, { token: data.tokens[resign] });
  return data.id;
}

/** POST from the page (with its login cookie): {status, data}. */
const post = (page, path, body) => page.evaluate(async ([p, b]) => {
  const res = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
  return { status: res.status, data: await res.json() };
}, [path, body]);

test('a rated game on the clock to its end: the end in words, the rating change, leaderboard and profile', async (t) => {
  const anna = await member('Anna', 'de-DE');
  const ben = await member('Ben', 'en-GB');
  logErrorsAfter(t, { anna: anna.page, ben: ben.page });

  // Anna creates a rated online game at 1+0 with White.
  await anna.page.goto(suite.server.url);
  await fillNewGame(anna.page, { game: 'muehle', kind: 'online', color: 'white' });
  assert.equal(await anna.page.textContent('#playing-as'), 'Du spielst als Anna.');
  await anna.page.check('#rated');
  await anna.page.selectOption('#time-control', '1+0');
  const id = await startGame(anna.page);
  const invite = await anna.page.evaluate((g) => JSON.parse(localStorage.getItem(`brett.invite.${g}`) || 'null'), id);
  assert.ok(invite?.url, 'the invitation link is kept');

  // Ben follows the link and joins.
  await ben.page.goto(`${suite.server.url}${invite.url}`);
  await ben.page.click('#join');
  await ben.page.waitForSelector('#clock-black');
  await clickMove(anna.page, 'd6');
  await ben.page.waitForSelector('.board [data-point=d6].has-stone');
  await clickMove(ben.page, 'd2');
  await anna.page.waitForSelector('.board [data-point=d2].has-stone');

  // A minute later by the server's clock, White's flag falls.
  assert.equal((await advance(61_000)).status, 200);
  await anna.page.waitForSelector('.status-line.over');
  await ben.page.waitForSelector('.status-line.over');
  assert.equal(await anna.page.textContent('#status'), 'Du hast auf Zeit verloren – Ben gewinnt');
  assert.equal(await ben.page.textContent('#status'), 'You won on time – Anna ran out of time');
  // The rating change, the player's own first.
  const annaChange = await anna.page.textContent('#rating-changes li[data-side=white]');
  assert.match(annaChange, /^Deine Wertung: 1\.500 → 1\.\d{3}\? \(−\d+\)$/);
  assert.match(await ben.page.textContent('#rating-changes li[data-side=black]'), /^Your rating: 1,500 → 1,\d{3}\? \(\+\d+\)$/);
  assert.match(await ben.page.textContent('#rating-changes li[data-side=white]'), /^Anna: /);
  await shot(ben.page, 'players-rated-end');

  // The leaderboard: Ben first, provisional; his name links to his page.
  await ben.page.click('#account-menu > summary');
  await ben.page.click('#leaderboard-link');
  await ben.page.waitForSelector('.leaderboard tr[data-name="Ben"]');
  const names = await ben.page.$$eval('.leaderboard tbody tr', (rows) => rows.map((r) => r.dataset.name));
  assert.deepEqual(names, ['Ben', 'Anna']);
  assert.match(await ben.page.textContent('.leaderboard tr[data-name="Ben"] .rating'), /^1,\d{3}\?$/);
  await ben.page.click('.leaderboard tr[data-name="Anna"] a.player-link');
  await ben.page.waitForURL(/\/players\/Anna$/);
  // Anna's page: the rating graph (one game: one dot) and the lost game.
  await ben.page.waitForSelector('svg.rating-graph circle.dot');
  assert.equal(await ben.page.$$eval('svg.rating-graph circle.dot', (d) => d.length), 1);
  assert.match(await ben.page.getAttribute('svg.rating-graph', 'aria-label'), /Mühle|Mill/);
  await ben.page.waitForSelector(`.profile-games tr[data-id="${id}"][data-outcome="lost"]`);
  await ben.page.selectOption('#profile-filter-result', 'win');
  await ben.page.waitForSelector('#profile-games-empty');
  assert.match(ben.page.url(), /result=win/);
  await ben.page.selectOption('#profile-filter-result', 'loss');
  await ben.page.waitForSelector(`.profile-games tr[data-id="${id}"]`);
  assert.equal(await ben.page.isVisible('#profile-settings'), false, 'not Ben’s own page');
  await shot(ben.page, 'players-profile');
  await anna.context.close();
  await ben.context.close();
});

test('a correspondence game ends by time when the server\'s clock passes its day; the your-turn sound and title', async (t) => {
  const cara = await member('Cara', 'en-GB');
  const dora = await member('Dora', 'fr-FR');
  logErrorsAfter(t, { cara: cara.page, dora: dora.page });
  await cara.page.addInitScript(() => {
    window.beeps = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function createOscillator() { window.beeps += 1; return make.call(this); };
  });
  const { status, data: created } = await post(cara.page, '/api/games', { kind: 'online', color: 'white', time_control: '1d' });
  assert.equal(status, 201, JSON.stringify(created));
  assert.equal((await post(dora.page, `/api/games/${created.id}/join`, { token: created.invite.token })).status, 200);
  assert.equal((await post(cara.page, `/api/games/${created.id}/moves`, { move: 'd6', ply: 0 })).status, 200);

  // Cara waits on the home page; when Dora moves, the next look tells her.
  const looked = cara.page.waitForResponse((r) => r.url().endsWith('/api/account/your-turn'));
  await cara.page.goto(suite.server.url);
  await looked;
  await cara.page.waitForFunction(() => !/^\(\d+\)/.test(document.title));
  const beepsBefore = await cara.page.evaluate(() => window.beeps);
  assert.equal((await post(dora.page, `/api/games/${created.id}/moves`, { move: 'd2', ply: 1 })).status, 200);
  await cara.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await cara.page.waitForFunction(() => document.title.startsWith('(1) '));
  assert.ok(await cara.page.evaluate((n) => window.beeps > n, beepsBefore), 'a sound');

  // Dora watches the game; a day passes on the server's clock.
  await dora.page.goto(`${suite.server.url}/game/${created.id}`);
  await dora.page.waitForSelector('#clock-white');
  await dora.page.selectOption('#lang-select', 'fr');
  await dora.page.waitForFunction(() => document.documentElement.lang === 'fr');
  assert.equal((await advance(86_400_000 + 1_000)).status, 200);
  await dora.page.waitForSelector('.status-line.over');
  assert.equal(await dora.page.textContent('#status'), 'Tu as gagné au temps – Cara a dépassé son temps');
  await cara.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await cara.page.waitForFunction(() => !/^\(\d+\)/.test(document.title));
  // Her page learns that she is logged in (her seat) after it has the game's
  // state: until then it names no end in a spectator's words.
  let release;
  const held = new Promise((r) => { release = r; });
  await cara.page.route('**/api/account', async (route) => {
    await held;
    await route.continue();
  });
  await cara.page.goto(`${suite.server.url}/game/${created.id}`);
  await cara.page.waitForSelector('#clock-white');
  await cara.page.waitForFunction(() => document.querySelector('#move-list button.move'));
  assert.equal(await cara.page.textContent('#status'), 'Loading the game …');
  assert.equal(await cara.page.locator('.status-line.over').count(), 0);
  assert.ok(await cara.page.isHidden('.end-banner'), 'no end banner yet');
  const answered = cara.page.waitForResponse((r) => r.url().endsWith('/api/account'));
  release();
  await answered;
  await cara.page.waitForSelector('.status-line.over');
  assert.equal(await cara.page.textContent('#status'), 'You lost on time – Dora wins');
  // A spectator reads the names.
  const { page: guest, context } = await newPage(suite.browser, { locale: 'de-DE' });
  await guest.goto(`${suite.server.url}/game/${created.id}`);
  await guest.waitForSelector('.status-line.over');
  assert.equal(await guest.textContent('#status'), 'Cara hat die Zeit überschritten – Dora gewinnt');
  await context.close();
  await cara.context.close();
  await dora.context.close();
});

test('the language chosen on the account page follows the account to another device', async (t) => {
  const eva = await member('Eva', 'de-DE');
  logErrorsAfter(t, eva.page);
  await eva.page.selectOption('#account-language', 'it');
  await eva.page.waitForFunction(() => document.documentElement.lang === 'it');
  const { page, context } = await newPage(suite.browser, { locale: 'de-DE' });
  await page.goto(suite.server.url);
  await page.waitForFunction(() => document.documentElement.lang === 'de');
  await loginAccount(page, suite.server.url, 'eva', PASSWORD);
  await page.waitForURL(/\/account$/);
  await page.waitForFunction(() => document.documentElement.lang === 'it');
  assert.equal(await page.inputValue('#account-language'), 'it');
  // Back to the browser's language: kept on the server too.
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/account/language'));
  await page.selectOption('#account-language', '');
  await saved;
  const me = await page.evaluate(async () => (await fetch('/api/account')).json());
  assert.equal(me.account.language, null);
  await context.close();
  await eva.context.close();
});

test('the archive shows finished games, filtered by state and game; accounts\' names link to their pages', async (t) => {
  const { page, context } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  const running = (await api(suite.server.url, 'POST', '/api/games', { kind: 'local', game: 'dame' })).data;
  const unanswered = (await api(suite.server.url, 'POST', '/api/games', { kind: 'online', name: '<img src=x onerror=window.pwned=1>' })).data;
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector('.archive-table');
  // The rated game of the first test is there, with links to both players.
  await page.waitForSelector('.archive-table a.player-link[href="/players/Anna"]');
  assert.equal(await page.isVisible(`tr[data-id="${running.id}"]`), false);
  assert.equal(await page.isVisible(`tr[data-id="${unanswered.id}"]`), false);
  await page.selectOption('#archive-status', 'ongoing');
  await page.waitForSelector(`tr[data-id="${running.id}"]`);
  assert.match(await page.textContent(`tr[data-id="${unanswered.id}"]`), /<img src=x onerror=window\.pwned=1>/);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.match(page.url(), /status=ongoing/);
  await page.selectOption('#archive-game', 'muehle');
  await page.waitForSelector(`tr[data-id="${running.id}"]`, { state: 'detached' });
  assert.ok(await page.isVisible(`tr[data-id="${unanswered.id}"]`));
  // Reload keeps the filters.
  await page.reload();
  await page.waitForSelector(`tr[data-id="${unanswered.id}"]`);
  assert.equal(await page.inputValue('#archive-status'), 'ongoing');
  assert.equal(await page.inputValue('#archive-game'), 'muehle');
  await context.close();
});

test('an answer that comes after a newer one is dropped: the archive, a player\'s games', async (t) => {
  const { page, context } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  const won = await resigned('Wanda', 'black');
  const lost = await resigned('Lars', 'white');
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector(`tr[data-id="${won}"]`);
  // The answer for "1-0" is held until the answer for "0-1", asked later, has been shown.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route((url) => url.pathname === '/api/games' && url.searchParams.get('result') === '1-0', async (route) => {
    await held;
    await route.continue();
  });
  const late = page.waitForResponse((r) => new URL(r.url()).searchParams.get('result') === '1-0');
  await page.selectOption('#archive-result', '1-0');
  await page.selectOption('#archive-result', '0-1');
  await page.waitForSelector(`tr[data-id="${won}"]`, { state: 'detached' });
  assert.ok(await page.isVisible(`tr[data-id="${lost}"]`));
  release();
  await late;
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.equal(await page.inputValue('#archive-result'), '0-1');
  assert.ok(await page.isVisible(`tr[data-id="${lost}"]`), 'the newer answer stays');
  assert.equal(await page.locator(`tr[data-id="${won}"]`).count(), 0, 'the older answer is not shown');
  // The same on a player's page (Anna lost the first test's game).
  await page.goto(`${suite.server.url}/players/Anna`);
  await page.waitForSelector('.profile-games tr[data-outcome="lost"]');
  let releaseLoss;
  const heldLoss = new Promise((r) => { releaseLoss = r; });
  await page.route((url) => url.pathname === '/api/players/Anna/games' && url.searchParams.get('result') === 'loss', async (route) => {
    await heldLoss;
    await route.continue();
  });
  const lateLoss = page.waitForResponse((r) => new URL(r.url()).searchParams.get('result') === 'loss');
  await page.selectOption('#profile-filter-result', 'loss');
  await page.selectOption('#profile-filter-result', 'win');
  await page.waitForSelector('#profile-games-empty');
  releaseLoss();
  await lateLoss;
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.match(page.url(), /result=win/);
  assert.ok(await page.isVisible('#profile-games-empty'), 'the newer answer stays');
  assert.equal(await page.locator('.profile-games tr[data-outcome="lost"]').count(), 0, 'the older answer is not shown');
  await context.close();
});

test('the archive searches by player, result and day', async (t) => {
  const { page, context } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  const zoe = await resigned('Zoe', 'black');
  const yuri = await resigned('Yuri', 'white');
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector(`tr[data-id="${zoe}"]`);
  await page.fill('#archive-player', 'zoe');
  await page.press('#archive-player', 'Enter');
  await page.waitForSelector(`tr[data-id="${yuri}"]`, { state: 'detached' });
  assert.ok(await page.isVisible(`tr[data-id="${zoe}"]`));
  assert.match(page.url(), /player=zoe/);
  await page.fill('#archive-player', '');
  await page.press('#archive-player', 'Enter');
  await page.waitForSelector(`tr[data-id="${yuri}"]`);
  await page.selectOption('#archive-result', '0-1');
  await page.waitForSelector(`tr[data-id="${zoe}"]`, { state: 'detached' });
  assert.ok(await page.isVisible(`tr[data-id="${yuri}"]`));
  await page.selectOption('#archive-result', 'all');
  await page.fill('#archive-from', '2099-01-01');
  await page.dispatchEvent('#archive-from', 'change');
  await page.waitForSelector('#archive-empty');
  assert.match(page.url(), /from=2099-01-01/);
  await context.close();
});
