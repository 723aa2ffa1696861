// Dame (draughts) geometry, FEN, moves and replay — the client-side helper
// of the Dame views. The server judges legality in games; this module draws
// positions of the past (replay), follows engine lines, turns clicks into
// moves of the state's `legal_moves`, and generates moves for the analysis
// board (docs/DAME.md). It has no DOM and no i18n, so node can test it.

import { boardOf } from './catalogue.js';

// The leaflet's draws (one king each at once; no move limits for the king
// endings) and FMJD's (no immediate draw for one king each; a lone king
// against three pieces drawn after 32 plies, against one or two after 10).
const LEAFLET_DRAWS = { one_king_each: true, king_vs_three: null, king_vs_two: null };
const FMJD_DRAWS = { one_king_each: false, king_vs_three: 32, king_vs_two: 10 };

/** The rule presets of docs/DAME.md. */
export const PRESETS = {
  dame: { board: 8, men_capture_backward: false, majority: false, king_landing: 'behind', king_capture: 'long', promotion: 'immediate', huffing: false, king_moves: 50, repetition: 3, ...LEAFLET_DRAWS },
  'dame-100': { board: 10, men_capture_backward: false, majority: false, king_landing: 'behind', king_capture: 'long', promotion: 'immediate', huffing: false, king_moves: 50, repetition: 3, ...LEAFLET_DRAWS },
  'dame-fr': { board: 8, men_capture_backward: true, majority: false, king_landing: 'behind', king_capture: 'long', promotion: 'immediate', huffing: false, king_moves: 50, repetition: 3, ...LEAFLET_DRAWS },
  international: { board: 10, men_capture_backward: true, majority: true, king_landing: 'anywhere', king_capture: 'long', promotion: 'end-of-move', huffing: false, king_moves: 50, repetition: 3, ...FMJD_DRAWS },
};

/** The board size of Dame game `game` (8 or 10), as the catalogue says. */
export const boardSizeOf = (game) => boardOf(game) || 8;

export const other = (c) => (c === 'white' ? 'black' : 'white');

// ------------------------------------------------------------------ squares

/** Column (0 = left) and row (0 = top) of a square, as White sees the board. */
export function coords(size, sq) {
  if (size === 8) {
    const f = sq.charCodeAt(0) - 97;
    const r = Number(sq.slice(1));
    return { col: f, row: 8 - r };
  }
  const n = Number(sq);
  const row = Math.floor((n - 1) / 5);
  const k = (n - 1) % 5;
  return { col: row % 2 === 0 ? 2 * k + 1 : 2 * k, row };
}

/** The name of the dark square at (col, row), or null (light or off the board). */
export function squareAt(size, col, row) {
  if (col < 0 || row < 0 || col >= size || row >= size) return null;
  if (size === 8) {
    const rank = 8 - row;
    if ((col + rank - 1) % 2 !== 0) return null;
    return `${String.fromCharCode(97 + col)}${rank}`;
  }
  const dark = row % 2 === 0 ? col % 2 === 1 : col % 2 === 0;
  if (!dark) return null;
  return String(row * 5 + Math.floor(col / 2) + 1);
}

const SQUARES = {};
/** The dark squares in notation order (8×8: by rank from 1, then file; 10×10: 1–50). */
export function squares(size) {
  if (SQUARES[size]) return SQUARES[size];
  const out = [];
  if (size === 8) {
    for (let rank = 1; rank <= 8; rank++) {
      for (let f = 0; f < 8; f++) {
        const sq = squareAt(8, f, 8 - rank);
        if (sq) out.push(sq);
      }
    }
  } else {
    for (let n = 1; n <= 50; n++) out.push(String(n));
  }
  SQUARES[size] = out;
  return out;
}

export function isSquare(size, sq) {
  if (typeof sq !== 'string') return false;
  if (size === 8) return /^[a-h][1-8]$/.test(sq) && squareAt(8, ...Object.values(coords(8, sq))) === sq;
  return /^[1-9]\d?$/.test(sq) && Number(sq) >= 1 && Number(sq) <= 50;
}

/** Normalises a typed square: "C3" → "c3", "07" → "7"; null if it is none. */
export function normSquare(size, text) {
  const t = String(text).trim().toLowerCase();
  const sq = size === 10 && /^\d+$/.test(t) ? String(Number(t)) : t;
  return isSquare(size, sq) ? sq : null;
}

/** The row where a man of colour c is crowned (0 = top). */
export const crownRow = (size, c) => (c === 'white' ? 0 : size - 1);

/** Forward row direction of colour c (White moves up). */
export const forward = (c) => (c === 'white' ? -1 : 1);

// ------------------------------------------------------------------ FEN

function emptyPos(size) {
  return { size, turn: 'white', board: {}, kingMoves: 0, endingPlies: 0, moveNo: 1 };
}

/**
 * An error of a FEN with its detail ({code, params}: the codes the server
 * sends, docs/API.md "Error details") for the page to word.
 */
function fenError(message, code, params = {}) {
  const e = new Error(message);
  e.detail = { code, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) };
  return e;
}

/**
 * Parses a Dame FEN (`W:W31-50:B1-20`, `B:Wa1,Kd4:Bb8:H3:E2:F12`) into
 * {size, turn, board: {square: {color, king}}, kingMoves, endingPlies, moveNo}.
 * endingPlies (field E) counts the plies of a king ending with a move limit
 * (see endingOf).
 * size: 8 or 10; without it algebraic squares mean 8×8 and numbers 10×10.
 * Throws on malformed input; the error's `detail` says what is wrong.
 */
export function parseFen(text, size = null) {
  const raw = String(text || '').trim().replace(/\.$/, '');
  if (!raw) throw fenError('FEN: empty', 'fen.empty');
  const parts = raw.split(':').map((x) => x.trim());
  const side = parts[0].toUpperCase();
  if (side !== 'W' && side !== 'B') throw fenError('FEN: the side to move must be W or B', 'fen.bad_side', { found: parts[0] });
  if (parts.length < 3) {
    const white = parts.slice(1).some((f) => /^W/i.test(f));
    throw fenError('FEN: side, white and black pieces expected', 'fen.missing_color', { color: white ? 'black' : 'white' });
  }
  if (!size) {
    const items = parts.slice(1).filter((f) => /^[WB]/i.test(f)).map((f) => f.slice(1).replace(/K/gi, '')).join(',');
    size = /[a-h]/i.test(items) ? 8 : 10;
  }
  const pos = emptyPos(size);
  pos.turn = side === 'W' ? 'white' : 'black';
  const seen = new Set();
  for (const field of parts.slice(1)) {
    if (!field) continue;
    const head = field[0].toUpperCase();
    if (head === 'W' || head === 'B') {
      const color = head === 'W' ? 'white' : 'black';
      if (seen.has(color)) throw fenError('FEN: a colour appears twice', 'fen.duplicate_color', { color });
      seen.add(color);
      const body = field.slice(1).trim();
      if (!body) continue;
      for (let item of body.split(',')) {
        item = item.trim();
        if (!item) continue;
        let king = false;
        if (/^k/i.test(item)) { king = true; item = item.slice(1); }
        const range = item.match(/^(\d+)-(\d+)$/);
        const list = [];
        if (range && size === 10) {
          const a = Number(range[1]);
          const b = Number(range[2]);
          if (a > b) throw fenError(`FEN: bad range ${item}`, 'fen.not_on_10x10', { item });
          for (let n = a; n <= b; n++) list.push(String(n));
        } else {
          const sq = normSquare(size, item);
          if (!sq) {
            const code = range ? 'fen.bad_range' : size === 8 ? 'fen.not_on_8x8' : 'fen.not_on_10x10';
            throw fenError(`FEN: “${item}” is not a square of the ${size}×${size} board`, code, { item });
          }
          list.push(sq);
        }
        for (const sq of list) {
          if (!isSquare(size, sq)) throw fenError(`FEN: “${sq}” is not a square`, size === 8 ? 'fen.not_on_8x8' : 'fen.not_on_10x10', { item: sq });
          if (pos.board[sq]) throw fenError(`FEN: two pieces on ${sq}`, 'position.overlap', { square: sq });
          pos.board[sq] = { color, king };
        }
      }
    } else if (head === 'H' && /^H\d+$/i.test(field)) {
      pos.kingMoves = Number(field.slice(1));
    } else if (head === 'E' && /^E\d+$/i.test(field)) {
      pos.endingPlies = Number(field.slice(1));
    } else if (head === 'F' && /^F\d+$/i.test(field)) {
      pos.moveNo = Math.max(1, Number(field.slice(1)));
    } else {
      throw fenError(`FEN: unexpected field “${field}”`, /^[HEF]/i.test(field) ? 'fen.bad_number' : 'fen.bad_field',
        /^[HEF]/i.test(field) ? { field: field[0].toUpperCase(), found: field.slice(1) } : { field });
    }
  }
  return pos;
}

function listFor(pos, color) {
  const sqs = squares(pos.size).filter((sq) => pos.board[sq] && pos.board[sq].color === color);
  const out = [];
  if (pos.size === 8) {
    for (const sq of sqs) out.push(pos.board[sq].king ? `K${sq}` : sq);
    return out;
  }
  // Runs of three or more men as ranges.
  let i = 0;
  while (i < sqs.length) {
    const sq = sqs[i];
    if (pos.board[sq].king) { out.push(`K${sq}`); i++; continue; }
    let j = i;
    while (j + 1 < sqs.length && !pos.board[sqs[j + 1]].king && Number(sqs[j + 1]) === Number(sqs[j]) + 1) j++;
    if (j - i >= 2) { out.push(`${sq}-${sqs[j]}`); i = j + 1; } else { out.push(sq); i++; }
  }
  return out;
}

export function formatFen(pos) {
  let text = `${pos.turn === 'white' ? 'W' : 'B'}:W${listFor(pos, 'white').join(',')}:B${listFor(pos, 'black').join(',')}`;
  if (pos.kingMoves) text += `:H${pos.kingMoves}`;
  if (pos.endingPlies) text += `:E${pos.endingPlies}`;
  if (pos.moveNo && pos.moveNo !== 1) text += `:F${pos.moveNo}`;
  return text;
}

export function startPosition(size) {
  const pos = emptyPos(size);
  const n = size === 8 ? 12 : 20;
  const sqs = squares(size);
  for (const sq of sqs) {
    const { row } = coords(size, sq);
    if (row >= size - (size === 8 ? 3 : 4)) pos.board[sq] = { color: 'white', king: false };
    else if (row < (size === 8 ? 3 : 4)) pos.board[sq] = { color: 'black', king: false };
  }
  if (Object.keys(pos.board).length !== 2 * n) throw new Error('start position');
  return pos;
}

export const START = { 8: 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8', 10: 'W:W31-50:B1-20' };

export function clonePosition(pos) {
  const board = {};
  for (const [sq, p] of Object.entries(pos.board)) board[sq] = { ...p };
  return { ...pos, board };
}

/** Men and kings of each colour: {white: {men, kings}, black: {…}}. */
export function pieceCounts(pos) {
  const out = { white: { men: 0, kings: 0 }, black: { men: 0, kings: 0 } };
  for (const p of Object.values(pos.board)) out[p.color][p.king ? 'kings' : 'men'] += 1;
  return out;
}

/** Pieces each colour has lost against the usual start (12 or 20 a side). */
export function lostCount(pos, startPos = null) {
  const full = startPos ? pieceCounts(startPos) : null;
  const now = pieceCounts(pos);
  const base = (c) => (full ? full[c].men + full[c].kings : (pos.size === 8 ? 12 : 20));
  return {
    white: Math.max(0, base('white') - now.white.men - now.white.kings),
    black: Math.max(0, base('black') - now.black.men - now.black.kings),
  };
}

// ------------------------------------------------------------------ moves

/**
 * Splits a move text into {path: [squares], capture, huff}. Accepts `c3-d4`,
 * `c3xe5xg7`, `28x19x10`, `28:19`, upper case, and a leading huff `He5 g3-h4`.
 * Returns null when malformed.
 */
export function parseMove(text, size) {
  let t = String(text || '').trim();
  let huff = null;
  const hm = t.match(/^h\s*([a-h]?\d+)\s+(.*)$/i);
  if (hm) {
    huff = normSquare(size, hm[1]);
    if (!huff) return null;
    t = hm[2].trim();
  }
  const capture = /[x:×]/i.test(t);
  const parts = t.split(capture ? /\s*[x:×]\s*/i : /\s*[-–]\s*/);
  if (parts.length < 2 || (!capture && parts.length !== 2)) return null;
  const path = parts.map((p) => normSquare(size, p));
  if (path.some((p) => !p)) return null;
  return { path, capture, huff };
}

export function formatMove(path, capture) {
  return path.join(capture ? 'x' : '-');
}

/** The squares strictly between a and b on one diagonal, or null if not on one. */
export function between(size, a, b) {
  const p = coords(size, a);
  const q = coords(size, b);
  const dc = q.col - p.col;
  const dr = q.row - p.row;
  if (dc === 0 || Math.abs(dc) !== Math.abs(dr)) return null;
  const sc = Math.sign(dc);
  const sr = Math.sign(dr);
  const out = [];
  for (let i = 1; i < Math.abs(dc); i++) out.push(squareAt(size, p.col + i * sc, p.row + i * sr));
  return out;
}

/**
 * The pieces a move takes: for each jump of the path, the opponent piece on
 * the diagonal between the two landing squares. Returns the squares in order.
 */
export function capturedBy(pos, path, color = null) {
  const mover = color || (pos.board[path[0]] && pos.board[path[0]].color) || pos.turn;
  const out = [];
  for (let i = 0; i + 1 < path.length; i++) {
    const sqs = between(pos.size, path[i], path[i + 1]) || [];
    for (const sq of sqs) {
      const p = pos.board[sq];
      if (p && p.color !== mover && !out.includes(sq)) out.push(sq);
    }
  }
  return out;
}

/**
 * The king ending with a move limit that the material forms under `rules`
 * (options like PRESETS), as {kind, limit}: kind 'king-vs-three' when one side
 * has a lone king and the other three pieces with at least one king,
 * 'king-vs-two' against one or two such pieces; null otherwise (docs/DAME.md,
 * "End of the game").
 */
export function endingOf(pos, rules = {}) {
  const pieces = Object.values(pos.board);
  if (pieces.length > 4) return null;
  for (const lone of ['white', 'black']) {
    const mine = pieces.filter((p) => p.color === lone);
    const theirs = pieces.filter((p) => p.color !== lone);
    if (mine.length !== 1 || !mine[0].king || !theirs.some((p) => p.king)) continue;
    const kind = theirs.length === 3 ? 'king-vs-three' : theirs.length <= 2 ? 'king-vs-two' : null;
    const limit = kind === 'king-vs-three' ? rules.king_vs_three : kind === 'king-vs-two' ? rules.king_vs_two : null;
    return kind && limit ? { kind, limit } : null;
  }
  return null;
}

/**
 * The ending counter after the material went from `before` to `after`:
 * `elapsed` is the old count plus the plies just played (1 for a move, 0 for
 * a huff). A capture that turns one counted ending into another keeps the
 * earlier limit running (FMJD: the 16 moves stay the maximum).
 */
function nextEndingPlies(before, after, elapsed) {
  if (!after || !before) return 0;
  if (before.kind === after.kind) return elapsed;
  return Math.max(0, elapsed + after.limit - before.limit);
}

/**
 * Plays a move without checking it (it comes from the server or the engine):
 * the piece goes from the first to the last square of the path, the pieces
 * jumped are removed, a man ending on the far row is crowned, the counters
 * follow (the ending counter by `rules`, options like PRESETS; without them
 * it is 0). Returns {pos, captured: [squares], crowned}.
 */
export function playMove(pos, text, rules = {}) {
  const m = typeof text === 'string' ? parseMove(text, pos.size) : text;
  if (!m) throw new Error(`bad move ${text}`);
  let next = clonePosition(pos);
  if (m.huff) next = applyHuff(next, m.huff, rules);
  const endingBefore = endingOf(next, rules);
  const from = m.path[0];
  const to = m.path[m.path.length - 1];
  const piece = next.board[from];
  if (!piece) throw new Error(`no piece on ${from}`);
  const captured = m.capture ? capturedBy(next, m.path, piece.color) : [];
  delete next.board[from];
  for (const sq of captured) delete next.board[sq];
  const crowned = !piece.king && coords(pos.size, to).row === crownRow(pos.size, piece.color);
  next.board[to] = { color: piece.color, king: piece.king || crowned };
  next.kingMoves = piece.king && captured.length === 0 ? (pos.kingMoves || 0) + 1 : 0;
  next.endingPlies = nextEndingPlies(endingBefore, endingOf(next, rules), (next.endingPlies || 0) + 1);
  next.turn = other(pos.turn);
  if (pos.turn === 'black') next.moveNo = (pos.moveNo || 1) + 1;
  return { pos: next, captured, crowned };
}

export const applyMove = (pos, text, rules = {}) => playMove(pos, text, rules).pos;

/** Removes a huffed piece (not a move: the same side stays to move). */
export function applyHuff(pos, sq, rules = {}) {
  const next = clonePosition(pos);
  const endingBefore = endingOf(next, rules);
  delete next.board[sq];
  next.kingMoves = 0;
  next.endingPlies = nextEndingPlies(endingBefore, endingOf(next, rules), next.endingPlies || 0);
  return next;
}

/**
 * Positions along a game: result[i] is the position after i moves; the huff
 * huffs[i] (a square or null) is made before moves[i]; `rules` (options like
 * PRESETS) keep the ending counter.
 */
export function positionsAlong(start, moves, huffs = [], rules = {}) {
  let pos = typeof start === 'string' ? parseFen(start) : start;
  const list = [pos];
  moves.forEach((mv, i) => {
    if (huffs && huffs[i]) pos = applyHuff(pos, huffs[i], rules);
    pos = applyMove(pos, mv, rules);
    list.push(pos);
  });
  return list;
}

/** Move text with its huff, as the move list shows it: "H e5 g3-h4". */
export const moveLabel = (move, huff) => (huff ? `H ${huff} ${move}` : move);

// ------------------------------------------------------------------ input

/**
 * The legal moves as objects {text, path, capture, from, to, landings,
 * captured} for input on the board; pos is the position they are legal in.
 */
export function describeMoves(pos, texts) {
  const out = [];
  for (const text of texts || []) {
    const m = parseMove(text, pos.size);
    if (!m) continue;
    out.push({
      text, path: m.path, capture: m.capture, from: m.path[0], to: m.path[m.path.length - 1],
      landings: m.path.slice(1), captured: m.capture ? capturedBy(pos, m.path) : [],
    });
  }
  return out;
}

/**
 * Click input. sel = {from, clicks: [squares]}: the moves of the piece on
 * `from` whose landing squares include every clicked square, in the order
 * clicked. Returns {candidates, chosen, next}:
 * - chosen: the move when the clicks name exactly one (or the whole path of one),
 * - next: the landing squares still to click (highlighted as targets),
 * - common: the pieces every remaining candidate takes.
 */
export function matchClicks(moves, sel) {
  const candidates = moves.filter((m) => m.from === sel.from && inOrder(m.landings, sel.clicks));
  let chosen = null;
  if (sel.clicks.length > 0) {
    if (candidates.length === 1) chosen = candidates[0];
    else {
      const whole = candidates.filter((m) => m.landings.length === sel.clicks.length
        && m.landings.every((x, i) => x === sel.clicks[i]));
      if (whole.length === 1) chosen = whole[0];
    }
  }
  const next = new Set();
  for (const m of candidates) {
    // The squares after the last clicked one (in path order) are what is left.
    let idx = -1;
    let kk = 0;
    for (let i = 0; i < m.landings.length && kk < sel.clicks.length; i++) if (m.landings[i] === sel.clicks[kk]) { kk++; idx = i; }
    for (let i = idx + 1; i < m.landings.length; i++) next.add(m.landings[i]);
  }
  let common = null;
  for (const m of candidates) {
    common = common === null ? new Set(m.captured) : new Set([...common].filter((x) => m.captured.includes(x)));
  }
  return { candidates, chosen, next, common: common || new Set() };
}

function inOrder(list, sub) {
  let k = 0;
  for (let i = 0; i < list.length && k < sub.length; i++) if (list[i] === sub[k]) k++;
  return k === sub.length;
}

/** The path so far of a click selection, when every candidate agrees on it. */
export function chosenPath(moves, sel) {
  const { candidates } = matchClicks(moves, sel);
  if (candidates.length === 0) return [sel.from];
  const path = [sel.from];
  const first = candidates[0].landings;
  for (let i = 0; i < first.length; i++) {
    if (candidates.every((m) => m.landings[i] === first[i]) && sel.clicks.some((c) => first.indexOf(c) >= i)) path.push(first[i]);
    else break;
  }
  return path;
}

// ------------------------------------------------------------------ rules (analysis board)

const DIRS = [[-1, -1], [1, -1], [-1, 1], [1, 1]];

/**
 * Legal moves of the side to move in text form, for the analysis board.
 * rules: an options object like PRESETS (board, men_capture_backward,
 * majority, king_landing, king_capture, promotion). king_capture 'short':
 * a king captures only a piece on the square next to it (the Italian text
 * of the leaflet), at every jump of a capture. Huffing is not considered (the
 * analysis board plays the rules without the penalty).
 */
export function legalMoves(pos, rules = {}) {
  const size = pos.size;
  const side = pos.turn;
  const backward = !!rules.men_capture_backward;
  const anywhere = rules.king_landing === 'anywhere';
  const fly = rules.king_capture !== 'short';
  const endOfMove = rules.promotion === 'end-of-move';
  const own = squares(size).filter((sq) => pos.board[sq] && pos.board[sq].color === side);
  const opp = Object.values(pos.board).some((p) => p.color !== side);
  if (own.length === 0 || !opp) return [];
  const caps = [];
  for (const from of own) {
    const piece = pos.board[from];
    const board = { ...pos.board };
    delete board[from];
    const walk = (at, king, path, taken) => {
      const { col, row } = coords(size, at);
      let extended = false;
      for (const [dc, dr] of DIRS) {
        if (!king && !backward && dr !== forward(side)) continue;
        let c = col + dc;
        let r = row + dr;
        if (king && fly) {
          while (squareAt(size, c, r) && !board[squareAt(size, c, r)]) { c += dc; r += dr; }
        }
        const over = squareAt(size, c, r);
        if (!over || !board[over] || board[over].color === side || taken.includes(over)) continue;
        const lands = [];
        let lc = c + dc;
        let lr = r + dr;
        while (squareAt(size, lc, lr) && !board[squareAt(size, lc, lr)]) {
          lands.push(squareAt(size, lc, lr));
          if (!(king && anywhere)) break;
          lc += dc; lr += dr;
        }
        if (lands.length === 0) continue;
        // Landing anywhere: where the capture can go on, it must.
        const options = [];
        for (const land of lands) {
          const crown = !king && coords(size, land).row === crownRow(size, side);
          options.push({ land, crown });
        }
        let goOn = options;
        if (king && anywhere && options.length > 1) {
          const cont = options.filter((o) => canCapture(board, size, side, o.land, true, backward, [...taken, over], fly));
          if (cont.length) goOn = cont;
        }
        for (const { land, crown } of goOn) {
          extended = true;
          const nt = [...taken, over];
          if (crown && !endOfMove) { caps.push({ path: [...path, land], taken: nt }); continue; }
          walk(land, king, [...path, land], nt);
        }
      }
      if (!extended && taken.length > 0) caps.push({ path, taken });
    };
    walk(from, piece.king, [from], []);
  }
  let list = caps;
  if (list.length && rules.majority) {
    const most = Math.max(...list.map((c) => c.taken.length));
    list = list.filter((c) => c.taken.length === most);
  }
  if (list.length) {
    const seen = new Set();
    const out = [];
    for (const c of list) {
      const key = `${c.path[0]}|${c.path[c.path.length - 1]}|${[...c.taken].sort().join(',')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(formatMove(c.path, true));
    }
    return out;
  }
  const out = [];
  for (const from of own) {
    const piece = pos.board[from];
    const { col, row } = coords(size, from);
    for (const [dc, dr] of DIRS) {
      if (!piece.king && dr !== forward(side)) continue;
      let c = col + dc;
      let r = row + dr;
      while (squareAt(size, c, r) && !pos.board[squareAt(size, c, r)]) {
        out.push(formatMove([from, squareAt(size, c, r)], false));
        if (!piece.king) break;
        c += dc; r += dr;
      }
    }
  }
  return out;
}

function canCapture(board, size, side, at, king, backward, taken, fly = true) {
  const { col, row } = coords(size, at);
  for (const [dc, dr] of DIRS) {
    if (!king && !backward && dr !== forward(side)) continue;
    let c = col + dc;
    let r = row + dr;
    if (king && fly) while (squareAt(size, c, r) && !board[squareAt(size, c, r)]) { c += dc; r += dr; }
    const over = squareAt(size, c, r);
    if (!over || !board[over] || board[over].color === side || taken.includes(over)) continue;
    const land = squareAt(size, c + dc, r + dr);
    if (land && !board[land]) return true;
  }
  return false;
}
