// (k) Mühle's perfect-play databases in the app: the analysis page shows
// the databases' verdict and each move's value, a finished game's review
// marks the move that threw the win away, and the puzzle page ("Finde den
// besten Zug") checks answers, shows the solution line and remembers the
// solved puzzles. The server gets a small database folder (sectors 3-3,
// 3-4 and 4-3, built here in about a second).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BIN, startServer, launchBrowser, newPage, shot, api, clickMove, logErrorsAfter,
} from './helpers.mjs';

const suite = { server: null, browser: null, tbDir: null };

before(async () => {
  suite.tbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brett-e2e-tb-'));
  const built = spawnSync(BIN, ['tablebase', 'build', '--dir', suite.tbDir, '--sectors', '3-4', '--quiet'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the databases failed: ${built.stderr}`);
  suite.server = await startServer('tablebase', { args: ['--tablebase-dir', suite.tbDir] });
  suite.browser = await launchBrowser();
});
after(async () => {
  await suite.browser?.close();
  await suite.server?.stop();
  if (suite.tbDir) fs.rmSync(suite.tbDir, { recursive: true, force: true });
});

// White (three stones, flying) to move against four, and wins.
const WON = 'W../.../.../W.B..B/.W./.B./..B w 0 0 0 30';

/** The databases' answer for a position (through the API). */
async function database(position) {
  const { status, data } = await api(suite.server.url, 'POST', '/api/analyze', { position, time_ms: 50, lines: 1 });
  assert.equal(status, 200, JSON.stringify(data));
  assert.ok(data.database, `the databases hold ${position}`);
  return data.database;
}

test('the analysis page shows the databases\' verdict and each move\'s value', async (t) => {
  const db = await database(WON);
  assert.equal(db.result, 'win');
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis?position=${encodeURIComponent(WON)}`);
  // The status of the databases for the rules: partly installed.
  await page.waitForSelector('#tb-status[data-state=partly]');
  assert.match(await page.textContent('#tb-status'), /Teilweise installiert: 3 von 49 Sektoren \(3-3, 3-4, 4-3\)/);
  // No command for a terminal: a link to the page that installs them.
  assert.doesNotMatch(await page.textContent('#tb-status'), /brett tablebase/);
  assert.equal(await page.getAttribute('#tb-status-link', 'href'), '/perfect');
  assert.equal(await page.textContent('#tb-status-link'), 'Datenbanken installieren: Perfektes Spiel');

  await page.click('#analyze-btn');
  await page.waitForSelector('#tb-verdict');
  assert.equal(await page.textContent('#tb-verdict'), `Weiß gewinnt in ${db.plies} Halbzügen (Datenbank)`);
  const rows = await page.$$eval('#tb-moves li', (els) => els.map((e) => [e.dataset.move, e.querySelector('.tb-value').textContent]));
  assert.equal(rows.length, db.moves.length);
  assert.deepEqual(rows[0], [db.moves[0].move, `gewinnt in ${db.moves[0].plies} Halbzügen`]);
  const bad = db.moves.find((m) => m.result !== 'win');
  assert.ok(bad, 'some move throws the win away');
  const badText = rows.find(([mv]) => mv === bad.move)[1];
  assert.equal(badText, bad.result === 'draw' ? 'Remis' : `verliert in ${bad.plies} Halbzügen`);
  await shot(page, 'k-analysis-database');

  // In English, from codes and numbers.
  await page.selectOption('#lang-select', 'en');
  await page.waitForSelector('#tb-status:has-text("Partly installed")');
  await page.click('#analyze-btn');
  await page.waitForSelector(`#tb-verdict:has-text("White wins in ${db.plies} plies (database)")`);

  // A click on a move plays it: Black to move, the databases' verdict for Black.
  await page.click(`#tb-moves li[data-move="${db.moves[0].move}"] button`);
  await page.click('#analyze-btn');
  await page.waitForSelector('#tb-verdict');
  assert.equal(await page.textContent('#tb-verdict'), `White wins in ${db.moves[0].plies - 1} plies (database)`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a finished game\'s review marks the move that threw the win away', async (t) => {
  const base = suite.server.url;
  const db = await database(WON);
  const blunder = db.moves.find((m) => m.result !== 'win');
  const { status, data: created } = await api(base, 'POST', '/api/games', { kind: 'local', position: WON });
  assert.equal(status, 201);
  const { id, tokens } = created;
  let r = await api(base, 'POST', `/api/games/${id}/moves`, { move: blunder.move, token: tokens.white, ply: 0 });
  assert.equal(r.status, 200, JSON.stringify(r.data));
  const reply = (await database(r.data.position)).moves[0].move;
  r = await api(base, 'POST', `/api/games/${id}/moves`, { move: reply, token: tokens.black, ply: 1 });
  assert.equal(r.status, 200, JSON.stringify(r.data));
  r = await api(base, 'POST', `/api/games/${id}/resign`, { token: tokens.white });
  assert.equal(r.data.status, 'over');

  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${base}/game/${id}`);
  await page.waitForSelector('#move-list button.move.blunder');
  const marked = await page.$$eval('#move-list button.move.blunder', (els) => els.map((e) => ({ text: e.textContent, title: e.title, ply: e.dataset.ply })));
  const what = blunder.result === 'draw' ? 'hat den Gewinn verschenkt (jetzt Remis)' : 'hat den Gewinn verschenkt (jetzt verloren)';
  assert.deepEqual(marked, [{ text: `${blunder.move}??`, title: what, ply: '1' }]);
  assert.equal(await page.$$eval('#move-list button.move', (els) => els.length), 2);
  assert.equal(await page.textContent('#review-summary'), 'Ein Zug hat den Wert der Partie verändert (2 Züge geprüft):');
  assert.match(await page.textContent('#review-list'), new RegExp(`${blunder.move}\\?\\?.*Weiß: ${what.replace(/[()]/g, '\\$&')}`));
  await page.waitForSelector('#review-tb[data-state=partly]');
  await shot(page, 'k-review');

  // The review list leads to the position after the move.
  await page.click('#review-list button.move');
  await page.waitForSelector('#move-list button.move.current[data-ply="1"]');

  await page.selectOption('#lang-select', 'fr');
  await page.waitForSelector('#review-summary:has-text("Un coup a changé la valeur de la partie")');
  assert.match(await page.getAttribute('#move-list button.move.blunder', 'title'), /a laissé échapper le gain/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Legal moves of a position, by the app's own move generator. */
const legalIn = (page, position) => page.evaluate(async (p) => {
  const M = await import('/muehle.js');
  return M.legalMoves(M.parsePosition(p));
}, position);

test('puzzles: a wrong move, the right one, the solution line, progress kept', async (t) => {
  const base = suite.server.url;
  const { status, data: puzzles } = await api(base, 'GET', '/puzzles.json');
  assert.equal(status, 200);
  assert.ok(puzzles.length >= 100, `${puzzles.length} puzzles`);
  const p = puzzles[0];
  assert.equal(p.id, 1);

  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(base);
  await page.click('#nav a[data-nav=puzzles]');
  await page.waitForURL(/\/puzzles\/1$/);
  await page.waitForSelector('#puzzle-task');
  assert.equal(await page.textContent('h1'), 'Finde den besten Zug');
  assert.equal(await page.textContent('#puzzle-number'), `Aufgabe 1 von ${puzzles.length}`);
  const color = p.position.split(' ')[1] === 'w' ? 'Weiß' : 'Schwarz';
  assert.equal((await page.textContent('#puzzle-task')).trim(),
    p.goal === 'win' ? `${color} am Zug gewinnt` : `${color} am Zug hält das Remis`);
  assert.match(await page.textContent('#puzzle-difficulty'), new RegExp(`Schwierigkeit: ${'●'.repeat(p.difficulty)}`));
  assert.equal(await page.$('#puzzle-solved'), null);
  await shot(page, 'k-puzzle');

  // A wrong move: feedback, and the puzzle stays open.
  const legal = await legalIn(page, p.position);
  const wrong = legal.find((m) => m !== p.solution[0]);
  await clickMove(page, wrong);
  await page.waitForSelector('#puzzle-feedback.wrong');
  assert.match(await page.textContent('#puzzle-feedback'), new RegExp(`^Leider nicht\\. ${wrong}`));
  await page.waitForSelector('svg.board.interactive');

  // The right move: success, the solution line to play through.
  await clickMove(page, p.solution[0]);
  await page.waitForSelector('#puzzle-feedback.right');
  assert.match(await page.textContent('#puzzle-feedback'), /^Richtig!/);
  await page.waitForSelector('#puzzle-solved');
  const line = await page.$$eval('#puzzle-solution button.move', (els) => els.map((e) => e.textContent));
  assert.deepEqual(line, p.solution);
  assert.equal(await page.getAttribute('#puzzle-solution button.move.current', 'data-step'), '0');
  if (p.solution.length > 1) {
    await page.click('#line-next');
    await page.waitForSelector('#puzzle-solution button.move.current[data-step="1"]');
    const to = p.solution[1].match(/([a-g][1-7])(?:x[a-g][1-7])?$/)[1];
    await page.waitForSelector(`.board [data-point=${to}].last`);
  }
  await shot(page, 'k-puzzle-solved');
  assert.equal(await page.textContent('#puzzle-progress'), `1 von ${puzzles.length} gelöst`);

  // The progress survives a reload; the next puzzle is not solved yet.
  await page.reload();
  await page.waitForSelector('#puzzle-solved');
  assert.equal(await page.textContent('#puzzle-progress'), `1 von ${puzzles.length} gelöst`);
  await page.click('#puzzle-next');
  await page.waitForURL(/\/puzzles\/2$/);
  await page.waitForSelector('#puzzle-task');
  assert.equal(await page.$('#puzzle-solved'), null);
  assert.equal(await page.textContent('#puzzle-number'), `Aufgabe 2 von ${puzzles.length}`);

  // "Show the solution" does not count as solved; in Italian.
  await page.selectOption('#lang-select', 'it');
  await page.waitForSelector('h1:has-text("Trova la mossa migliore")');
  await page.click('#puzzle-show');
  await page.waitForSelector('#puzzle-feedback.shown');
  assert.equal(await page.textContent('#puzzle-feedback'), `La soluzione è ${puzzles[1].solution[0]}.`);
  assert.equal(await page.textContent('#puzzle-progress'), `1 su ${puzzles.length} risolti`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
