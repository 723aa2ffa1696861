// Issue #12 §3 items 6 and 11: words and numbers as players read them. A
// move number is a full move (White and Black): a replayed position is named
// by its move ("after 2… d6"), plies are called half-moves / plies. Numbers
// are written the language's way ("0,3 s"), counts agree with their number
// ("1 perdu"), and a finished game's player bars no longer say "placing".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, api, waitMoves, logErrorsAfter, shot, openWithSeats } from './helpers.mjs';

const suite = useServerAndBrowser('wording');

/** Creates a local game through the API and plays `moves`; returns {id, tokens}. */
async function playedGame(body, moves) {
  const { status, data } = await api(suite.server.url, 'POST', '/api/games', { kind: 'local', ...body });
  assert.equal(status, 201, JSON.stringify(data));
  let st = (await api(suite.server.url, 'GET', `/api/games/${data.id}`)).data;
  for (const mv of moves) {
    const r = await api(suite.server.url, 'POST', `/api/games/${data.id}/moves`, { move: mv, token: data.tokens[st.turn], ply: st.ply });
    assert.equal(r.status, 200, JSON.stringify(r.data));
    st = r.data;
  }
  return data;
}

async function setLang(page, lang) {
  await page.selectOption('#lang-select', lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

test('a replayed position is named by its move number and move, not by the count of plies', async (t) => {
  const game = await playedGame({ game: 'muehle' }, ['a7', 'b6', 'd7', 'd6', 'a1']);
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await openWithSeats(page, suite.server.url, game);
  await waitMoves(page, 5);
  // The fourth ply is Black's second move.
  await page.click('#move-list button.move[data-ply="4"]');
  const info = () => page.textContent('.replay-info');
  await page.waitForFunction(() => document.querySelector('.replay-info').textContent !== '');
  assert.equal(await info(), 'Stellung nach 2… d6 – nur ansehen');
  await page.click('#nav-prev');
  await page.waitForSelector('#move-list button.move[data-ply="3"].current');
  assert.equal(await info(), 'Stellung nach 2. d7 – nur ansehen');
  await page.click('#nav-next');
  await setLang(page, 'en');
  assert.equal(await info(), 'Position after 2… d6 – view only');
  await setLang(page, 'fr');
  assert.equal(await info(), 'Position après 2… d6 – consultation');
  await setLang(page, 'it');
  assert.equal(await info(), 'Posizione dopo 2… d6 – solo visione');

  // A Dame game begun at move 10 with Black to move: its first ply is 10… .
  const dame = await playedGame({ game: 'dame', position: 'B:Wc3,e3:Bb6,h6:F10' }, ['b6-a5', 'e3-d4']);
  await openWithSeats(page, suite.server.url, dame);
  await waitMoves(page, 2);
  await page.click('#move-list button.move[data-ply="1"]');
  await page.waitForSelector('#move-list button.move[data-ply="1"].current');
  assert.equal(await info(), 'Posizione dopo 10… b6-a5 – solo visione');
  assert.deepEqual(await page.$$eval('#move-list .move-no', (els) => els.map((e) => e.textContent)), ['10.', '11.']);
});

test('the archive and the analysis page count plies and call them so', async (t) => {
  const game = await playedGame({ game: 'muehle' }, ['a7', 'b6', 'd7', 'd6']);
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/archive?status=all`); // running games too
  const row = page.locator(`tr[data-id="${game.id}"]`);
  await row.waitFor();
  const expected = { de: 'Halbzüge', en: 'Plies', fr: 'Demi-coups', it: 'Semimosse' };
  for (const [lang, word] of Object.entries(expected)) {
    await setLang(page, lang);
    const heads = await page.$$eval('.archive-table th', (els) => els.map((e) => e.textContent));
    assert.ok(heads.includes(word), `${lang}: ${heads}`);
    assert.ok(!heads.includes({ de: 'Züge', en: 'Moves', fr: 'Coups', it: 'Mosse' }[lang]), `${lang}: ${heads}`);
    assert.equal(await row.locator(`td[data-label="${word}"]`).textContent(), '4');
  }

  const from = {
    de: ['Stellung aus Partie {id} nach 4 Halbzügen', 'Stellung aus Partie {id} nach 1 Halbzug'],
    en: ['Position from game {id} after 4 plies', 'Position from game {id} after 1 ply'],
    fr: ['Position de la partie {id} après 4 demi-coups', 'Position de la partie {id} après 1 demi-coup'],
    it: ['Posizione della partita {id} dopo 4 semimosse', 'Posizione della partita {id} dopo 1 semimossa'],
  };
  for (const [lang, [four, one]] of Object.entries(from)) {
    await setLang(page, lang);
    for (const [ply, text] of [[4, four], [1, one]]) {
      await page.goto(`${suite.server.url}/analysis?game=${game.id}&ply=${ply}`);
      await page.waitForSelector('.analysis-head p');
      assert.equal(await page.textContent('.analysis-head p'), text.replace('{id}', game.id));
    }
  }
});

test('numbers are written the language\'s way', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis?position=${encodeURIComponent('W.../.../.../....../.../.../... b 8 9 0 1')}`);
  await page.waitForSelector('#analysis-time');
  const times = () => page.$$eval('#analysis-time option', (els) => els.map((e) => e.textContent));
  assert.deepEqual(await times(), ['0,3 s', '1 s', '3 s', '10 s']);
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  await page.waitForSelector('.lines .line', { timeout: 30000 });
  const stats = await page.textContent('.results p.muted');
  assert.match(stats, /^Tiefe \d+ · [\d.]+ Stellungen · \d+,\d s$/);
  const scores = await page.$$eval('.lines .line .score', (els) => els.map((e) => e.textContent));
  for (const s of scores) assert.match(s, /^[+-]\d+,\d\d$|^(Gewinn|Verlust) in \d+$/);
  await shot(page, 'wording-analysis-de');
  await setLang(page, 'en');
  assert.deepEqual(await times(), ['0.3 s', '1 s', '3 s', '10 s']);
  assert.match(await page.textContent('.results p.muted'), /^depth \d+ · [\d,]+ positions · \d+\.\d s$/);
  for (const s of await page.$$eval('.lines .line .score', (els) => els.map((e) => e.textContent))) {
    assert.match(s, /^[+-]\d+\.\d\d$|^(win|loss) in \d+$/);
  }
});

test('counts agree with their number', async (t) => {
  // Black loses one stone to the mill a7-d7-g7.
  const mill = await playedGame({ game: 'muehle' }, ['a7', 'b6', 'd7', 'd6', 'g7xb6']);
  const { page } = await newPage(suite.browser, { locale: 'fr-FR' });
  logErrorsAfter(t, page);
  await openWithSeats(page, suite.server.url, mill);
  await waitMoves(page, 5);
  const count = (c) => page.textContent(`.player-bar[data-color=${c}] .count`);
  const lostTitle = (c) => page.getAttribute(`.player-bar[data-color=${c}] .lost`, 'title');
  await setLang(page, 'fr');
  assert.equal(await count('black'), '7 en main · 1 perdu');
  assert.equal(await count('white'), '6 en main · 0 perdu');
  assert.equal(await lostTitle('black'), '1 perdu');
  await setLang(page, 'it');
  assert.equal(await count('black'), '7 in mano · 1 persa');
  assert.equal(await count('white'), '6 in mano · 0 perse');
  await setLang(page, 'en');
  assert.equal(await count('black'), '7 in hand · 1 lost');

  // Dame: one man lost, one king.
  const dame = await playedGame({ game: 'dame', position: 'W:Wc3,Ka1:Bd4,b8,Kh8' }, ['c3xe5']);
  await openWithSeats(page, suite.server.url, dame);
  await waitMoves(page, 1);
  await setLang(page, 'fr');
  assert.equal(await count('black'), '1 pion · 1 dame · 1 perdu');
  assert.equal(await count('white'), '1 pion · 1 dame · 0 perdu');
  await setLang(page, 'it');
  assert.equal(await count('black'), '1 pedina · 1 dama · 1 persa');
  assert.equal(await count('white'), '1 pedina · 1 dama · 0 perse');
  await setLang(page, 'de');
  assert.equal(await count('black'), '1 Stein · 1 Dame · 1 verloren');
});

test('the phase of a finished game is no longer shown', async (t) => {
  const game = await playedGame({ game: 'muehle' }, ['a7', 'b6']);
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await openWithSeats(page, suite.server.url, game);
  await waitMoves(page, 2);
  const phases = () => page.$$eval('.player-bar .phase', (els) => els.map((e) => e.textContent));
  assert.deepEqual((await phases()).sort(), ['Schwarz setzt', 'Weiß setzt']);
  await page.click('#resign');
  await page.click('dialog .btn.primary');
  await page.waitForSelector('.status-line.over');
  assert.deepEqual((await phases()).sort(), ['Schwarz', 'Weiß']);
  // Replaying shows the phase of the position replayed.
  await page.click('#move-list button.move[data-ply="1"]');
  await page.waitForSelector('#move-list button.move[data-ply="1"].current');
  assert.deepEqual((await phases()).sort(), ['Schwarz setzt', 'Weiß setzt']);
});

test('French and Italian colours agree with their words', async (t) => {
  // A local Mühle game in French: "Au tour des Blancs", a stone "pion noir".
  const mill = await playedGame({ game: 'muehle' }, ['d6', 'f4']);
  const { page } = await newPage(suite.browser, { locale: 'fr-FR' });
  logErrorsAfter(t, page);
  await openWithSeats(page, suite.server.url, mill);
  await waitMoves(page, 2);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Au tour des Blancs');
  assert.match(await page.getAttribute('.board [data-point=f4]', 'aria-label'), /^f4 : pion noir/);
  // The invited player's words too: "Tu joues avec les Noirs."
  assert.equal(await page.evaluate(async () => {
    const i18n = await import('/i18n.js');
    return i18n.t('game.yourSeat', { color: i18n.colorName('black') });
  }), 'Tu joues avec les Noirs.');
  // A Dame game in Italian: "pedina bianca".
  const dame = await playedGame({ game: 'dame' }, ['c3-d4']);
  await page.selectOption('#lang-select', 'it');
  await openWithSeats(page, suite.server.url, dame);
  await waitMoves(page, 1);
  assert.match(await page.getAttribute('.dame-board [data-square=d4]', 'aria-label'), /^d4: pedina bianca/);
  assert.match(await page.getAttribute('.dame-board [data-square=f6]', 'aria-label'), /^f6: pedina nera/);
});
