// Dame in the browser: (a) a local game on 8×8 played by clicks to its
// natural end (a multiple capture entered by clicking its path, a single
// capture, an ordinary move), a game begun from the new-game form and
// resigned; (b) a game against the computer on 10×10; (c) huffing: a skipped
// capture, the huff offer, a click on a marked piece removes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, api, getState, waitState, gameIdOf, waitMoves, shownMoves,
  logErrorsAfter, fillNewGame, startGame,
  openNewGame, clickDameMove,
} from './helpers.mjs';

const suite = useServerAndBrowser('dame');

const sq = (s) => `.dame-board [data-square="${s}"]`;
const pieces = (page) => page.$$eval('.dame-board .sq.has-piece', (els) => els.map((e) => e.dataset.square).sort());
const squaresWith = (page, cls) => page.$$eval(`.dame-board .sq.${cls}`, (els) => els.map((e) => e.dataset.square).sort());

/** Creates a game through the API and opens it in the page with its seats; its id. */
async function openGame(page, body) {
  const data = await openNewGame(page, suite.server.url, body);
  await page.waitForSelector('.dame-board');
  return data.id;
}

test('a local Dame game by clicks: multiple capture by its path, capture, move, natural end', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  // White must capture: c3 jumps d4 to e5 and goes on either over f6 to g7 or over d6 to c7.
  const id = await openGame(page, { game: 'dame', kind: 'local', position: 'W:Wc3,b4:Bd4,d6,f6' });
  await page.waitForSelector('svg.dame-board.interactive');
  assert.match(await page.textContent('#status'), /Weiß am Zug/);
  assert.match(await page.textContent('#hint'), /Schlagzwang/);
  // Only the capturing piece can be selected.
  assert.deepEqual(await squaresWith(page, 'movable'), ['c3']);
  await page.click(sq('b4'));
  assert.equal(await page.$('.dame-board .sq.selected'), null);

  await page.click(sq('c3'));
  await page.waitForSelector(`${sq('c3')}.selected`);
  assert.deepEqual(await squaresWith(page, 'is-target'), ['c7', 'e5', 'g7']);
  await page.click(sq('e5'));
  // Two ways on: the next landing squares are highlighted, d4 is marked as taken.
  await page.waitForSelector(`${sq('d4')}.is-capturing`);
  assert.deepEqual(await squaresWith(page, 'is-target'), ['c7', 'g7']);
  assert.match(await page.textContent('#hint'), /Landefelder/);
  assert.equal((await getState(suite.server.url, id)).ply, 0, 'nothing is sent before the path is clear');
  await shot(page, 'dame-a-path');
  await page.click(sq('g7'));
  await waitMoves(page, 1);
  let st = await getState(suite.server.url, id);
  assert.equal(st.moves[0], 'c3xe5xg7');
  assert.deepEqual(await pieces(page), ['b4', 'd6', 'g7']);
  await page.waitForSelector(`${sq('d4')}.last-captured`);
  await page.waitForSelector(`${sq('f6')}.last-captured`);
  assert.match(await page.textContent('.player-bar[data-color=black] .count'), /1 Stein · 0 Damen · 2 verloren/);

  // Black's ordinary move d6-c5 (click piece, click target).
  await page.waitForSelector(`${sq('d6')}.movable`);
  await page.click(sq('d6'));
  await page.waitForSelector(`${sq('c5')}.is-target`);
  await page.click(sq('c5'));
  await waitMoves(page, 2);
  // White's single capture b4xd6 takes Black's last piece: one click on the destination.
  await page.waitForSelector(`${sq('b4')}.movable`);
  await clickDameMove(page, 'b4xd6');
  await page.waitForSelector('.status-line.over');
  st = await getState(suite.server.url, id);
  assert.equal(st.status, 'over');
  assert.equal(st.reason, 'no-pieces');
  assert.equal(st.result, '1-0');
  assert.equal(await page.textContent('#status'), 'Schwarz hat keine Steine mehr – Weiß gewinnt');
  assert.deepEqual(await shownMoves(page), ['c3xe5xg7', 'd6-c5', 'b4xd6']);
  assert.equal(await page.$('svg.dame-board.interactive'), null);
  await shot(page, 'dame-a-end');

  // Replay: the position after the first move.
  await page.click('#move-list button.move >> nth=0');
  await page.waitForSelector('.replay-info:has-text("Stellung nach 1. c3xe5xg7")');
  assert.deepEqual(await pieces(page), ['b4', 'd6', 'g7']);
  await page.click('#nav-first');
  assert.deepEqual(await pieces(page), ['b4', 'c3', 'd4', 'd6', 'f6']);
  assert.deepEqual(page.errors, []);
});

test('a Dame game from the new-game form: moves by keyboard and drag, a capture, resignation', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'dame' });
  await page.waitForSelector('h1:has-text("New game of Dame")');
  await fillNewGame(page, { kind: 'local' });
  const id = await startGame(page);
  await page.waitForSelector('svg.dame-board.interactive');
  assert.match(await page.textContent('.rules-box'), /Dame 8×8/);
  assert.equal((await pieces(page)).length, 24);
  // By keyboard: focus c3, Enter selects it, the up arrow leads to d4, Enter plays.
  await page.focus(sq('c3'));
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${sq('c3')}.selected`);
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.square), 'd4');
  await page.keyboard.press('Enter');
  await waitMoves(page, 1);
  // Black by drag and drop.
  const a = await page.locator(sq('f6')).boundingBox();
  const b = await page.locator(sq('e5')).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 8, a.y + a.height / 2 + 8, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
  await waitMoves(page, 2);
  // White must take e5.
  await page.waitForSelector('#hint:has-text("Capture is compulsory")');
  await clickDameMove(page, 'd4xf6');
  await waitMoves(page, 3);
  const st = await getState(suite.server.url, id);
  assert.deepEqual(st.moves, ['c3-d4', 'f6-e5', 'd4xf6']);
  await page.click('#resign');
  await page.click('dialog .primary');
  await page.waitForSelector('.status-line.over');
  assert.equal(await page.textContent('#status'), 'Black resigns – White wins');
  // The home page remembers the game choice.
  await page.goto(suite.server.url);
  assert.equal(await page.isChecked('input[name=game][value=dame]'), true);
  // The archive shows the game type.
  await page.goto(`${suite.server.url}/archive`);
  await page.waitForSelector(`tr[data-id="${id}"]`);
  assert.match(await page.textContent(`tr[data-id="${id}"]`), /Dame 8×8/);
  assert.deepEqual(page.errors, []);
});

test('the Italian king (More rules: a king captures only a piece next to it) from the new-game form', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'dame', kind: 'local' });
  await page.click('#dame-advanced summary');
  await page.selectOption('#king-capture', 'short');
  const id = await startGame(page);
  await page.waitForSelector('svg.dame-board.interactive');
  const st = await getState(suite.server.url, id);
  assert.equal(st.rules, 'dame,king-capture=short');
  assert.equal(st.rule_options.king_capture, 'short');
  assert.match(await page.textContent('.rules-box'), /Kings capture only pieces next to them/);
});

test('against the computer on 10×10: the computer replies', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'dame-100', kind: 'computer', level: 1, color: 'white' });
  const id = await startGame(page);
  await page.waitForSelector('svg.dame-board[data-size="10"]');
  assert.equal((await pieces(page)).length, 40);
  assert.match(await page.textContent('.rules-box'), /Dame 100/);
  let st;
  for (let i = 0; i < 3; i++) {
    st = await waitState(suite.server.url, id, (s) => s.status === 'over' || (s.turn === 'white' && !s.thinking), 30000);
    if (st.status === 'over') break;
    await page.waitForSelector('svg.dame-board.interactive');
    // A capture when there is one (compulsory anyway), else the first move.
    await clickDameMove(page, st.legal_moves[(i * 5) % st.legal_moves.length]);
    await waitState(suite.server.url, id, (s) => s.ply > st.ply, 10000);
  }
  st = await waitState(suite.server.url, id, (s) => s.status === 'over' || (s.ply >= 6 && !s.thinking), 30000);
  assert.ok(st.ply >= 6, `three computer replies (ply ${st.ply})`);
  await waitMoves(page, st.ply);
  assert.deepEqual(await shownMoves(page), st.moves.map((m, i) => (st.huffs[i] ? `H ${st.huffs[i]} ${m}` : m)));
  // The board shows the server's position.
  const shown = await page.$$eval('.dame-board .sq.has-piece', (els) => els.map((e) => `${e.classList.contains('white') ? 'W' : 'B'}${e.dataset.square}`).sort());
  const fen = st.position.split(':');
  const expand = (field) => field.slice(1).split(',').filter(Boolean).flatMap((x) => {
    const y = x.replace(/^K/, '');
    const m = y.match(/^(\d+)-(\d+)$/);
    if (!m) return [y];
    const out = [];
    for (let n = Number(m[1]); n <= Number(m[2]); n++) out.push(String(n));
    return out;
  });
  const want = [...expand(fen.find((f) => f.startsWith('W') && f !== fen[0]) || 'W').map((s) => `W${s}`),
    ...expand(fen.find((f) => f.startsWith('B') && f !== fen[0]) || 'B').map((s) => `B${s}`)].sort();
  assert.deepEqual(shown, want);
  await shot(page, 'dame-b-computer');
  assert.deepEqual(page.errors, []);
});

test('huffing: a skipped capture is offered to the opponent, a click removes the piece', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  // White's c3 could take d4 but White plays g3-h4 instead.
  const id = await openGame(page, { game: 'dame', kind: 'local', options: { huffing: true }, position: 'W:Wa1,c3,g3:Bb8,d4,h8' });
  await page.waitForSelector('svg.dame-board.interactive');
  assert.match(await page.textContent('.rules-box'), /Blasen: an/);
  await clickDameMove(page, 'g3-h4');
  await waitMoves(page, 1);
  await page.waitForSelector('#huff-box:not([hidden])');
  assert.match(await page.textContent('#huff-box'), /Schlag ausgelassen/);
  const st = await getState(suite.server.url, id);
  assert.deepEqual(await squaresWith(page, 'is-huffable'), [...st.huffable].sort());
  assert.ok(st.huffable.includes('c3'));
  await shot(page, 'dame-c-huff-offer');
  await page.click(sq('c3'));
  await page.waitForSelector(`${sq('c3')}:not(.has-piece)`);
  await page.waitForSelector('#huff-box', { state: 'hidden' });
  let s2 = await waitState(suite.server.url, id, (s) => s.pending_huff === 'c3');
  assert.equal(s2.turn, 'black');
  assert.equal(s2.ply, 1);
  // Black moves on; the move list shows the huff before the move.
  await clickDameMove(page, 'd4-c3');
  await waitMoves(page, 2);
  s2 = await getState(suite.server.url, id);
  assert.equal(s2.huffs[1], 'c3');
  assert.deepEqual(await shownMoves(page), ['g3-h4', 'H c3 d4-c3']);
  assert.equal(await page.$(`${sq('c3')}.black`) !== null, true);
  await shot(page, 'dame-c-huffed');

  // Against the computer: it huffs the piece that skipped the capture, the move list shows it.
  const cid = await openGame(page, { game: 'dame', kind: 'computer', level: 1, color: 'white', options: { huffing: true }, position: 'W:Wa1,c3,g3:Bb8,d4,h8' });
  await page.waitForSelector('svg.dame-board.interactive');
  await clickDameMove(page, 'g3-h4');
  const cs = await waitState(suite.server.url, cid, (s) => s.ply >= 2 && !s.thinking, 20000);
  assert.equal(cs.huffs[1], 'c3');
  await waitMoves(page, 2);
  const list = await shownMoves(page);
  assert.equal(list[1], `H c3 ${cs.moves[1]}`);
  await page.waitForSelector(`${sq('c3')}:not(.white)`);
  assert.deepEqual(page.errors, []);
});

test('online Dame through the invite link: the guest plays Black on a turned board, moves arrive live', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'fr-FR' });
  const { page: guest } = await newPage(suite.browser, { locale: 'it-IT', width: 390, height: 800 });
  logErrorsAfter(t, { host, guest });
  await host.goto(suite.server.url);
  await host.selectOption('#lang-select', 'fr');
  await fillNewGame(host, { game: 'international', kind: 'online', color: 'white' });
  const id = await startGame(host);
  await host.waitForSelector('#invite-link');
  assert.match(await host.textContent('.rules-box'), /Jeu de dames international/);
  const invite = await host.inputValue('#invite-link');
  await guest.goto(invite);
  await guest.selectOption('#lang-select', 'it');
  await guest.waitForSelector('#join');
  await guest.click('#join');
  await guest.waitForSelector('.player-bar.bottom[data-color=black]');
  // Square 1 is at the guest's bottom right (the board is turned).
  const b1 = await guest.locator(sq('1')).boundingBox();
  const b50 = await guest.locator(sq('50')).boundingBox();
  assert.ok(b1.y > b50.y, 'Black at the bottom');
  await host.waitForSelector('svg.dame-board.interactive');
  await clickDameMove(host, '32-28');
  await waitMoves(guest, 1);
  await guest.waitForSelector('svg.dame-board.interactive');
  await clickDameMove(guest, '19-23');
  await waitMoves(host, 2);
  // White must take 23: the French hint, and the capture.
  await host.waitForSelector('#hint:has-text("prise est obligatoire")');
  await clickDameMove(host, '28x19');
  await waitMoves(guest, 3);
  const st = await getState(suite.server.url, id);
  assert.deepEqual(st.moves, ['32-28', '19-23', '28x19']);
  assert.match(await guest.textContent('#hint'), /presa è obbligatoria/);
  await shot(guest, 'dame-online-guest');
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});

test('Dame record (PDN) export and import, analysis from the game', async (t) => {
  const { data: created } = await api(suite.server.url, 'POST', '/api/games', { game: 'dame', kind: 'local', name: 'Dora' });
  const tok = created.tokens;
  const moves = ['c3-d4', 'f6-e5', 'd4xf6', 'g7xe5'];
  for (const [i, mv] of moves.entries()) {
    const r = await api(suite.server.url, 'POST', `/api/games/${created.id}/moves`, { move: mv, token: i % 2 ? tok.black : tok.white, ply: i });
    assert.equal(r.status, 200, JSON.stringify(r.data));
  }
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/archive?status=all`); // running games too
  const row = page.locator(`tr[data-id="${created.id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Dame 8×8/);
  assert.match(await row.locator('a[download]').getAttribute('download'), /\.pdn$/);
  const record = await (await fetch(`${suite.server.url}/api/games/${created.id}/record`)).text();
  assert.match(record, /c3-d4 f6-e5/);
  assert.match(record, /d4xf6 g7xe5/);

  // Import the PDN back and replay it.
  await page.fill('#import-text', record);
  await page.click('#import-btn');
  await page.waitForURL(/\/game\/\d+$/);
  assert.notEqual(gameIdOf(page), created.id);
  await page.waitForSelector('.dame-board');
  await waitMoves(page, 4);
  await page.click('#move-list button.move[data-ply="3"]');
  await page.waitForSelector(`${sq('f6')}.has-piece.white`);
  assert.equal(await page.$(`${sq('e5')}.has-piece`), null);
  await page.click('#nav-next');
  await page.waitForSelector(`${sq('e5')}.has-piece.black`);

  // Analysis of the position after move 2, from the game's link.
  await page.click('#move-list button.move[data-ply="2"]');
  await page.click('#analyze');
  await page.waitForURL(/\/analysis\?/);
  await page.waitForSelector('.dame-board');
  assert.equal(await page.inputValue('#position-text'), 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Be5,b6,d6,h6,a7,c7,e7,g7,b8,d8,f8,h8:F2');
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  await page.waitForSelector('.lines .line', { timeout: 30000 });
  // Capture is compulsory: the only move is d4xf6.
  const heads = await page.$$eval('.lines .line .pv', (els) => els.map((e) => e.querySelector('.move').textContent));
  assert.deepEqual(heads, ['d4xf6']);
  await page.click('.lines .line .pv .move >> nth=0');
  await page.waitForSelector(`${sq('f6')}.has-piece.white`);
  // Play mode on the analysis board: the capture by clicks.
  await page.click('button:has-text("Zurück zur Stellung")');
  await page.click('#mode-play');
  await page.click(sq('d4'));
  await page.click(sq('f6'));
  await page.waitForSelector(`${sq('e5')}:not(.has-piece)`);
  assert.match(await page.inputValue('#position-text'), /^B:W.*f6.*:B/);
  await shot(page, 'dame-analysis');
  assert.deepEqual(page.errors, []);
});
