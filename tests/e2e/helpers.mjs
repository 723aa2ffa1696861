// Shared helpers of the end-to-end tests: start and stop `brett serve` on a
// free port with a fresh database, launch headless Chromium, talk to the API.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..', '..');
export const ARTIFACTS = path.join(here, 'artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

export const BIN = process.env.BRETT_BIN || path.join(ROOT, 'target', 'release', 'brett');
// The computer's thinking time in tests (ms); empty: the server's default.
const MOVETIME = process.env.BRETT_E2E_MOVETIME ?? '60';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the server; returns {url, stop(), restart()}. restart() stops it
 * and starts it again on the same port with the same database. `args`:
 * more arguments of `brett serve` (e.g. ['--tablebase-dir', dir]).
 */
export async function startServer(name = 'server', { args: extra = [] } = {}) {
  if (!fs.existsSync(BIN)) throw new Error(`no server binary at ${BIN} (cargo build --release -p brett, or set BRETT_BIN)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brett-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child = null;
  let runs = 0;

  async function launch() {
    runs += 1;
    const args = ['serve', '--listen', `127.0.0.1:${port}`, '--database', `sqlite://${dir}/e2e.db`];
    if (MOVETIME) args.push('--computer-movetime', MOVETIME);
    args.push(...extra);
    const log = fs.openSync(path.join(ARTIFACTS, `${name}-${runs}.log`), 'w');
    child = spawn(BIN, args, { stdio: ['ignore', log, log], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'info' } });
    fs.closeSync(log);
    const started = Date.now();
    let exited = false;
    child.once('exit', () => { exited = true; });
    for (;;) {
      if (exited) throw new Error(`server exited early; see ${name}-${runs}.log`);
      try {
        const res = await fetch(`${url}/api/games?limit=1`);
        if (res.ok) return;
      } catch { /* not up yet */ }
      if (Date.now() - started > 30000) throw new Error('server did not start within 30 s');
      await sleep(100);
    }
  }

  async function stop() {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const c = child;
    const done = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 8000);
    await done;
    clearTimeout(timer);
  }

  await launch();
  return {
    url,
    dir,
    stop: async () => { await stop(); fs.rmSync(dir, { recursive: true, force: true }); },
    restart: async ({ downMs = 800 } = {}) => { await stop(); await sleep(downMs); await launch(); },
    kill: stop,
    start: launch,
  };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Starts a server (its logs named after `name`) and Chromium before the
 * tests of a file and stops both after them. Returns {server, browser},
 * filled in once the tests run.
 */
export function useServerAndBrowser(name, options = {}) {
  const suite = { server: null, browser: null };
  before(async () => { suite.server = await startServer(name, options); suite.browser = await launchBrowser(); });
  afterEach(closePages);
  after(async () => { await suite.browser?.close(); await suite.server?.stop(); });
  return suite;
}

/** The browser contexts of {@link newPage} still open. */
const openContexts = new Set();

/**
 * Closes the pages a test opened, so that their connections do not pile up
 * against the server's limit of connections per address (all pages come
 * from 127.0.0.1); run after each test by {@link useServerAndBrowser}.
 */
export async function closePages() {
  await Promise.all([...openContexts].map((c) => c.close().catch(() => {})));
  openContexts.clear();
}

/** A new browser context and page; page errors are collected in page.errors. */
export async function newPage(browser, { locale = 'de-DE', width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ locale, viewport: { width, height } });
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  if (process.env.E2E_WEB_DIR) await serveWebFromDisk(context, process.env.E2E_WEB_DIR);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(`console: ${m.text()}`); });
  page.setDefaultTimeout(15000);
  if (process.env.E2E_DEBUG) {
    page.on('console', (m) => console.log('console:', m.text()));
    page.on('request', (r) => console.log('req', r.method(), r.url()));
    page.on('requestfinished', (r) => console.log('done', r.method(), r.url()));
    page.on('requestfailed', (r) => console.log('failed', r.method(), r.url()));
  }
  return { context, page };
}

/**
 * E2E_WEB_DIR=…/web: the pages get the UI's scripts and styles from that
 * folder instead of the binary's embedded copy (to try a change of web/
 * without a rebuild; index.html and the API still come from the server).
 */
async function serveWebFromDisk(context, dir) {
  const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.json': 'application/json' };
  await context.route((url) => url.hostname === '127.0.0.1' && !url.pathname.startsWith('/api/'), async (route) => {
    // The pages themselves (index.html) still come from the server: a page
    // fulfilled here may not open a socket to 127.0.0.1 (Chromium's local
    // network access checks).
    if (route.request().resourceType() === 'document') return route.continue();
    const { pathname } = new URL(route.request().url());
    const file = path.join(dir, pathname.replace(/^\/+/, ''));
    if (!file.startsWith(path.resolve(dir)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return route.continue();
    return route.fulfill({ body: fs.readFileSync(file), contentType: types[path.extname(file)] || 'application/octet-stream' });
  });
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
  const board = page.locator('svg.board');
  if (await board.count()) await board.first().screenshot({ path: path.join(ARTIFACTS, `${name}-board.png`) });
}

export async function api(base, method, p, body) {
  const res = await fetch(base + p, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let data = text;
  try { data = JSON.parse(text); } catch { /* text */ }
  return { status: res.status, data };
}

export const gameIdOf = (page) => Number(new URL(page.url()).pathname.split('/').pop());

/**
 * Prints the pages' errors when the test ends (tests that must have none
 * assert that themselves). `pages`: one page, or {name: page} to print each
 * as "name errors".
 */
export function logErrorsAfter(t, pages) {
  t.after(() => {
    if (pages.errors) {
      if (pages.errors.length) console.log(pages.errors);
      return;
    }
    for (const [name, page] of Object.entries(pages)) {
      if (page.errors.length) console.log(`${name} errors`, page.errors);
    }
  });
}

/**
 * Fills in the new-game form on the page: only the fields given, in this
 * order (game, kind, level, colour, name).
 */
export async function fillNewGame(page, { game, kind, level, color, name } = {}) {
  if (game) await page.click(`input[name=game][value=${game}]`);
  if (kind) await page.click(`input[name=kind][value=${kind}]`);
  if (level !== undefined) await page.fill('#level', String(level));
  if (color) await page.check(`input[name=color][value=${color}]`);
  if (name !== undefined) await page.fill('#name', name);
}

/** Registers `name` on the register page (from the header's link); waits for the account page. */
export async function registerAccount(page, url, name, password) {
  await page.goto(url);
  await page.click('#register-link');
  await page.waitForURL(/\/register$/);
  await page.fill('#account-name', name);
  await page.fill('#account-password', password);
  await page.click('#account-submit');
  await page.waitForURL(/\/account$/);
  await page.waitForFunction((n) => document.querySelector('#account-menu-name')?.textContent === n, name);
  // The account's games are in (the page drawn for the last time).
  await page.waitForSelector('#account-games-empty, .account-games');
}

/** Logs in on the login page (does not wait for the answer). */
export async function loginAccount(page, url, name, password) {
  await page.goto(`${url}/login`);
  await page.fill('#account-name', name);
  await page.fill('#account-password', password);
  await page.click('#account-submit');
}

/** Starts the game of the new-game form; returns its id once its page is open. */
export async function startGame(page) {
  await page.click('#start');
  await page.waitForURL(/\/game\/\d+$/);
  return gameIdOf(page);
}

/** Opens game `game` ({id, tokens}) in the page with the seats of its tokens. */
export async function openWithSeats(page, base, game) {
  await page.goto(base);
  await page.evaluate(({ id, tokens }) => localStorage.setItem(`brett.seats.${id}`, JSON.stringify(tokens)), game);
  await page.goto(`${base}/game/${game.id}`);
}

/** Waits until the page has remembered game `id` among its games (the game page does so once its state has loaded). */
export async function waitRemembered(page, id) {
  await page.waitForFunction((gid) => JSON.parse(localStorage.getItem('brett.games') || '[]').some((g) => g.id === gid), id);
}

/** Creates a game through the API (`body` of POST /api/games) and opens it with its seats; returns the answer. */
export async function openNewGame(page, base, body) {
  const { status, data } = await api(base, 'POST', '/api/games', body);
  if (status !== 201) throw new Error(`POST /api/games ${status}: ${JSON.stringify(data)}`);
  await openWithSeats(page, base, data);
  return data;
}

/**
 * Imports `record` through the archive page open in `page` (its import
 * form); returns the id of the new game once its page is open (another
 * than `from`, the game the record came from).
 */
export async function importRecord(page, record, from) {
  await page.fill('#import-text', record);
  await page.click('#import-btn');
  await page.waitForURL(/\/game\/\d+$/);
  const imported = gameIdOf(page);
  assert.notEqual(imported, from);
  return imported;
}

export async function getState(base, id) {
  const { status, data } = await api(base, 'GET', `/api/games/${id}`);
  if (status !== 200) throw new Error(`GET state ${status}`);
  return data;
}

/** Waits until the server state satisfies fn. */
export async function waitState(base, id, fn, timeout = 20000) {
  const start = Date.now();
  for (;;) {
    const st = await getState(base, id);
    if (fn(st)) return st;
    if (Date.now() - start > timeout) throw new Error(`state condition not met; ply ${st.ply}, status ${st.status}`);
    await sleep(80);
  }
}

/** The moves shown in the page's move list. */
export const shownMoves = (page) => page.$$eval('#move-list button.move', (els) => els.map((e) => e.textContent));

/** Waits until the page's move list shows n moves. */
export async function waitMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#move-list button.move').length === k, n);
}

/**
 * Plays a move through the board by clicks: from (if any), to, and the
 * removal when more than one stone could be removed (legal: the state's legal_moves).
 */
export async function clickMove(page, move, legal = []) {
  const m = move.match(/^(?:([a-g][1-7])-)?([a-g][1-7])(?:x([a-g][1-7]))?$/);
  if (!m) throw new Error(`bad move ${move}`);
  const [, from, to, remove] = m;
  if (from) {
    await page.click(`.board [data-point=${from}]`);
    await page.waitForSelector(`.board [data-point=${from}].selected`);
  }
  await page.click(`.board [data-point=${to}]`);
  const base = `${from ? `${from}-` : ''}${to}x`;
  if (remove && legal.filter((x) => x.startsWith(base)).length > 1) {
    await page.waitForSelector(`.board [data-point=${remove}].is-removable`);
    await page.click(`.board [data-point=${remove}]`);
  }
}

export { sleep };

/** The square `s` of the Dame board on the page. */
const dameSquare = (s) => `.dame-board [data-square="${s}"]`;

/**
 * Plays a Dame move by clicks: the piece, then the landing squares of its
 * path one by one until the UI sends the move (no piece is selected any more).
 */
export async function clickDameMove(page, move) {
  const path = move.split(/[-x]/);
  await page.click(dameSquare(path[0]));
  await page.waitForSelector(`${dameSquare(path[0])}.selected`);
  for (const s of path.slice(1)) {
    await page.click(dameSquare(s));
    if (!(await page.$('.dame-board .sq.selected'))) return;
  }
  throw new Error(`${move}: still selected after its whole path`);
}
