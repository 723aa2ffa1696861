// Mühle geometry, position strings and moves — the client-side helper the
// views use to draw positions of the past (replay), to set up positions for
// analysis and to follow engine lines. The server stays the judge of legality
// in games; `legalMoves` here serves the analysis board.

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

/** The 16 mills. */
export const MILLS = [
  ['a7', 'd7', 'g7'], ['b6', 'd6', 'f6'], ['c5', 'd5', 'e5'], ['a4', 'b4', 'c4'],
  ['e4', 'f4', 'g4'], ['c3', 'd3', 'e3'], ['b2', 'd2', 'f2'], ['a1', 'd1', 'g1'],
  ['a1', 'a4', 'a7'], ['b2', 'b4', 'b6'], ['c3', 'c4', 'c5'], ['d1', 'd2', 'd3'],
  ['d5', 'd6', 'd7'], ['e3', 'e4', 'e5'], ['f2', 'f4', 'f6'], ['g1', 'g4', 'g7'],
];

/** File 0..6 and rank 0..6 of a point. */
export function coords(p) {
  return { x: p.charCodeAt(0) - 97, y: p.charCodeAt(1) - 49 };
}

export const NEIGHBOURS = (() => {
  const n = Object.fromEntries(POINTS.map((p) => [p, []]));
  for (const [a, b, c] of MILLS) {
    n[a].push(b); n[b].push(a, c); n[c].push(b);
  }
  return n;
})();

export const START = '.../.../.../....../.../.../... w 9 9 0 1';

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

export function inMill(board, p) {
  const c = board[p];
  if (!c) return false;
  return MILLS.some((m) => m.includes(p) && m.every((q) => board[q] === c));
}

export const onBoard = (pos, c) => Object.values(pos.board).filter((x) => x === c).length;

export function phaseOf(pos, c, flying = true) {
  if (pos.hand[c] > 0) return 'placing';
  if (flying && onBoard(pos, c) === 3) return 'flying';
  return 'moving';
}

/**
 * Plays a move without checking it (it comes from the server or the engine).
 * Returns the new position.
 */
export function applyMove(pos, mv) {
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
  const closes = inMill(next.board, m.to);
  if (m.remove) delete next.board[m.remove];
  next.sinceMill = m.from && !closes ? pos.sinceMill + 1 : 0;
  next.turn = other(side);
  if (side === 'black') next.moveNo = pos.moveNo + 1;
  return next;
}

/**
 * Legal moves of the side to move, in notation (a mill move once per removable
 * stone). `rules`: {removal: 'tournament'|'strict', flying: bool}.
 */
export function legalMoves(pos, rules = {}) {
  const removal = rules.removal || 'tournament';
  const flying = rules.flying !== false;
  const side = pos.turn;
  const opp = other(side);
  if (pos.hand.white + onBoard(pos, 'white') < 3 || pos.hand.black + onBoard(pos, 'black') < 3) return [];
  const empty = POINTS.filter((p) => !pos.board[p]);
  const pairs = [];
  if (pos.hand[side] > 0) {
    for (const to of empty) pairs.push([null, to]);
  } else {
    const own = POINTS.filter((p) => pos.board[p] === side);
    const fly = flying && own.length === 3;
    for (const from of own) {
      const targets = fly ? empty : NEIGHBOURS[from].filter((q) => !pos.board[q]);
      for (const to of targets) pairs.push([from, to]);
    }
  }
  const oppFlying = flying && pos.hand[opp] === 0 && onBoard(pos, opp) === 3;
  const out = [];
  for (const [from, to] of pairs) {
    const board = { ...pos.board };
    if (from) delete board[from];
    board[to] = side;
    if (!inMill(board, to)) {
      out.push(formatMove({ from, to }));
      continue;
    }
    const theirs = POINTS.filter((p) => board[p] === opp);
    let removable = theirs.filter((p) => !inMill(board, p));
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
export function positionsAlong(start, moves) {
  const list = [typeof start === 'string' ? parsePosition(start) : start];
  for (const mv of moves) list.push(applyMove(list[list.length - 1], mv));
  return list;
}

/** Stones removed from each side (nine minus stones on board and in hand). */
export function removedCount(pos) {
  return {
    white: Math.max(0, 9 - pos.hand.white - onBoard(pos, 'white')),
    black: Math.max(0, 9 - pos.hand.black - onBoard(pos, 'black')),
  };
}
