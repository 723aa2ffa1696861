// Mühle boards, position strings and moves — the client-side helper the
// views use to draw positions of the past (replay), to set up positions for
// analysis and to follow engine lines. The boards (their lines, stones and
// when a side flies) are the catalogue's (catalogue.js); the functions that
// need one take the rule options (`board`, `flying`, `removal`,
// `move_in_placing`). The server stays the judge of legality in games;
// `legalMoves` here serves the analysis board.

import { boardGeometry } from './catalogue.js';

/** The 24 points in position-string order (rows from the top). */
export const POINTS = [
  'a7', 'd7', 'g7',
  'b6', 'd6', 'f6',
  'c5', 'd5', 'e5',
  'a4', 'b4', 'c4', 'e4', 'f4', 'g4',
  'c3', 'd3', 'e3',
  'b2', 'd2', 'f2',
  'a1', 'd1', 'g1',
];
export const ROWS = [3, 3, 3, 6, 3, 3, 3];

/** File 0..6 and rank 0..6 of a point. */
export function coords(p) {
  return { x: p.charCodeAt(0) - 97, y: p.charCodeAt(1) - 49 };
}

/**
 * The standard board read off the notation, for this module outside the app
 * (without the server's catalogue, e.g. under node): the points of a row or
 * a column of the grid, three at a time in order, make a line, and the
 * middle row and column are two lines each, one on either side of the
 * centre. Nine stones a side, flying with three.
 */
function standardDescription() {
  const points = POINTS.map((name) => ({ name, x: coords(name).x, y: 6 - coords(name).y }));
  const lines = [];
  for (const [key, along] of [['y', 'x'], ['x', 'y']]) {
    for (let k = 0; k < 7; k++) {
      const on = points.filter((p) => p[key] === k).sort((a, b) => a[along] - b[along]).map((p) => p.name);
      for (let i = 0; i + 3 <= on.length; i += 3) lines.push(on.slice(i, i + 3));
    }
  }
  return { points, lines, stones: 9, fly_at: 3 };
}

/** Each description's board (what follows from its lines), made once. */
const derived = new WeakMap();
let standard = null;

/**
 * The board of `rules` (rule options with `board`, a board's name, or
 * nothing: the standard board "nine") as the catalogue describes it
 * (catalogue.js, boardGeometry), with what follows from its lines:
 * {name, points: [{name, x, y}], lines: [[a, b, c]], stones, flyAt,
 * neighbours: {point: [point]}, linesAt: {point: [line]}}.
 */
export function geometryOf(rules = null) {
  const name = (typeof rules === 'string' ? rules : rules?.board) || 'nine';
  let desc = boardGeometry(name);
  if (!desc && name === 'nine') desc = standard || (standard = standardDescription());
  if (!desc) throw new Error(`unknown board ${name}`);
  let g = derived.get(desc);
  if (!g) {
    const neighbours = Object.fromEntries(desc.points.map((p) => [p.name, []]));
    const linesAt = Object.fromEntries(desc.points.map((p) => [p.name, []]));
    for (const line of desc.lines) {
      const [a, b, c] = line;
      neighbours[a].push(b); neighbours[b].push(a, c); neighbours[c].push(b);
      for (const p of line) linesAt[p].push(line);
    }
    g = { name, points: desc.points, lines: desc.lines, stones: desc.stones, flyAt: desc.fly_at, neighbours, linesAt };
    derived.set(desc, g);
  }
  return g;
}

/** The start position of `rules` as a string: an empty board, the board's stones in each hand. */
export function startPosition(rules = null) {
  const n = geometryOf(rules).stones;
  return `.../.../.../....../.../.../... w ${n} ${n} 0 1`;
}

export const other = (c) => (c === 'white' ? 'black' : 'white');

/**
 * An error of a position text with its detail ({code, params}: the codes
 * the server sends, docs/API.md "Error details") for the page to word.
 */
export function positionError(message, code, params = {}) {
  const e = new Error(message);
  e.detail = { code, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) };
  return e;
}

/** The counters of a position string, in order. */
const COUNTERS = ['white_in_hand', 'black_in_hand', 'plies_since_mill', 'move_number'];

/**
 * Parses a position string into
 * {board: {point: 'white'|'black'}, turn, hand: {white, black}, sinceMill, moveNo}.
 * Throws on malformed input (the server judges whether it can occur in a
 * game); the error's `detail` says what is wrong.
 */
export function parsePosition(s) {
  const parts = String(s).trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 6) throw positionError('position: six fields expected', 'position.field_count', { found: parts.length });
  const rows = parts[0].split('/');
  if (rows.length !== 7) throw positionError('position: seven rows expected', 'position.row_count', { found: rows.length });
  const board = {};
  let i = 0;
  rows.forEach((row, r) => {
    if (row.length !== ROWS[r]) {
      throw positionError(`position: row ${r + 1} needs ${ROWS[r]} points`, 'position.row_length', { row: r + 1, expected: ROWS[r], found: row.length });
    }
    for (const ch of row) {
      const p = POINTS[i++];
      if (ch === 'W') board[p] = 'white';
      else if (ch === 'B') board[p] = 'black';
      else if (ch !== '.') throw positionError(`position: unexpected “${ch}”`, 'position.bad_point', { found: ch });
    }
  });
  if (parts[1] !== 'w' && parts[1] !== 'b') throw positionError('position: side must be w or b', 'position.bad_side', { found: parts[1] });
  const nums = parts.slice(2).map((x, k) => {
    if (!/^\d+$/.test(x)) throw positionError('position: numbers expected', 'position.bad_number', { field: COUNTERS[k], found: x });
    return Number(x);
  });
  return {
    board,
    turn: parts[1] === 'w' ? 'white' : 'black',
    hand: { white: nums[0], black: nums[1] },
    sinceMill: nums[2],
    moveNo: Math.max(1, nums[3]),
  };
}

export function formatPosition(pos) {
  const rows = [];
  let i = 0;
  for (const len of ROWS) {
    let row = '';
    for (let k = 0; k < len; k++) {
      const c = pos.board[POINTS[i++]];
      row += c === 'white' ? 'W' : c === 'black' ? 'B' : '.';
    }
    rows.push(row);
  }
  return `${rows.join('/')} ${pos.turn === 'white' ? 'w' : 'b'} ${pos.hand.white} ${pos.hand.black} ${pos.sinceMill} ${pos.moveNo}`;
}

export function clonePosition(pos) {
  return { ...pos, board: { ...pos.board }, hand: { ...pos.hand } };
}

const POINT_RE = /^[a-g][1-7]$/;
export const isPoint = (p) => POINT_RE.test(p) && POINTS.includes(p);

/**
 * Splits a move in notation into {from, to, remove} (from and remove may be null).
 * Accepts `d6`, `g7-g4`, `d6xb4`, `d6 xb4`, `f2-f4xd5`; returns null if malformed.
 */
export function parseMove(text) {
  const m = String(text).trim().toLowerCase().replace(/\s+/g, '')
    .match(/^(?:([a-g][1-7])[-–])?([a-g][1-7])(?:x([a-g][1-7]))?$/);
  if (!m) return null;
  const [, from = null, to, remove = null] = m;
  if (!isPoint(to) || (from && !isPoint(from)) || (remove && !isPoint(remove))) return null;
  return { from, to, remove };
}

export function formatMove({ from, to, remove }) {
  return `${from ? `${from}-` : ''}${to}${remove ? `x${remove}` : ''}`;
}

/** Whether the stone on `p` stands in a mill of the board of `rules`. */
export function inMill(board, p, rules = null) {
  const c = board[p];
  if (!c) return false;
  return geometryOf(rules).linesAt[p].some((m) => m.every((q) => board[q] === c));
}

export const onBoard = (pos, c) => Object.values(pos.board).filter((x) => x === c).length;

/** The phase of side `c`: placing (stones in hand), flying (at the board's count, flying on) or moving. */
export function phaseOf(pos, c, rules = {}) {
  if (pos.hand[c] > 0) return 'placing';
  if (rules.flying !== false && onBoard(pos, c) === geometryOf(rules).flyAt) return 'flying';
  return 'moving';
}

/**
 * Plays a move without checking it (it comes from the server or the engine).
 * Returns the new position.
 */
export function applyMove(pos, mv, rules = null) {
  const m = typeof mv === 'string' ? parseMove(mv) : mv;
  if (!m) throw new Error(`bad move ${mv}`);
  const next = clonePosition(pos);
  const side = pos.turn;
  if (m.from) {
    delete next.board[m.from];
    next.board[m.to] = side;
  } else {
    next.board[m.to] = side;
    next.hand[side] = Math.max(0, next.hand[side] - 1);
  }
  const closes = inMill(next.board, m.to, rules);
  if (m.remove) delete next.board[m.remove];
  next.sinceMill = m.from && !closes ? pos.sinceMill + 1 : 0;
  next.turn = other(side);
  if (side === 'black') next.moveNo = pos.moveNo + 1;
  return next;
}

/**
 * Legal moves of the side to move, in notation (a mill move once per removable
 * stone). `rules`: {removal: 'tournament'|'strict', flying: bool, board,
 * move_in_placing: bool} — with move_in_placing a side with stones in hand
 * may also slide a stone along a line.
 */
export function legalMoves(pos, rules = {}) {
  const geo = geometryOf(rules);
  const removal = rules.removal || 'tournament';
  const side = pos.turn;
  const opp = other(side);
  if (pos.hand.white + onBoard(pos, 'white') < 3 || pos.hand.black + onBoard(pos, 'black') < 3) return [];
  const empty = POINTS.filter((p) => !pos.board[p]);
  const own = POINTS.filter((p) => pos.board[p] === side);
  const phase = phaseOf(pos, side, rules);
  const pairs = [];
  if (phase === 'placing') for (const to of empty) pairs.push([null, to]);
  if (phase !== 'placing' || rules.move_in_placing) {
    for (const from of own) {
      const targets = phase === 'flying' ? empty : geo.neighbours[from].filter((q) => !pos.board[q]);
      for (const to of targets) pairs.push([from, to]);
    }
  }
  const oppFlying = phaseOf(pos, opp, rules) === 'flying';
  const out = [];
  for (const [from, to] of pairs) {
    const board = { ...pos.board };
    if (from) delete board[from];
    board[to] = side;
    if (!inMill(board, to, rules)) {
      out.push(formatMove({ from, to }));
      continue;
    }
    const theirs = POINTS.filter((p) => board[p] === opp);
    let removable = theirs.filter((p) => !inMill(board, p, rules));
    if (removal === 'strict') {
      if (oppFlying) removable = theirs;
    } else if (removable.length === 0) {
      removable = theirs;
    }
    if (removable.length === 0) out.push(formatMove({ from, to }));
    for (const r of removable) out.push(formatMove({ from, to, remove: r }));
  }
  return out;
}

/** Positions after each move: result[i] is the position after i moves. */
export function positionsAlong(start, moves, rules = null) {
  const list = [typeof start === 'string' ? parsePosition(start) : start];
  for (const mv of moves) list.push(applyMove(list[list.length - 1], mv, rules));
  return list;
}

/** Stones removed from each side (the board's stones minus those on the board and in hand). */
export function removedCount(pos, rules = null) {
  const n = geometryOf(rules).stones;
  return {
    white: Math.max(0, n - pos.hand.white - onBoard(pos, 'white')),
    black: Math.max(0, n - pos.hand.black - onBoard(pos, 'black')),
  };
}
