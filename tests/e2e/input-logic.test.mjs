// The move input shared by the game (web/games/), the analysis boards and
// the puzzles under node: web/millinput.js (Mühle) and web/dameinput.js
// (Dame) turn clicks into moves and tell the board what to mark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../../web/muehle.js';
import * as D from '../../web/dame.js';
import * as MI from '../../web/millinput.js';
import * as DI from '../../web/dameinput.js';

/** A view as millinput.js needs it, with the moves of `pos` and what was played. */
function millView(pos, opts = {}) {
  const v = {
    pos, selected: null, pendingMill: null, updates: 0, played: [], choices: 0,
    legal: () => M.legalMoves(v.pos).map((text) => ({ text, ...M.parseMove(text) })),
    update: () => { v.updates += 1; },
    submit: (text) => v.played.push(text),
    click: (p) => MI.clickPoint(v, p, v.submit, opts),
    choose: (from, to) => MI.choose(v, from, to, v.submit, () => { v.choices += 1; }),
  };
  return v;
}

// White has a7 and d7 and places a stone: g7 closes a mill (b2 or f2 to remove).
const MILL = 'WW./.../.../....../.../B.B/... w 7 8 0 3';

test('Mühle: a placement is one click, a mill waits for the stone to remove', () => {
  const v = millView(M.parsePosition(MILL));
  v.click('d6');
  assert.deepEqual(v.played, ['d6']);
  v.choose(null, 'g7');
  assert.deepEqual(v.pendingMill, { from: null, to: 'g7', removable: new Set(['b2', 'f2']) });
  assert.equal(v.choices, 1);
  const marks = MI.inputMarks(v.pos, v.legal(), v.selected, v.pendingMill);
  assert.equal(marks.board.g7, 'white');
  assert.equal(marks.selected, 'g7');
  assert.deepEqual(marks.removable, new Set(['b2', 'f2']));
  v.click('f2');
  assert.deepEqual(v.played, ['d6', 'g7xf2']);
  assert.equal(v.pendingMill, null);
});

test('Mühle: a click elsewhere during the choice drops it (analysis) or counts on its own (game)', () => {
  const analysis = millView(M.parsePosition(MILL));
  analysis.choose(null, 'g7');
  analysis.click('d6');
  assert.equal(analysis.pendingMill, null);
  assert.deepEqual(analysis.played, []);
  const game = millView(M.parsePosition(MILL), { reselect: true });
  game.choose(null, 'g7');
  game.click('d6');
  assert.equal(game.pendingMill, null);
  assert.deepEqual(game.played, ['d6']);
  // A click on the stone just placed only drops the choice.
  game.choose(null, 'g7');
  game.click('g7');
  assert.equal(game.pendingMill, null);
  assert.deepEqual(game.played, ['d6']);
});

test('Mühle: a move is its stone and its point; the marks follow the selection', () => {
  // Four white stones (no flying) and three black ones, none in hand.
  const v = millView(M.parsePosition('W.W/.../.../..B.../..W/B.B/.W. w 0 0 0 20'));
  let marks = MI.inputMarks(v.pos, v.legal(), v.selected, v.pendingMill);
  assert.deepEqual(marks.movable, new Set(['a7', 'g7', 'e3', 'd1']));
  assert.deepEqual(marks.targets, new Set());
  v.click('a7');
  assert.equal(v.selected, 'a7');
  marks = MI.inputMarks(v.pos, v.legal(), v.selected, v.pendingMill);
  assert.deepEqual(marks.targets, new Set(['d7', 'a4']));
  v.click('a7');
  assert.equal(v.selected, null);
  v.click('g7');
  v.click('g4');
  assert.deepEqual(v.played, ['g7-g4']);
  // Dragging: only the side to move's stones with a move, while play is on.
  let on = true;
  const handlers = MI.boardHandlers(v, () => on);
  assert.equal(handlers.canDrag('a7'), true);
  assert.equal(handlers.canDrag('b2'), false);
  on = false;
  assert.equal(handlers.canDrag('a7'), false);
});

/** A view as dameinput.js needs it, on an 8×8 board. */
function dameView(fen) {
  const v = {
    pos: D.parseFen(fen, 8), dsel: null, updates: 0, played: [],
    legal: () => D.describeMoves(v.pos, D.legalMoves(v.pos, D.PRESETS.dame)),
    update: () => { v.updates += 1; },
    submit: (text) => v.played.push(text),
  };
  v.onSquare = (sq, opts = {}) => DI.clickSquare(v, sq, v.submit, opts);
  return v;
}

test('Dame: a move is its piece and its landing square; the marks follow the selection', () => {
  const v = dameView(D.START[8]);
  let marks = DI.inputMarks(v.legal(), v.dsel);
  assert.deepEqual(marks.movable, new Set(['a3', 'c3', 'e3', 'g3']));
  v.onSquare('c3');
  assert.deepEqual(v.dsel, { from: 'c3', clicks: [] });
  marks = DI.inputMarks(v.legal(), v.dsel);
  assert.equal(marks.selected, 'c3');
  assert.deepEqual(marks.targets, new Set(['b4', 'd4']));
  v.onSquare('c3');
  assert.equal(v.dsel, null);
  v.onSquare('c3');
  v.onSquare('d4');
  assert.deepEqual(v.played, ['c3-d4']);
  // A drag to a square the piece cannot reach drops the selection.
  const handlers = DI.boardHandlers(v, () => true);
  assert.equal(handlers.canDrag('e3'), true);
  assert.equal(handlers.canDrag('b6'), false);
  handlers.onDrag('e3', 'e5');
  assert.equal(v.dsel, null);
  assert.deepEqual(v.played, ['c3-d4']);
});

test('Dame: a compulsory capture, a huff', () => {
  const v = dameView('W:Wa1,c3:Bd4,h8');
  let told = 0;
  v.onSquare('a1', { onMustCapture: () => { told += 1; } });
  assert.equal(told, 1);
  assert.equal(v.dsel, null);
  v.onSquare('c3');
  const marks = DI.inputMarks(v.legal(), v.dsel);
  assert.deepEqual(marks.targets, new Set(['e5']));
  v.onSquare('e5');
  assert.deepEqual(v.played, ['c3xe5']);
  const huffed = [];
  v.dsel = { from: 'c3', clicks: [] };
  v.onSquare('d4', { huffable: new Set(['d4']), huff: (sq) => huffed.push(sq) });
  assert.deepEqual(huffed, ['d4']);
  assert.equal(v.dsel, null);
});
