// (e) Switching the language: the browser's language when brett speaks it
// (German, English, French, Italian), English otherwise; the switch changes every text at once (also in a game
// in progress and its end announcement), and is remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, getState, waitMoves, fillNewGame, startGame } from './helpers.mjs';

const suite = useServerAndBrowser('language');

test('French and Italian browsers start in their language, others in English', async () => {
  for (const [locale, lang, h1] of [['fr-FR', 'fr', 'Nouvelle partie de moulin'], ['it-CH', 'it', 'Nuova partita a mulino'], ['es-ES', 'en', 'New game of Mühle']]) {
    const { page, context } = await newPage(suite.browser, { locale });
    await page.goto(suite.server.url);
    assert.equal(await page.textContent('h1'), h1, locale);
    assert.equal(await page.getAttribute('html', 'lang'), lang, locale);
    await context.close();
  }
});

test('the language follows the browser and the switch', async () => {
  const { page: en } = await newPage(suite.browser, { locale: 'en-GB' });
  await en.goto(suite.server.url);
  assert.equal(await en.textContent('h1'), 'New game of Mühle');
  assert.equal(await en.getAttribute('html', 'lang'), 'en');
  await en.context().close();

  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  await page.goto(suite.server.url);
  assert.equal(await page.textContent('h1'), 'Neue Partie Mühle');
  assert.equal(await page.textContent('#nav a[data-nav=archive]'), 'Archiv');

  await page.selectOption('#lang-select', 'en');
  await page.waitForSelector('h1:has-text("New game of Mühle")');
  assert.equal(await page.textContent('#nav a[data-nav=archive]'), 'Archive');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.selectOption('#lang-select', 'fr');
  await page.waitForSelector('h1:has-text("Nouvelle partie de moulin")');
  await page.selectOption('#lang-select', 'it');
  await page.waitForSelector('h1:has-text("Nuova partita a mulino")');
  await page.selectOption('#lang-select', 'en');

  // Remembered over a reload.
  await page.reload();
  await page.waitForSelector('h1:has-text("New game of Mühle")');

  // In a game: a local game that White resigns.
  await fillNewGame(page, { kind: 'local' });
  const id = await startGame(page);
  await page.click('.board [data-point=d6]');
  await waitMoves(page, 1);
  await page.waitForSelector('#status:has-text("Black to move")');
  await page.selectOption('#lang-select', 'de');
  await page.waitForSelector('#status:has-text("Schwarz am Zug")');
  assert.match(await page.textContent('#flip'), /Brett drehen/);
  assert.match(await page.textContent('.rules-box'), /Springen: an/);
  await page.click('#resign');
  await page.click('dialog .btn.primary');
  await page.waitForSelector('.status-line.over');
  assert.equal(await page.textContent('#status'), 'Schwarz gibt auf – Weiß gewinnt');
  assert.equal((await getState(suite.server.url, id)).result, '1-0');
  await shot(page, 'e-language-de');
  await page.selectOption('#lang-select', 'en');
  await page.waitForSelector('#status:has-text("Black resigns – White wins")');
  await shot(page, 'e-language-en');
  await page.selectOption('#lang-select', 'fr');
  await page.waitForSelector('#status:has-text("Noir abandonne – Blanc gagne")');
  await page.selectOption('#lang-select', 'it');
  await page.waitForSelector('#status:has-text("Nero abbandona – vince Bianco")');

  // The archive speaks it too.
  await page.click('#nav a[data-nav=archive]');
  await page.waitForSelector(`tr[data-id="${id}"]`);
  assert.match(await page.textContent(`tr[data-id="${id}"]`), /Partita \d+/);
  assert.match(await page.textContent(`tr[data-id="${id}"]`), /Nero abbandona – vince Bianco/);
  assert.deepEqual(page.errors, []);
});
