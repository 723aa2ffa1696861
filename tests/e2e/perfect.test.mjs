// The "Perfect play" page: every game's and rule set's databases, what is
// installed with its size on disk and what building each size costs; on
// the app of this computer a button builds a size in the background, with
// progress, pause and resume. No page shows a player a shell command.
// The server gets a database folder with sector 3-3 of the standard rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BIN, startServer, launchBrowser, newPage, shot, api, logErrorsAfter,
} from './helpers.mjs';

const suite = { server: null, browser: null, tbDir: null };

before(async () => {
  suite.tbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brett-e2e-perfect-'));
  const built = spawnSync(BIN, ['tablebase', 'build', '--dir', suite.tbDir, '--sectors', '3-3', '--quiet'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the databases failed: ${built.stderr}`);
  suite.server = await startServer('perfect', { args: ['--tablebase-dir', suite.tbDir] });
  suite.browser = await launchBrowser();
});
after(async () => {
  await suite.browser?.close();
  await suite.server?.stop();
  if (suite.tbDir) fs.rmSync(suite.tbDir, { recursive: true, force: true });
});

test('the page lists the installed and missing databases with sizes and costs', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await page.click('#nav a[data-nav=perfect]');
  await page.waitForURL(/\/perfect$/);
  assert.equal(await page.textContent('h1'), 'Perfektes Spiel');
  await page.waitForSelector('#pf-set-muehle-standard');
  const bytes = fs.statSync(path.join(suite.tbDir, 'standard', '3-3.tb')).size;
  const standard = '#pf-set-muehle-standard';
  assert.equal(await page.getAttribute(standard, 'data-installed-bytes'), String(bytes));
  assert.match(await page.textContent(`${standard} .pf-installed`), /^Installierte Dateien: 1 \(\d+([,.]\d+)? kB auf der Festplatte\)$/);
  // Size 3: installed; size 9: one of 49 files, what it costs as measured.
  assert.equal(await page.textContent(`${standard} .pf-size[data-size="3"] .pf-files`), 'Installiert');
  assert.equal(await page.textContent(`${standard} .pf-size[data-size="9"] .pf-files`), 'Installierte Dateien: 1 von 49');
  assert.equal(await page.textContent(`${standard} .pf-size[data-size="9"] .pf-cost`),
    'Bau: ≈ 1 h 35 min, 2,97 GB auf der Festplatte, 8,6 GB Arbeitsspeicher (gemessen)');
  // What they bring, and the other rule sets and games: not installed.
  assert.match(await page.textContent('.pf-uses'), /Computer.*Analyse.*Durchsicht.*Aufgaben/s);
  for (const id of ['muehle-ravensburger', 'muehle-no-flying', 'dame-dame', 'dame-dame-fr', 'dame-dame-100', 'dame-international']) {
    assert.equal(await page.textContent(`#pf-set-${id} .pf-installed`), 'Nicht installiert.', id);
  }
  assert.match(await page.textContent('#pf-set-dame-dame-100 .pf-size[data-size="4"] .pf-cost'), /^Bau: ≈ 49 s, 10,3 MB auf der Festplatte, 200 MB Arbeitsspeicher \(gemessen\)$/);
  assert.match(await page.textContent('#pf-set-dame-dame .pf-size[data-size="2"] .pf-cost'), /\(geschätzt\)$/);
  // The app of this computer may build: a button for every size not complete.
  assert.equal(await page.$(`${standard} .pf-size[data-size="3"] button`), null);
  assert.ok(await page.$(`#pf-set-muehle-standard-build-9`));
  await shot(page, 'perfect-page');

  // In English, and on a phone without sideways scrolling.
  await page.selectOption('#lang-select', 'en');
  await page.waitForSelector('h1:has-text("Perfect play")');
  assert.equal(await page.textContent(`${standard} .pf-size[data-size="9"] .pf-files`), 'Files installed: 1 of 49');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await newPage(suite.browser, { locale: 'fr-FR', width: 390, height: 844 });
  await phone.page.goto(`${suite.server.url}/perfect`);
  await phone.page.waitForSelector('#pf-set-dame-international');
  const wide = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide} px wide`);
  await shot(phone.page, 'perfect-phone');
  await phone.context.close();
});

test('the build button builds in the background; pause and resume work', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/perfect`);
  const set = '#pf-set-muehle-no-flying';
  await page.waitForSelector(set);
  assert.equal(await page.getAttribute(`${set} .pf-size[data-size="4"]`, 'data-installed'), '0');
  await page.click(`${set}-build-4`);
  await page.waitForSelector('#pf-job');
  assert.match(await page.textContent('#pf-job h2'), /^Bau: Mühle · ohne Springen, Bis 4 Steine je Seite$/);
  await page.click('#pf-pause');
  await page.waitForSelector('#pf-job-state[data-state=paused]');
  assert.equal(await page.textContent('#pf-job-state'), 'Angehalten.');
  // The work the threads had in hand when paused is counted at the next poll.
  await page.waitForTimeout(2000);
  const done1 = await page.textContent('#pf-job-positions');
  assert.match(done1, /^Stellungen: [\d.]+ von [\d.]+$/);
  assert.match(await page.textContent('#pf-job-left'), /^Verbleibende Zeit: ≈ /);
  await page.waitForTimeout(2000);
  assert.equal(await page.textContent('#pf-job-positions'), done1, 'a paused build does not go on');
  const { data: paused } = await api(suite.server.url, 'GET', '/api/perfect');
  assert.equal(paused.build.state, 'paused');
  await shot(page, 'perfect-paused');

  await page.click('#pf-resume');
  await page.waitForSelector('#pf-job-state[data-state=done]', { timeout: 120000 });
  assert.equal(await page.textContent('#pf-job-state'), 'Fertig: Die neuen Datenbanken sind in Gebrauch.');
  assert.equal(await page.textContent('#pf-job-files'), 'Dateien: 4 von 4');
  assert.equal(await page.textContent(`${set} .pf-size[data-size="4"] .pf-files`), 'Installiert');
  for (const s of ['3-3', '3-4', '4-3', '4-4']) assert.ok(fs.existsSync(path.join(suite.tbDir, 'no-flying', `${s}.tb`)), s);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('no page shows a player a shell command', async (t) => {
  const base = suite.server.url;
  // A finished Mühle game: its review shows the databases' status.
  const { data: created } = await api(base, 'POST', '/api/games', { kind: 'local' });
  const r = await api(base, 'POST', `/api/games/${created.id}/resign`, { token: created.tokens.white });
  assert.equal(r.data.status, 'over');
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  const pages = [
    ['/', '#main'],
    ['/lobby', '#main'],
    ['/archive', '#main'],
    ['/analysis', '#tb-status'],
    ['/puzzles', '#main'],
    ['/perfect', '#pf-sets .pf-set'],
    [`/game/${created.id}`, '#review-tb'],
  ];
  for (const [url, ready] of pages) {
    await page.goto(`${base}${url}`);
    await page.waitForSelector(ready);
    await page.waitForTimeout(300);
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /brett tablebase|--up-to|--no-tablebase|--rules/, url);
  }
  // The databases' box links to the page that installs them.
  await page.goto(`${base}/analysis`);
  await page.waitForSelector('#tb-status-link');
  await page.click('#tb-status-link');
  await page.waitForURL(/\/perfect$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
