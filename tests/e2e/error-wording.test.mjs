// Errors of game records and position strings in the player's language
// (#12 §3.3): the server sends each with a code and parameters
// (docs/API.md, "Error details"), the page words it — which move, tag or
// field, and what is wrong — instead of showing the server's English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, logErrorsAfter, openNewGame, clickMove } from './helpers.mjs';

const suite = useServerAndBrowser('error-wording');

/** Imports `record` on the archive page; the message the page shows. */
async function importError(page, record) {
  await page.fill('#import-text', record);
  await page.click('#import-btn');
  const msg = page.locator('#import-error');
  await msg.waitFor({ timeout: 5000 });
  assert.equal(await msg.getAttribute('role'), 'alert');
  return (await msg.textContent()).trim();
}

/** The next error toast's text, then waits for it to go. */
async function toastText(page) {
  await page.waitForSelector('#toast.show.error');
  const text = (await page.textContent('#toast')).trim();
  await page.evaluate(() => document.getElementById('toast')?.classList.remove('show'));
  return text;
}

test('a broken record is refused in the player\'s language, naming the move', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector('#import-text');

  assert.equal(
    await importError(page, '[White "Anna"]\n[Black "Ben"]\n\n1. d6 f4 2. d6 *'),
    'Die Partie konnte nicht importiert werden: Zug 2 (d6): d6 ist schon besetzt',
  );
  await shot(page, 'error-wording-import-de');
  assert.equal(
    await importError(page, '1. d6 f4 2. d9 *'),
    'Die Partie konnte nicht importiert werden: Zug 2 (d9): „d9“ ist kein Zug',
  );
  assert.equal(
    await importError(page, '[Rules "schach"]\n\n1. d6 *'),
    'Die Partie konnte nicht importiert werden: Tag „Rules“: Unbekannte Regeln „schach“',
  );
  // Dame (PDN): the move and the bad counter of a FEN tag.
  assert.equal(
    await importError(page, '[GameType "20"]\n\n1. 32-28 19-23 2. 28-22 *'),
    'Die Partie konnte nicht importiert werden: Zug 2 (28-22): Schlagen ist Pflicht: 28x19',
  );
  assert.equal(
    await importError(page, '[GameType "20"]\n[FEN "W:W31-50:B1-20:Fx"]\n\n1. 32-28 *'),
    'Die Partie konnte nicht importiert werden: Tag „FEN“: Die Zugnummer (F) muss eine Zahl sein, gefunden: „x“',
  );

  // The message follows a change of language.
  await page.selectOption('#lang-select', 'fr');
  await page.waitForSelector('#import-error:has-text("La partie n’a pas pu être importée")');
  assert.match(await page.textContent('#import-error'), /l’étiquette « FEN » : le numéro du coup \(F\) : un nombre est attendu/);
  await page.selectOption('#lang-select', 'en');
  assert.equal(
    (await page.textContent('#import-error')).trim(),
    'The record could not be imported: the FEN tag: the move number (F) must be a number, found “x”',
  );
  await page.selectOption('#lang-select', 'it');
  assert.match(await page.textContent('#import-error'), /^Non è stato possibile importare la partita: l’etichetta «FEN»/);
  assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), []);
});

test('a wrong position on the analysis board is told in the player\'s language', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis`);
  await page.waitForSelector('svg.board');

  // The board's own check: a position string with five fields.
  await page.fill('#position-text', '.../.../.../....../.../.../... w 9 9 0');
  await page.click('#position-apply');
  assert.equal(
    await toastText(page),
    'Ungültige Stellung: Eine Stellung hat 6 durch Leerzeichen getrennte Felder, gefunden: 5',
  );
  // The server's: ten white stones (the string itself is well formed).
  await page.fill('#position-text', 'WWW/WWW/WWW/W...../.../.../... b 0 0 0 9');
  await page.click('#position-apply');
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  assert.equal(
    await toastText(page),
    'Ungültige Stellung: Weiß hat 10 Steine auf dem Brett und in der Hand; erlaubt sind höchstens 9',
  );
  await shot(page, 'error-wording-position-de');

  // Dame: a man on the row where it would have been crowned.
  await page.goto(`${suite.server.url}/analysis?variant=dame`);
  await page.waitForSelector('svg.board');
  await page.fill('#position-text', 'W:Wb8:Bc1,e1');
  await page.click('#position-apply');
  await page.click('#analyze-btn');
  assert.equal(
    await toastText(page),
    'Ungültige Stellung: Der Stein von Weiß auf b8 steht, wo er schon zur Dame geworden wäre',
  );
  await page.fill('#position-text', 'X:Wa1:Bb8');
  await page.click('#position-apply');
  assert.equal(
    await toastText(page),
    'Ungültige Stellung: Die FEN beginnt mit der Seite am Zug, W oder B, gefunden: „X“',
  );
  assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), []);
});

test('a server that is full or cannot store says so in the player\'s language', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  const base = suite.server.url;
  await openNewGame(page, base, { kind: 'local' });
  await page.waitForSelector('.board [data-point=d6]');
  // The server answers the move as an overloaded one would (docs/API.md,
  // "Connections"), then as one whose disk is full.
  const answers = [
    { code: 'too_many_connections', error: 'the server has too many connections open; try again in a few seconds', retry: '5' },
    { code: 'storage_unavailable', error: 'the game storage is unavailable right now', retry: null },
  ];
  let next = 0;
  await page.route('**/api/games/*/moves', (route) => {
    const a = answers[Math.min(next++, answers.length - 1)];
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      headers: a.retry ? { 'retry-after': a.retry } : {},
      body: JSON.stringify({ error: a.error, code: a.code }),
    });
  });
  await clickMove(page, 'd6');
  assert.equal(
    await toastText(page),
    'Der Server ist ausgelastet (zu viele Verbindungen). Bitte in ein paar Sekunden noch einmal versuchen.',
  );
  await clickMove(page, 'd6');
  assert.equal(
    await toastText(page),
    'Der Server kann gerade keine Partien speichern; nichts wurde geändert. Bitte gleich noch einmal versuchen.',
  );
  await shot(page, 'error-wording-server-de');
  // Nothing was played.
  assert.equal(await page.locator('#move-list button.move').count(), 0);
  assert.deepEqual(page.errors.filter((e) => !/status of 503/.test(e)), []);
});
