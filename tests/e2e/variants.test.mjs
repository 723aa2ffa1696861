// Twelve Men's Morris and Lasker Morris in the app: the board drawn from the
// catalogue's description (20 lines with the diagonals), the page's move
// generator against the server's, hot-seat games played by clicks (a move
// along a diagonal, a stone that slides while stones are in hand), the
// computer's reply, an online game, the board-full draw, the analysis board
// and the archive's record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, api, getState, waitState, clickMove, waitMoves, shownMoves,
  openNewGame, logErrorsAfter, importRecord, fillNewGame, startGame,
} from './helpers.mjs';
import * as M from '../../web/muehle.js';
import { useCatalogue } from '../../web/catalogue.js';

const suite = useServerAndBrowser('variants');

/** The page's catalogue: the server's. */
async function loadCatalogue() {
  const { status, data } = await api(suite.server.url, 'GET', '/api/catalogue');
  assert.equal(status, 200);
  useCatalogue(data);
  return data;
}

/** A deterministic sequence of numbers in [0, 1) (a small LCG). */
function random(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const sorted = (list) => [...list].sort();

/** Plays `moves` in `game` (the answer of its creation) through the API; returns the state after them. */
async function playMoves(game, moves) {
  let st = game.state;
  for (const mv of moves) {
    const res = await api(suite.server.url, 'POST', `/api/games/${game.id}/moves`, { move: mv, token: game.tokens[st.turn], ply: st.ply });
    assert.equal(res.status, 200, `${mv}: ${JSON.stringify(res.data)}`);
    st = res.data;
  }
  return st;
}

/** A new page in `locale` whose errors are printed when test `t` ends. */
async function pageFor(t, locale) {
  const { page } = await newPage(suite.browser, { locale });
  logErrorsAfter(t, page);
  return page;
}

test('the page\'s boards and moves are the catalogue\'s and agree with the server', async () => {
  const catalogue = await loadCatalogue();
  const boards = catalogue.games[0].boards;
  assert.equal(M.geometryOf('twelve').lines.length, 20);
  assert.equal(M.geometryOf('nine').lines.length, 16);
  assert.deepEqual(sorted(M.geometryOf('twelve').neighbours.b6), ['a7', 'b4', 'c5', 'd6']);
  assert.deepEqual(sorted(M.geometryOf('nine').neighbours.b6), ['b4', 'd6']);
  assert.equal(M.startPosition({ board: 'twelve' }), '.../.../.../....../.../.../... w 12 12 0 1');
  assert.equal(M.startPosition('lasker'), '.../.../.../....../.../.../... w 10 10 0 1');
  assert.equal(M.startPosition(), '.../.../.../....../.../.../... w 9 9 0 1');
  // A mill on a diagonal counts on the twelve board only.
  const diag = { a7: 'white', b6: 'white', c5: 'white' };
  assert.equal(M.inMill(diag, 'b6', { board: 'twelve' }), true);
  assert.equal(M.inMill(diag, 'b6', { board: 'nine' }), false);
  assert.equal(boards.lasker.stones, 10);

  // Random games under each rule set: at every ply the page's legal moves
  // are the server's, and its position after the move is the server's.
  for (const [rules, seed] of [['twelve-mens-morris', 7], ['lasker-morris', 11], ['lasker-morris', 12], ['standard,move-in-placing=on', 5]]) {
    const { data } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local', rules });
    const options = data.state.rule_options;
    assert.equal(M.formatPosition(M.parsePosition(M.startPosition(options))), data.state.position);
    const rnd = random(seed);
    let st = data.state;
    let pos = M.parsePosition(st.position);
    let slidesWhilePlacing = 0;
    for (let ply = 0; ply < 60 && st.status === 'ongoing'; ply++) {
      assert.deepEqual(sorted(M.legalMoves(pos, options)), sorted(st.legal_moves), `${rules}, ply ${ply}: ${st.position}`);
      for (const c of ['white', 'black']) assert.equal(M.removedCount(pos, options)[c], st.removed[c], `${rules}, ply ${ply}: removed`);
      const mv = st.legal_moves[Math.floor(rnd() * st.legal_moves.length)];
      if (mv.includes('-') && pos.hand[pos.turn] > 0) slidesWhilePlacing += 1;
      st = await playMoves({ ...data, state: st }, [mv]);
      pos = M.applyMove(pos, mv, options);
      assert.equal(M.formatPosition(pos), st.position, `${rules} after ${mv}`);
    }
    if (options.move_in_placing) assert.ok(slidesWhilePlacing > 0, `${rules}: a stone slid while stones were in hand`);
  }
});

/**
 * A full twelve board without a line of one colour (12 white, 12 black),
 * found by search over the catalogue's lines.
 */
function fullBoardWithoutMills() {
  const geo = M.geometryOf('twelve');
  const points = M.POINTS;
  const board = {};
  const count = { white: 0, black: 0 };
  const ok = (p) => geo.linesAt[p].every((l) => !l.every((q) => board[q] === board[p]));
  const fill = (i) => {
    if (i === points.length) return true;
    for (const c of ['white', 'black']) {
      if (count[c] === 12) continue;
      board[points[i]] = c;
      count[c] += 1;
      if (ok(points[i]) && fill(i + 1)) return true;
      count[c] -= 1;
      delete board[points[i]];
    }
    return false;
  };
  assert.ok(fill(0), 'a full board without mills exists');
  return board;
}

test('Twelve Men\'s Morris: the board with its diagonals, a diagonal move by clicks, the board-full draw', async (t) => {
  await loadCatalogue();
  const page = await pageFor(t, 'en-US');
  try {
    // A new hot-seat game from the new-game form: 20 lines, 12 stones in each hand.
    await page.goto(suite.server.url);
    await fillNewGame(page, { game: 'muehle', kind: 'local' });
    await page.click('.rules-details summary');
    await page.selectOption('#preset', 'twelve-mens-morris');
    await page.waitForSelector('#preset-summary li');
    assert.match(await page.textContent('#preset-summary'), /four diagonals/);
    assert.equal(await page.inputValue('#board'), 'twelve');
    const id = await startGame(page);
    await page.waitForSelector('svg.board .lines[data-board=twelve]');
    assert.equal(await page.locator('svg.board .lines polyline').count(), 20);
    for (const d of ['a7-b6-c5', 'g7-f6-e5', 'a1-b2-c3', 'g1-f2-e3']) {
      assert.equal(await page.locator(`svg.board .lines polyline[data-line="${d}"]`).count(), 1, d);
    }
    for (const c of ['white', 'black']) {
      assert.equal(await page.locator(`.player-bar[data-color=${c}] .hand .mini-stone`).count(), 12, c);
      assert.match(await page.textContent(`.player-bar[data-color=${c}] .count`), /12/);
    }
    let st = await getState(suite.server.url, id);
    assert.equal(st.rules, 'twelve-mens-morris');
    assert.equal(st.rule_options.board, 'twelve');
    assert.match(await page.textContent('.rules-box'), /12 stones each, the diagonals are lines/);
    await page.click('#rules-summary summary');
    assert.match(await page.textContent('#rules-summary'), /board fills up while placing/);
    // Two placements by click, one on a diagonal point.
    await clickMove(page, 'b6');
    await waitMoves(page, 1);
    await clickMove(page, 'd2');
    await waitMoves(page, 2);
    st = await getState(suite.server.url, id);
    assert.deepEqual(st.moves, ['b6', 'd2']);
    assert.equal(await page.locator('.player-bar[data-color=white] .hand .mini-stone').count(), 11);
    await shot(page, 'variants-twelve-local');

    // A stone moves along a diagonal (a7 to b6) in the moving phase.
    const moving = 'W../..B/.../W....B/.../.W./B.W w 0 0 0 30';
    const game = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local', rules: 'twelve-mens-morris', position: moving });
    await page.waitForSelector('svg.board .lines[data-board=twelve]');
    assert.ok(game.state.legal_moves.includes('a7-b6'), game.state.legal_moves.join(' '));
    await page.click('.board [data-point=a7]');
    await page.waitForSelector('.board [data-point=b6].is-target');
    await clickMove(page, 'b6');
    await waitMoves(page, 1);
    st = await getState(suite.server.url, game.id);
    assert.deepEqual(st.moves, ['a7-b6']);
    await page.waitForSelector('.board [data-point=b6].has-stone.white');

    // The last empty point filled without a mill: the board is full, a draw.
    const full = fullBoardWithoutMills();
    const last = M.POINTS.find((p) => full[p] === 'black');
    delete full[last];
    const position = M.formatPosition({ board: full, turn: 'black', hand: { white: 0, black: 1 }, sinceMill: 0, moveNo: 12 });
    const end = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local', rules: 'twelve-mens-morris', position });
    assert.deepEqual(end.state.legal_moves, [last]);
    await page.waitForSelector(`.board [data-point=${last}].is-target`);
    await clickMove(page, last);
    st = await waitState(suite.server.url, end.id, (s) => s.status === 'over');
    assert.equal(st.reason, 'board-full');
    assert.equal(st.result, '1/2-1/2');
    await page.waitForSelector('#status:has-text("the board is full")');
    const record = await (await fetch(`${suite.server.url}/api/games/${end.id}/record`)).text();
    assert.match(record, /\[Termination "board-full"\]/);
    assert.match(record, /\[Result "1\/2-1\/2"\]/);
    await page.selectOption('#lang-select', 'de');
    await page.waitForSelector('#status:has-text("Das Brett ist voll")');
    await shot(page, 'variants-twelve-board-full');
    assert.deepEqual(page.errors, []);
  } catch (e) {
    await shot(page, 'variants-twelve-FAILED');
    throw e;
  }
});

test('Twelve Men\'s Morris against the computer: a placement by click and its reply', async (t) => {
  const page = await pageFor(t, 'de-DE');
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'muehle', kind: 'computer', level: 1, color: 'white' });
  await page.click('.rules-details summary');
  await page.selectOption('#preset', 'twelve-mens-morris');
  const id = await startGame(page);
  await page.waitForSelector('svg.board .lines[data-board=twelve]');
  await clickMove(page, 'c5');
  const st = await waitState(suite.server.url, id, (s) => s.ply >= 2);
  assert.equal(st.moves[0], 'c5');
  assert.equal(st.in_hand.black, 11);
  await waitMoves(page, 2);
  const [, reply] = await shownMoves(page);
  assert.equal(reply, st.moves[1]);
  await page.waitForSelector(`.board [data-point=${st.moves[1]}].has-stone.black`);
  assert.equal(await page.locator('.player-bar[data-color=black] .hand .mini-stone').count(), 11);
  assert.deepEqual(page.errors, []);
});

test('Lasker Morris: a stone slides while stones are in hand, by clicks; the hands differ', async (t) => {
  const page = await pageFor(t, 'en-US');
  const game = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local', rules: 'lasker-morris' });
  await page.waitForSelector('svg.board .lines[data-board=lasker]');
  assert.equal(await page.locator('svg.board .lines polyline').count(), 16);
  assert.equal(await page.locator('.player-bar[data-color=white] .hand .mini-stone').count(), 10);
  assert.match(await page.textContent('.rules-box'), /moving instead of placing: allowed/);
  await clickMove(page, 'a7');
  await waitMoves(page, 1);
  await clickMove(page, 'g1');
  await waitMoves(page, 2);
  // White's stone on a7 can move although White has stones in hand.
  await page.waitForSelector('.board [data-point=a7].movable');
  await page.click('.board [data-point=a7]');
  await page.waitForSelector('.board [data-point=a7].selected');
  await page.waitForSelector('.board [data-point=d7].is-target');
  assert.equal(await page.locator('.board .pt.is-target').count(), 2, 'd7 and a4');
  await page.click('.board [data-point=d7]');
  await waitMoves(page, 3);
  let st = await getState(suite.server.url, game.id);
  assert.deepEqual(st.moves, ['a7', 'g1', 'a7-d7']);
  assert.deepEqual(st.in_hand, { white: 9, black: 9 });
  // Black places: the hands differ with White to move.
  await clickMove(page, 'g4');
  await waitMoves(page, 4);
  st = await getState(suite.server.url, game.id);
  assert.deepEqual(st.in_hand, { white: 9, black: 8 });
  assert.equal(st.turn, 'white');
  assert.equal(await page.locator('.player-bar[data-color=white] .hand .mini-stone').count(), 9);
  assert.equal(await page.locator('.player-bar[data-color=black] .hand .mini-stone').count(), 8);
  await page.waitForSelector('.board [data-point=d7].has-stone.white');
  assert.equal(await page.locator('.board [data-point=a7].has-stone').count(), 0);
  await shot(page, 'variants-lasker-slide');
  assert.deepEqual(page.errors, []);
});

test('Twelve Men\'s Morris online: two browsers, each sees the other\'s moves', async (t) => {
  const { page: host } = await newPage(suite.browser, { locale: 'en-US' });
  const { page: guest } = await newPage(suite.browser, { locale: 'it-IT' });
  logErrorsAfter(t, { host, guest });
  const game = await openNewGame(host, suite.server.url, { game: 'muehle', kind: 'online', rules: 'twelve-mens-morris', color: 'white', name: 'Anna' });
  await guest.goto(`${suite.server.url}${game.invite.url}`);
  await guest.fill('#join-name', 'Ben');
  await guest.click('#join');
  await guest.waitForSelector('.join-box', { state: 'hidden' });
  for (const p of [host, guest]) {
    await p.waitForSelector('svg.board .lines[data-board=twelve]');
    assert.equal(await p.locator('svg.board .lines polyline').count(), 20);
  }
  const script = ['a7', 'g7', 'b6', 'f6'];
  for (const [i, mv] of script.entries()) {
    const [mover, watcher] = i % 2 ? [guest, host] : [host, guest];
    await mover.waitForSelector('svg.board.interactive');
    await clickMove(mover, mv);
    await waitMoves(watcher, i + 1);
    await watcher.waitForSelector(`.board [data-point=${mv}].has-stone.${i % 2 ? 'black' : 'white'}`);
  }
  const st = await getState(suite.server.url, game.id);
  assert.deepEqual(st.moves, script);
  assert.deepEqual(st.in_hand, { white: 10, black: 10 });
  assert.deepEqual(await shownMoves(guest), script);
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});

test('the analysis board with the twelve preset: set up, play on it, the engine\'s lines, no databases', async (t) => {
  const page = await pageFor(t, 'en-US');
  await page.goto(`${suite.server.url}/analysis`);
  await page.waitForSelector('#analysis-rules');
  // The page's rules: the presets' boards from the catalogue, the new options read from the text form.
  const parsed = await page.evaluate(async () => {
    const R = await import('/rules.js');
    return ['twelve-mens-morris', 'lasker-morris', 'standard,move-in-placing=on,board=lasker'].map((r) => R.parseRules(r).options);
  });
  assert.deepEqual(parsed.map((o) => [o.board, o.move_in_placing]), [['twelve', false], ['lasker', true], ['lasker', true]]);
  const offered = await page.$$eval('#analysis-rules option', (els) => els.map((e) => e.value));
  assert.ok(offered.includes('twelve-mens-morris') && offered.includes('lasker-morris'), offered.join(','));
  await page.selectOption('#analysis-rules', 'twelve-mens-morris');
  await page.waitForSelector('svg.board .lines[data-board=twelve]');
  assert.equal(await page.locator('svg.board .lines polyline').count(), 20);
  assert.equal(await page.inputValue('#hand-white'), '12');
  assert.equal(await page.inputValue('#position-text'), '.../.../.../....../.../.../... w 12 12 0 1');
  await page.waitForSelector('#tb-status[data-state=unavailable]');
  assert.match(await page.textContent('#tb-status'), /No perfect-play databases exist for these rules/);

  // Set up a position with a diagonal move that closes a mill, play it by clicks.
  await page.click('#mode-play');
  // White a7, c5, d6 and g1; Black elsewhere: d6-b6 closes the diagonal a7-b6-c5.
  await page.fill('#position-text', 'W../.W./W../B.B..B/.../B../..W w 0 0 0 20');
  await page.click('#position-apply');
  await page.click('.board [data-point=d6]');
  await page.waitForSelector('.board [data-point=b6].is-target');
  await page.click('.board [data-point=b6]');
  await page.waitForSelector('.board .pt.is-removable');
  await page.click('.board [data-point=a4]');
  await page.waitForSelector('.board [data-point=b6].has-stone.white');
  assert.equal(await page.locator('.board [data-point=a4].has-stone').count(), 0);
  assert.equal(await page.inputValue('#position-text'), 'W../W../W../..B..B/.../B../..W b 0 0 0 20');

  // The engine's lines in this position, and a move of one shown on the board.
  await page.click('#analyze-btn');
  await page.waitForSelector('.results ol.lines li .pv button.move', { timeout: 30000 });
  const first = await page.textContent('.results ol.lines li .pv button.move');
  await page.click('.results ol.lines li .pv button.move');
  const to = M.parseMove(first).to;
  await page.waitForSelector(`.board [data-point=${to}].has-stone.black`);
  assert.equal(await page.$('#tb-verdict'), null, 'no database verdict on this board');
  await shot(page, 'variants-analysis-twelve');
  assert.deepEqual(page.errors, []);
});

test('a finished Lasker Morris game in the archive: its record out and back in', async (t) => {
  const { data: created } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local', rules: 'lasker-morris', name: 'Emanuel' });
  const moves = ['a7', 'g1', 'a7-d7', 'g4'];
  await playMoves(created, moves);
  assert.equal((await api(suite.server.url, 'POST', `/api/games/${created.id}/resign`, { token: created.tokens.black })).status, 200);

  const page = await pageFor(t, 'de-DE');
  await page.goto(`${suite.server.url}/archive`);
  const row = page.locator(`tr[data-id="${created.id}"]`);
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, /Mühle · Lasker-Mühle/);
  assert.match(text, /Schwarz gibt auf/);
  assert.equal(await row.locator('a[download]').getAttribute('download'), `muehle-${created.id}.txt`);
  const record = await (await fetch(`${suite.server.url}/api/games/${created.id}/record`)).text();
  assert.match(record, /lasker-morris/);
  assert.match(record, /a7-d7/);

  const imported = await importRecord(page, record, created.id);
  await waitMoves(page, 4);
  const st = await getState(suite.server.url, imported);
  assert.equal(st.rules, 'lasker-morris');
  assert.deepEqual(st.moves, moves);
  await page.waitForSelector('svg.board .lines[data-board=lasker]');
  // Replay: after three moves White has moved a stone and still holds nine.
  await page.click('#move-list button.move[data-ply="3"]');
  await page.waitForSelector('.board [data-point=d7].has-stone.white');
  assert.equal(await page.locator('.player-bar[data-color=white] .hand .mini-stone').count(), 9);
  assert.equal(await page.locator('.player-bar[data-color=black] .hand .mini-stone').count(), 9);
  assert.deepEqual(page.errors, []);
});
