// The page takes its games from the server's catalogue (GET /api/catalogue):
// the choice of games on the home and analysis pages and their names are the
// catalogue's, and a game the page's catalogue does not list is refused in
// words, never shown as another game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, logErrorsAfter, api, openWithSeats } from './helpers.mjs';

const suite = useServerAndBrowser('catalogue');

/** Serve the page a catalogue changed by `change`. */
async function withCatalogue(page, change) {
  await page.route('**/api/catalogue', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: change(body) });
  });
}

test('the games offered are the catalogue\'s, with its names', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'fr-FR' });
  logErrorsAfter(t, page);
  const { data: catalogue } = await api(suite.server.url, 'GET', '/api/catalogue');
  await page.goto(suite.server.url);
  await page.selectOption('#lang-select', 'fr');
  await page.waitForSelector('#game-choice');
  const offered = await page.$$eval('#game-choice input[name=game]', (els) => els.map((e) => e.value));
  assert.deepEqual(offered, catalogue.games.map((g) => g.name));
  const intl = '#game-choice label:has(input[value=international])';
  await page.waitForSelector(`${intl}:has-text("Jeu de dames international")`);
  const label = await page.textContent(intl);
  assert.match(label, /Jeu de dames international/);
  assert.match(label, /FMJD 10×10, prise majoritaire/);

  // A catalogue without one game: the page does not offer it.
  const { page: other } = await newPage(suite.browser);
  await withCatalogue(other, (c) => ({ ...c, games: c.games.filter((g) => g.name !== 'dame-fr') }));
  await other.goto(suite.server.url);
  await other.waitForSelector('#game-choice');
  const fewer = await other.$$eval('#game-choice input[name=game]', (els) => els.map((e) => e.value));
  assert.deepEqual(fewer, catalogue.games.map((g) => g.name).filter((n) => n !== 'dame-fr'));
  await other.goto(`${suite.server.url}/analysis`);
  await other.waitForSelector('select option[value=international]', { state: 'attached' });
  const variants = await other.$$eval('select option', (els) => els.map((e) => e.value));
  assert.ok(!variants.includes('dame-fr'), variants.join(','));
  assert.ok(variants.includes('international'), variants.join(','));
});

test('a game the page does not know is refused in words, not shown as Mühle', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await withCatalogue(page, (c) => ({ ...c, games: c.games.filter((g) => g.family !== 'dame') }));
  const { status, data } = await api(suite.server.url, 'POST', '/api/games', { game: 'dame', kind: 'local' });
  assert.equal(status, 201);
  await openWithSeats(page, suite.server.url, data);
  const alert = page.locator('.unknown-game[role=alert]');
  await alert.waitFor({ timeout: 10000 });
  assert.match(await alert.textContent(), /Diese Partie ist ein Spiel \(dame\), das diese Seite nicht kennt/);
  assert.equal(await page.$('.board'), null, 'no board is shown');
  await shot(page, 'catalogue-unknown-game');
});
