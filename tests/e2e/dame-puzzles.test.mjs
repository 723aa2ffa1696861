// Dame puzzles on the puzzle page beside Mühle's: one tab per game, an
// ending from the Dame databases answered wrongly and then rightly by clicks,
// the progress kept per game across a reload, a 10×10 shot with its
// combination played through, and "clear progress" touching only its game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, api, logErrorsAfter, shot, clickDameMove } from './helpers.mjs';

const suite = useServerAndBrowser('dame-puzzles');

const sq = (s) => `.dame-board [data-square="${s}"]`;

/** Legal moves of a Dame position, by the app's own move generator. */
const legalIn = (page, fen, size) => page.evaluate(async ([f, n]) => {
  const D = await import('/dame.js');
  return D.legalMoves(D.parseFen(f, n));
}, [fen, size]);

test('Dame puzzles: tabs per game, wrong and right answers, progress per game', async (t) => {
  const base = suite.server.url;
  const { status, data } = await api(base, 'GET', '/puzzles-dame.json');
  assert.equal(status, 200);
  const dame = data.filter((p) => p.game === 'dame');
  const intl = data.filter((p) => p.game === 'international');
  assert.ok(dame.length >= 100, `${dame.length} Dame puzzles`);
  assert.ok(intl.length >= 60, `${intl.length} international puzzles`);
  assert.ok(dame.some((p) => p.goal === 'win') && dame.some((p) => p.goal === 'draw') && dame.some((p) => p.goal === 'shot'));
  const { data: muehle } = await api(base, 'GET', '/puzzles.json');

  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${base}/puzzles`);
  await page.waitForSelector('#puzzle-task');
  const tabs = await page.$$eval('#puzzle-games button', (els) => els.map((e) => e.dataset.game));
  assert.deepEqual(tabs, ['muehle', 'dame', 'international']);
  await page.click('#puzzle-games button[data-game=dame]');
  await page.waitForURL(/\/puzzles\/dame-1$/);
  await page.waitForSelector('.dame-board');
  const p = dame[0];
  assert.equal(await page.textContent('#puzzle-number'), `Aufgabe 1 von ${dame.length}`);
  const turn = p.position.startsWith('B') ? 'Schwarz' : 'Weiß';
  const task = { win: `${turn} am Zug gewinnt`, draw: `${turn} am Zug hält das Remis`, shot: `${turn} am Zug gewinnt Material` }[p.goal];
  assert.equal((await page.textContent('#puzzle-task')).trim(), task);

  // A wrong move by clicks, then the right one.
  const legal = await legalIn(page, p.position, 8);
  const wrong = legal.find((m) => !p.accept.includes(m));
  assert.ok(wrong, 'a wrong move exists');
  await clickDameMove(page, wrong);
  await page.waitForSelector('#puzzle-feedback.wrong');
  assert.match(await page.textContent('#puzzle-feedback'), new RegExp(`^Leider nicht\\. ${wrong}`));
  await clickDameMove(page, p.accept[0]);
  await page.waitForSelector('#puzzle-feedback.right');
  assert.match(await page.textContent('#puzzle-feedback'), /^Richtig!/);
  await page.waitForSelector('#puzzle-solved');
  assert.deepEqual(await page.$$eval('#puzzle-solution button.move', (els) => els.map((e) => e.textContent)), p.solution);
  assert.equal(await page.textContent('#puzzle-progress'), `1 von ${dame.length} gelöst`);
  assert.equal(await page.textContent('#puzzle-games button[data-game=dame]'), `Dame 8×8 · 1/${dame.length}`);
  await shot(page, 'dame-puzzle-solved');

  // Kept across a reload; Mühle's progress untouched.
  await page.reload();
  await page.waitForSelector('#puzzle-solved');
  assert.equal(await page.textContent('#puzzle-progress'), `1 von ${dame.length} gelöst`);
  await page.click('#puzzle-games button[data-game=muehle]');
  await page.waitForURL(/\/puzzles\/1$/);
  await page.waitForSelector('#puzzle-task');
  assert.equal(await page.$('.dame-board'), null);
  assert.equal(await page.textContent('#puzzle-progress'), `0 von ${muehle.length} gelöst`);

  // A 10×10 shot: the solution shown and played through.
  const s = intl.find((x) => x.goal === 'shot' && x.solution.length >= 3);
  await page.goto(`${base}/puzzles/${s.id}`);
  await page.waitForSelector('.dame-board');
  assert.equal(await page.$$eval('.dame-board .sq[data-square]', (els) => els.length), 50);
  assert.equal((await page.getAttribute('#puzzle-games button[aria-pressed=true]', 'data-game')), 'international');
  assert.match(await page.textContent('#puzzle-difficulty'), new RegExp(`gewinnt ${s.gain} Stein`));
  await page.click('#puzzle-show');
  await page.waitForSelector('#puzzle-feedback.shown');
  assert.equal(await page.textContent('#puzzle-feedback'), `Die Lösung ist ${s.solution[0]}.`);
  await page.click('#line-next');
  await page.waitForSelector('#puzzle-solution button.move.current[data-step="1"]');
  const [from, ...rest] = s.solution[1].split(/[-x]/);
  await page.waitForSelector(`${sq(rest[rest.length - 1])}.has-piece`);
  assert.equal(await page.$(`${sq(from)}.has-piece`), null);
  assert.equal(await page.$('#puzzle-solved'), null, 'shown is not solved');

  // Clearing the progress of Dame leaves the others alone.
  await page.evaluate(() => localStorage.setItem('brett.puzzles.solved', JSON.stringify([1, 'dame-1'])));
  await page.goto(`${base}/puzzles/dame-1`);
  await page.waitForSelector('#puzzle-solved');
  await page.click('#puzzle-reset');
  await page.waitForFunction(() => !document.querySelector('#puzzle-solved'));
  assert.deepEqual(await page.evaluate(() => JSON.parse(localStorage.getItem('brett.puzzles.solved'))), [1]);
});

test('Dame puzzles in Italian and French: the task agrees with the colour', async (t) => {
  const base = suite.server.url;
  const { data } = await api(base, 'GET', '/puzzles-dame.json');
  const p = data.find((x) => x.game === 'dame' && x.goal === 'shot' && x.position.startsWith('W'));
  for (const [locale, text] of [['fr-FR', 'Les Blancs jouent et gagnent du matériel'], ['it-IT', 'Bianco muove e guadagna materiale']]) {
    const { page, context } = await newPage(suite.browser, { locale });
    logErrorsAfter(t, page);
    await page.goto(`${base}/puzzles/${p.id}`);
    await page.waitForSelector('#puzzle-task');
    assert.equal((await page.textContent('#puzzle-task')).trim(), text);
    await context.close();
  }
});
