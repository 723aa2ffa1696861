// The pure client helper web/dame.js under node: squares, FEN, replay of
// move paths (captures, crowning, huffs), click input and the move generator
// of the analysis board (checked against the perft counts of docs/DAME.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as D from '../../web/dame.js';

test('squares: 8×8 algebraic and 10×10 numbers both ways', () => {
  assert.equal(D.squares(8).length, 32);
  assert.equal(D.squares(10).length, 50);
  assert.deepEqual(D.coords(8, 'a1'), { col: 0, row: 7 });
  assert.deepEqual(D.coords(8, 'h8'), { col: 7, row: 0 });
  assert.equal(D.squareAt(8, 0, 7), 'a1');
  assert.equal(D.squareAt(8, 1, 7), null);
  assert.deepEqual(D.coords(10, '1'), { col: 1, row: 0 });
  assert.deepEqual(D.coords(10, '46'), { col: 0, row: 9 });
  assert.deepEqual(D.coords(10, '50'), { col: 8, row: 9 });
  assert.deepEqual(D.coords(10, '5'), { col: 9, row: 0 });
  for (const size of [8, 10]) for (const sq of D.squares(size)) {
    const { col, row } = D.coords(size, sq);
    assert.equal(D.squareAt(size, col, row), sq);
  }
  assert.equal(D.normSquare(10, '07'), '7');
  assert.equal(D.normSquare(8, 'C3'), 'c3');
  assert.equal(D.normSquare(8, 'b1'), null);
});

test('FEN: parse and format, ranges, kings, fields', () => {
  const p10 = D.parseFen('W:W31-50:B1-20');
  assert.equal(p10.size, 10);
  assert.equal(Object.keys(p10.board).length, 40);
  assert.equal(D.formatFen(p10), 'W:W31-50:B1-20');
  const p8 = D.parseFen(D.START[8]);
  assert.equal(p8.size, 8);
  assert.equal(D.formatFen(p8), D.START[8]);
  assert.deepEqual(D.formatFen(D.startPosition(8)), D.START[8]);
  const k = D.parseFen('B:WK5,31-33:B1,K50:H12:F30');
  assert.deepEqual(k.board['5'], { color: 'white', king: true });
  assert.deepEqual(k.board['50'], { color: 'black', king: true });
  assert.equal(k.turn, 'black');
  assert.equal(k.kingMoves, 12);
  assert.equal(k.moveNo, 30);
  assert.equal(D.formatFen(k), 'B:WK5,31-33:B1,K50:H12:F30');
  assert.equal(D.parseFen('W:WKd4,a1:Bb8', 8).board.d4.king, true);
  assert.throws(() => D.parseFen('W:Wa2:Bb8', 8));
  assert.throws(() => D.parseFen('X:W1:B2'));
});

test('FEN: the ending counter E, and the FMJD king endings in replay (docs/DAME.md)', () => {
  const p = D.parseFen('B:WK46,K47,K48:BK3:H7:E12:F40');
  assert.equal(p.endingPlies, 12);
  assert.equal(D.formatFen(p), 'B:WK46,K47,K48:BK3:H7:E12:F40');
  assert.equal(D.parseFen('W:W31-50:B1-20').endingPlies, 0);
  assert.throws(() => D.parseFen('W:WK46:BK3:Ex'));
  const fmjd = D.PRESETS.international;
  assert.deepEqual([fmjd.one_king_each, fmjd.king_vs_three, fmjd.king_vs_two], [false, 32, 10]);
  assert.deepEqual([D.PRESETS.dame.one_king_each, D.PRESETS.dame.king_vs_three], [true, null]);
  assert.deepEqual(D.endingOf(p, fmjd), { kind: 'king-vs-three', limit: 32 });
  assert.equal(D.endingOf(p, D.PRESETS['dame-100']), null);
  assert.equal(D.endingOf(D.parseFen('W:W31,32,33:BK3'), fmjd), null);
  // The capture that makes the ending is not counted; each ply after it is.
  const list = D.positionsAlong('W:WK46,K47,K48:BK3,42', ['47x38', '3-9'], [], fmjd);
  assert.equal(D.formatFen(list[1]), 'B:WK38,K46,K48:BK3');
  assert.equal(D.formatFen(list[2]), 'W:WK38,K46,K48:BK9:H1:E1:F2');
  // Without rules the counter is not kept.
  assert.equal(D.positionsAlong('W:WK46,K47,K48:BK3:E5', ['48-43'])[1].endingPlies, 0);
  // 13 moves each of the 16-move ending, then the lone king takes a king:
  // the 3 moves each that were left remain (counter 5 of 10).
  const carry = D.applyMove(D.parseFen('B:WK46,K47,K14:BK3:E26'), '3x25', fmjd);
  assert.equal(D.formatFen(carry), 'W:WK46,K47:BK25:E5:F2');
});

test('replay: a multiple capture removes every jumped piece at the end, crowning', () => {
  const pos = D.parseFen('W:Wc3:Bd4,f6,b8', 8);
  const { pos: after, captured, crowned } = D.playMove(pos, 'c3xe5xg7');
  assert.deepEqual(captured, ['d4', 'f6']);
  assert.equal(crowned, false);
  assert.deepEqual(Object.keys(after.board).sort(), ['b8', 'g7']);
  assert.equal(after.turn, 'black');
  const crown = D.playMove(D.parseFen('W:Wc5:Bd6,a1', 8), 'c5xe7');
  // e7 is not the back row: no crown; a man reaching row 8 is crowned.
  assert.equal(crown.crowned, false);
  const c2 = D.playMove(D.parseFen('W:Wf6:Be7,a1', 8), 'f6xd8');
  assert.equal(c2.crowned, true);
  assert.deepEqual(c2.pos.board.d8, { color: 'white', king: true });
  // A flying king takes the single piece on the diagonal between landings.
  const kingPos = D.parseFen('W:WK46:B28,1', 10);
  const r = D.playMove(kingPos, '46x23');
  assert.deepEqual(r.captured, ['28']);
  // Black men are crowned on White's back row.
  const b = D.playMove(D.parseFen('B:W1:B42', 10), '42-47');
  assert.equal(b.pos.board['47'].king, true);
});

test('positions along moves and huffs', () => {
  const start = D.START[8];
  const list = D.positionsAlong(start, ['c3-d4', 'f6-e5', 'd4xf6'], [null, null, null]);
  assert.equal(list.length, 4);
  assert.equal(list[3].board.f6.color, 'white');
  assert.equal(list[3].board.e5, undefined);
  // Black skipped a capture; White huffs it before moving.
  const h = D.positionsAlong('W:Wc3,g3:Bd4', ['g3-h4'], ['d4']);
  assert.equal(h[1].board.d4, undefined);
  assert.equal(D.moveLabel('g3-h4', 'd4'), 'H d4 g3-h4');
  const hm = D.parseMove('He5 g3-h4', 8);
  assert.equal(hm.huff, 'e5');
  assert.deepEqual(hm.path, ['g3', 'h4']);
});

test('click input: unique destination, several paths, whole path wins', () => {
  // A king on a1 (8×8) with two ways that end on the same square but take different pieces.
  const pos = D.parseFen('W:WKa1,c1:Bb2,d4,f6,d2', 8);
  const texts = D.legalMoves(pos, D.PRESETS.dame);
  const moves = D.describeMoves(pos, texts);
  // Quiet move: one click on the destination is enough.
  const quiet = D.describeMoves(D.parseFen(D.START[8], 8), ['c3-d4', 'c3-b4']);
  assert.equal(D.matchClicks(quiet, { from: 'c3', clicks: ['d4'] }).chosen.text, 'c3-d4');
  assert.equal(D.matchClicks(quiet, { from: 'c3', clicks: [] }).next.size, 2);
  // Every legal capture is reachable by clicking its landing squares.
  for (const m of moves) {
    const r = D.matchClicks(moves, { from: m.from, clicks: m.landings });
    assert.equal(r.chosen && r.chosen.text, m.text, `${m.text} by its whole path`);
  }
  const two = D.describeMoves(D.parseFen('W:Wc3:Bd4,f6,b6,d6', 8), ['c3xe5xg7', 'c3xe5xc7']);
  const r1 = D.matchClicks(two, { from: 'c3', clicks: ['e5'] });
  assert.equal(r1.chosen, null);
  assert.deepEqual([...r1.next].sort(), ['c7', 'g7']);
  assert.deepEqual([...r1.common], ['d4']);
  assert.equal(D.matchClicks(two, { from: 'c3', clicks: ['g7'] }).chosen.text, 'c3xe5xg7');
  assert.equal(D.matchClicks(two, { from: 'c3', clicks: ['e5', 'c7'] }).chosen.text, 'c3xe5xc7');
  assert.deepEqual(D.chosenPath(two, { from: 'c3', clicks: ['e5'] }), ['c3', 'e5']);
});

function perft(pos, rules, d) {
  if (d === 0) return 1;
  const ms = D.legalMoves(pos, rules);
  if (d === 1) return ms.length;
  let n = 0;
  for (const m of ms) n += perft(D.applyMove(pos, m), rules, d - 1);
  return n;
}

test('move generator: perft from the start (docs/DAME.md)', () => {
  const want = { dame: [7, 49, 302, 1469], 'dame-fr': [7, 49, 302, 1469], 'dame-100': [9, 81, 658, 4265], international: [9, 81, 658, 4265] };
  for (const [g, counts] of Object.entries(want)) {
    const r = D.PRESETS[g];
    const pos = D.parseFen(D.START[r.board], r.board);
    counts.forEach((n, i) => assert.equal(perft(pos, r, i + 1), n, `${g} perft(${i + 1})`));
  }
  // Kings on both sides (crates/dame/tests/perft.txt).
  const k = D.parseFen('W:WKa1,Kh2,c3,e3,g3,b4:Bb6,d6,f6,Kd8,Kg7,a7', 8);
  assert.deepEqual([1, 2, 3].map((d) => perft(k, D.PRESETS.dame, d)), [9, 90, 562]);
  assert.deepEqual([1, 2, 3].map((d) => perft(k, D.PRESETS['dame-fr'], d)), [9, 90, 549]);
  // The Italian text's king (king_capture 'short': only a piece next to it).
  const short = { ...D.PRESETS.dame, king_capture: 'short' };
  assert.deepEqual([1, 2, 3, 4].map((d) => perft(k, short, d)), [9, 90, 628, 4898]);
  const k10 = D.parseFen('W:WK3,K26,K40,29,33,38,44:BK8,K46,12,17,18,23,24,35', 10);
  assert.deepEqual([1, 2, 3].map((d) => perft(k10, { ...D.PRESETS.international, king_capture: 'short' }, d)), [1, 14, 136]);
});

test('move generator: king_capture short (004 IT: "la dama deve trovarsi direttamente dietro")', () => {
  const short = { ...D.PRESETS.dame, king_capture: 'short' };
  const sorted = (pos, rules) => D.legalMoves(D.parseFen(pos, 8), rules).sort();
  // Two or more squares away: no capture; the flying king takes it.
  assert.deepEqual(sorted('W:WKa1:Bd4', D.PRESETS.dame), ['a1xe5']);
  assert.deepEqual(sorted('W:WKa1:Bd4', short), ['a1-b2', 'a1-c3']);
  // Next to it: captured, landing as king_landing says.
  assert.deepEqual(sorted('W:WKc3:Bd4,h6', short), ['c3xe5']);
  assert.deepEqual(sorted('W:WKc3:Bd4,h6', { ...short, king_landing: 'anywhere' }), ['c3xe5', 'c3xf6', 'c3xg7', 'c3xh8']);
  // Each jump starts next to its piece: the flying second jump is cut.
  assert.deepEqual(sorted('W:WKa1:Bb2,d4,g7', D.PRESETS.dame), ['a1xc3xe5xh8']);
  assert.deepEqual(sorted('W:WKa1:Bb2,d4,g7', short), ['a1xc3xe5']);
  assert.deepEqual(sorted('W:WKa1:Bb2,f4,h8', { ...short, king_landing: 'anywhere' }), ['a1xe5xg3', 'a1xe5xh2']);
});
