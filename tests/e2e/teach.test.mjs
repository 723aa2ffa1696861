// Analysis that teaches: the engine's moves as arrows on the analysis
// boards (the best line's and, lighter, the second and third), the score in
// words, the evaluation bar, the best line right under the board on the
// phone, "continue from here" (a new game from the analysed position), and
// the hint button of a game against the computer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser, newPage, shot, logErrorsAfter, fillNewGame, startGame, getState, openNewGame,
} from './helpers.mjs';

const suite = useServerAndBrowser('teach');

// White to move slides g4-g7, closes the mill a7-d7-g7 and wins: Black
// keeps two stones.
const MILL = 'WW./B.B/.../.....W/B../.../W.. w 0 0 0 30';
// White's man on c3 must take d4 and f6: c3xe5xg7, the only legal move.
const CAPTURE = 'W:Wc3:Bd4,f6,a7';

/** The arrows on the board: [{move, rank, path, remove, start, tip}] in SVG units. */
function arrows(page) {
  return page.$$eval('svg.board .arrow-layer .arrow', (els) => els.map((g) => {
    const pair = (text) => text.trim().split(/\s+/)[0].split(',').map(Number);
    const shaft = g.querySelector('.shaft');
    const head = g.querySelector('.head');
    return {
      move: g.dataset.move,
      rank: Number(g.dataset.rank),
      path: g.dataset.path,
      remove: g.dataset.remove || null,
      focus: g.classList.contains('focus'),
      opacity: Number(getComputedStyle(g).opacity),
      start: shaft ? pair(shaft.getAttribute('points')) : null,
      tip: head ? pair(head.getAttribute('points')) : null,
    };
  }));
}

/** The centre of a point (Mühle) or square (Dame) in SVG units. */
function centreOf(page, sel) {
  return page.$eval(sel, (g) => {
    const m = g.getAttribute('transform').match(/translate\(([-\d.]+),\s*([-\d.]+)\)/);
    const x = Number(m[1]);
    const y = Number(m[2]);
    const cell = g.querySelector('rect.cell');
    const half = cell ? Number(cell.getAttribute('width')) / 2 : 0;
    return [x + half, y + half];
  });
}

const near = (a, b, what) => {
  assert.ok(Math.abs(a[0] - b[0]) < 1.5 && Math.abs(a[1] - b[1]) < 1.5, `${what}: ${a} is not ${b}`);
};

/** An engine answer for a mocked POST /api/analyze. */
function answer(lines, extra = {}) {
  return {
    depth: 9, nodes: 12345, time_ms: 300, preempted: false,
    lines: lines.map(([move, score, pv]) => ({ move, score, score_text: '', pv: pv || [move], why: [], reasons: [] })),
    ...extra,
  };
}

/** Opens the analysis page with the engine's answer `body` in place of the server's. */
async function mocked(t, body, { position, variant = null, locale = 'de-DE', width, height } = {}) {
  const { page } = await newPage(suite.browser, { locale, width, height });
  logErrorsAfter(t, page);
  await page.route('**/api/analyze', (route) => route.fulfill({ json: body }));
  const q = new URLSearchParams({ position });
  if (variant) q.set('variant', variant);
  await page.goto(`${suite.server.url}/analysis?${q}`);
  await page.click('#analyze-btn');
  await page.waitForSelector('#best-line:not([hidden])');
  return page;
}

test('the engine\'s best move is an arrow on the Mühle board: the slide and the removal of the mill', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis?position=${encodeURIComponent(MILL)}`);
  assert.equal(await page.locator('.arrow-layer .arrow').count(), 0, 'no arrow before the analysis');
  await page.selectOption('#analysis-lines', '1');
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  await page.waitForSelector('.arrow-layer .arrow.rank-1');
  const [best] = await arrows(page);
  assert.equal(best.path, 'g4 g7');
  assert.match(best.move, /^g4-g7x[a-g][1-7]$/);
  assert.equal(best.remove, best.move.slice(-2), 'the stone the mill removes is marked');
  assert.equal(await page.locator('.arrow.rank-1 .remove').count(), 1);
  near(best.start, await centreOf(page, '[data-point=g4]'), 'the arrow starts on g4');
  near(best.tip, await centreOf(page, '[data-point=g7]'), 'the arrow ends on g7');
  await shot(page, 'teach-muehle-arrow');

  // The position changes: the arrow goes.
  await page.click('#side-black');
  await page.waitForFunction(() => document.querySelectorAll('.arrow-layer .arrow').length === 0);
  assert.equal(await page.isHidden('#best-line'), true);
});

test('the Dame arrow follows the whole capture', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis?variant=dame&position=${encodeURIComponent(CAPTURE)}`);
  await page.selectOption('#analysis-time', '300');
  await page.click('#analyze-btn');
  await page.waitForSelector('.arrow-layer .arrow.rank-1');
  const list = await arrows(page);
  assert.equal(list.length, 1, 'one legal move, one arrow');
  assert.equal(list[0].path, 'c3 e5 g7');
  near(list[0].start, await centreOf(page, '[data-square=c3]'), 'the arrow starts on c3');
  near(list[0].tip, await centreOf(page, '[data-square=g7]'), 'the arrow ends on g7');
  // Flipped, the arrow is drawn on the flipped board.
  await page.click('#mode-play');
  await page.click('#analysis-flip');
  const [flipped] = await arrows(page);
  near(flipped.start, await centreOf(page, '[data-square=c3]'), 'the flipped arrow starts on c3');
});

test('the second and third lines are lighter arrows; a hovered line stands out', async (t) => {
  const page = await mocked(t, answer([
    ['d6-d5', { cp: 61 }, ['d6-d5', 'd2-d3', 'd5-c5']], ['a1-d1', { cp: 20 }], ['g4-g7', { cp: -5 }],
  ]), { position: 'W../.W./.../B....W/.../.B./W.B w 0 0 0 30' });
  await page.waitForSelector('.arrow-layer .arrow.rank-3');
  const list = await arrows(page);
  const byRank = Object.fromEntries(list.map((a) => [a.rank, a]));
  assert.equal(byRank[1].path, 'd6 d5');
  assert.equal(byRank[2].path, 'a1 d1');
  assert.equal(byRank[3].path, 'g4 g7');
  assert.ok(byRank[1].opacity > byRank[2].opacity && byRank[2].opacity > byRank[3].opacity,
    `lighter arrows: ${list.map((a) => a.opacity)}`);
  await page.hover('.lines li.line[data-line="2"]');
  await page.waitForSelector('.arrow-layer.has-focus .arrow.rank-2.focus');
  const hovered = Object.fromEntries((await arrows(page)).map((a) => [a.rank, a]));
  assert.ok(hovered[2].opacity > hovered[1].opacity, 'the hovered line\'s arrow stands out');
  // Stepping through a line: its next move is the arrow.
  await page.click('.lines li.line[data-line="1"] .pv .move >> nth=0');
  await page.waitForFunction(() => document.querySelector('.arrow-layer .arrow')?.dataset.move === 'd2-d3');
  assert.equal((await arrows(page)).length, 1);
});

test('the score in words, in German and in English, and the evaluation bar', async (t) => {
  const body = answer([['d6-d5', { cp: 61 }]]);
  const position = 'W../.W./.../B....W/.../.B./W.B w 0 0 0 30';
  const de = await mocked(t, body, { position, locale: 'de-DE' });
  assert.equal(await de.textContent('#score-words'), '+0,61 ≈ Weiß steht besser, um etwa einen halben Stein');
  assert.equal(await de.getAttribute('#eval-bar', 'role'), 'meter');
  assert.equal(await de.getAttribute('#eval-bar', 'aria-valuenow'), '63');
  assert.match(await de.getAttribute('#eval-bar', 'aria-valuetext'), /Weiß steht besser/);
  assert.equal(await de.textContent('.lines li.line .line-words'), 'Weiß steht besser, um etwa einen halben Stein');
  const en = await mocked(t, body, { position, locale: 'en-GB' });
  assert.equal(await en.textContent('#score-words'), '+0.61 ≈ White is better by about half a stone');

  // Black to move and ahead: White's view, and Black's words.
  const black = await mocked(t, answer([['d6-d5', { cp: 160 }]]), { position: position.replace(' w ', ' b '), locale: 'fr-FR' });
  assert.equal(await black.textContent('#score-words'), '-1,60 ≈ Les Noirs sont nettement mieux, d\'environ un pion et demi');
  assert.ok(Number(await black.getAttribute('#eval-bar', 'aria-valuenow')) < 25);

  // Dame: in men; a forced win in moves.
  const dame = await mocked(t, answer([['c3-d4', { cp: 5 }]]), { position: 'W:Wc3,e3:Bd6,f6', variant: 'dame', locale: 'it-IT' });
  assert.equal(await dame.textContent('#score-words'), '+0,05 ≈ La posizione è pari');
  const win = await mocked(t, answer([['c3-d4', { mate: 3 }]]), { position: 'W:Wc3,e3:Bd6,f6', variant: 'dame', locale: 'en-GB' });
  assert.equal(await win.textContent('#score-words'), 'White wins in 3 moves');
  assert.equal(await win.getAttribute('#eval-bar', 'aria-valuenow'), '100');
  const men = await mocked(t, answer([['c3-d4', { cp: -230 }]]), { position: 'W:Wc3,e3:Bd6,f6', variant: 'dame', locale: 'de-DE' });
  assert.equal(await men.textContent('#score-words'), '-2,30 ≈ Schwarz steht klar besser, um etwa 2,5 Steine');
});

test('the databases\' verdict fills the bar', async (t) => {
  const body = answer([['a1-a4', { mate: 12 }]], {
    database: { value: 'loss 23', result: 'loss', plies: 23, turn: 'white', exact: true, moves: [{ move: 'a1-a4', value: 'loss 23', result: 'loss', plies: 23 }] },
  });
  const page = await mocked(t, body, { position: 'W../.W./.../B....W/.../.B./W.B w 0 0 0 30', locale: 'en-GB' });
  assert.equal(await page.textContent('#score-words'), 'Black wins in 23 plies (database)');
  assert.equal(await page.getAttribute('#eval-bar', 'aria-valuenow'), '0');
});

test('on the phone the best line sits right under the board', async (t) => {
  for (const variant of [null, 'dame']) {
    const page = await mocked(t, answer([[variant ? 'c3-d4' : 'd6-d5', { cp: 61 }]]), {
      position: variant ? 'W:Wc3,e3:Bd6,f6' : 'W../.W./.../B....W/.../.B./W.B w 0 0 0 30', variant, width: 390, height: 844,
    });
    const board = await page.locator('svg.board').boundingBox();
    const best = await page.locator('#best-line').boundingBox();
    assert.ok(best.y >= board.y + board.height - 1, 'under the board');
    assert.ok(best.y - (board.y + board.height) <= 24, `${best.y - (board.y + board.height)} px under the board`);
    assert.ok(best.y + best.height <= 844 + 200, 'the best line is near the first screen');
    const bar = await page.locator('#eval-bar').boundingBox();
    assert.ok(bar.x + bar.width <= board.x + 1 && bar.height > board.height * 0.8, 'the bar stands beside the board');
    assert.ok(board.x + board.width <= 390, 'the board fits the screen');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `teach-phone-${variant || 'muehle'}`);
  }
});

test('continue from here starts a game from the analysed position', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(`${suite.server.url}/analysis?position=${encodeURIComponent(MILL)}`);
  await page.click('#continue-kind-computer');
  await page.selectOption('#continue-level', '2');
  await page.check('#continue-color-white');
  await page.click('#continue-start');
  await page.waitForURL(/\/game\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const st = await getState(suite.server.url, id);
  assert.equal(st.kind, 'computer');
  assert.equal(st.start_position, MILL);
  assert.equal(st.position, MILL);
  assert.equal(st.players.black.type, 'computer');
  assert.equal(st.players.black.level, 2);
  await page.waitForSelector('#move-list');

  // Dame, at one screen.
  await page.goto(`${suite.server.url}/analysis?variant=dame&position=${encodeURIComponent(CAPTURE)}`);
  await page.click('#continue-kind-local');
  assert.equal(await page.locator('#continue-level').count(), 0, 'no level at one screen');
  await page.click('#continue-start');
  await page.waitForURL(/\/game\/\d+$/);
  const dame = await getState(suite.server.url, Number(new URL(page.url()).pathname.split('/').pop()));
  assert.equal(dame.kind, 'local');
  assert.equal(dame.game, 'dame');
  assert.equal(dame.start_position, CAPTURE);
});

test('the hint button draws the best move in a game against the computer; not with hints off nor online', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'muehle', kind: 'computer', level: 1, color: 'white' });
  assert.equal(await page.isChecked('#hints'), true, 'hints are on by default');
  await startGame(page);
  await page.waitForSelector('#hint-btn:not([disabled])');
  assert.match(await page.textContent('#hint-btn'), /Tipp/);
  await page.click('#hint-btn');
  await page.waitForSelector('svg.board .arrow-layer .arrow.hint');
  const [hint] = await arrows(page);
  assert.match(hint.path, /^[a-g][1-7]$/, 'a placement: a ring on its point');
  assert.equal(await page.locator('.arrow.hint .place').count(), 1);
  assert.equal(await page.textContent('#announce'), `Tipp: ${hint.move}`, 'the hint is said to screen readers');
  // Playing a move: the hint goes.
  await page.click(`[data-point=${hint.path}]`);
  await page.waitForFunction(() => document.querySelectorAll('.arrow-layer .arrow').length === 0);
  await shot(page, 'teach-hint');
  // At the end, the hints used.
  assert.equal(await page.isHidden('#hints-used'), true, 'no count while the game goes on');
  await page.click('#resign');
  await page.click('dialog .btn.primary');
  await page.waitForSelector('.status-line.over');
  assert.equal(await page.textContent('#hints-used'), '1 Tipp genutzt');
  assert.equal(await page.isHidden('#hint-btn'), true, 'no hints after the end');

  // Hints switched off on the home page: no button.
  await page.goto(suite.server.url);
  await fillNewGame(page, { game: 'muehle', kind: 'computer', level: 1, color: 'white' });
  await page.uncheck('#hints');
  await startGame(page);
  await page.waitForSelector('#move-list');
  await page.waitForSelector('#resign:not([hidden])');
  assert.equal(await page.isHidden('#hint-btn'), true, 'no hints when switched off');
  // And the home page remembers the choice.
  await page.goto(suite.server.url);
  await fillNewGame(page, { kind: 'computer' });
  assert.equal(await page.isChecked('#hints'), false);
  await page.check('#hints');

  // An online game: no hints.
  await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'online', color: 'white' });
  await page.waitForSelector('#move-list');
  assert.equal(await page.isHidden('#hint-btn'), true, 'no hints online');
});

test('a Dame hint follows the capture path', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  await openNewGame(page, suite.server.url, { game: 'dame', kind: 'computer', level: 1, color: 'white', position: CAPTURE });
  await page.waitForSelector('#hint-btn:not([disabled])');
  await page.click('#hint-btn');
  await page.waitForSelector('svg.board .arrow-layer .arrow.hint');
  const [hint] = await arrows(page);
  assert.equal(hint.path, 'c3 e5 g7');
  near(hint.tip, await centreOf(page, '[data-square=g7]'), 'the hint ends on g7');
});
