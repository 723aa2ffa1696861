// Arrows over a board (board.js or dameboard.js): the engine's moves drawn
// on the analysis boards and the hint of a game. A move is its path (an
// arrow from the first point or square to the last, through every landing
// square of a capture), a placement a ring on its point, and the stone a
// mill removes a cross. Rank 1 is the best move; ranks 2 and 3 are drawn
// lighter.

import { s } from './dom.js';
import * as M from './muehle.js';
import * as D from './dame.js';

/**
 * A move's shape for `game` ("muehle" or a Dame game): {path: [cells],
 * remove: cell|null}; null for text that is no move.
 */
export function moveShape(game, text) {
  if (game && game !== 'muehle') {
    const m = D.parseMove(text, D.boardSizeOf(game));
    return m ? { path: m.path, remove: null } : null;
  }
  const m = M.parseMove(text);
  return m ? { path: m.from ? [m.from, m.to] : [m.to], remove: m.remove } : null;
}

/** The centre of a point or square on the screen (flip applied). */
function centre(board, cell) {
  return board.center ? board.center(cell) : board.pos(cell);
}

/** The board's unit: the distance of neighbouring points (Mühle) or a square's side (Dame). */
const unitOf = (board) => board.cell || 100;

/** The layer of arrows on top of the board's pieces (made when missing). */
function layerOf(board) {
  let layer = board.svg.querySelector(':scope > g.arrow-layer');
  if (!layer) {
    layer = s('g', { class: 'arrow-layer', 'aria-hidden': 'true' });
    board.svg.append(layer);
  }
  // Pieces and marks drawn later stay under the arrows.
  if (layer !== board.svg.lastElementChild) board.svg.append(layer);
  return layer;
}

function arrowPath(board, path, width) {
  const pts = path.map((c) => centre(board, c));
  const a = pts[pts.length - 2];
  const b = pts[pts.length - 1];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const head = Math.min(width * 2.6, len * 0.6);
  const shaft = [...pts.slice(0, -1), { x: b.x - ux * head, y: b.y - uy * head }];
  const side = head * 0.62;
  const base = { x: b.x - ux * head, y: b.y - uy * head };
  const fmt = (p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`;
  return [
    s('polyline', { class: 'shaft', points: shaft.map(fmt).join(' '), 'stroke-width': width.toFixed(1) }),
    s('polygon', {
      class: 'head',
      points: [b, { x: base.x - uy * side, y: base.y + ux * side }, { x: base.x + uy * side, y: base.y - ux * side }].map(fmt).join(' '),
    }),
  ];
}

/**
 * Draws `arrows` on the board, replacing those drawn before (an empty list
 * clears them): each {move, shape: moveShape(…), rank: 1…3, focus?, hint?}.
 * A focused arrow stands out and dims the others; a hint has its own colour.
 */
export function drawArrows(board, arrows) {
  if (!board || !board.svg) return;
  const layer = layerOf(board);
  layer.replaceChildren();
  const unit = unitOf(board);
  const focused = arrows.some((a) => a.focus);
  layer.classList.toggle('has-focus', focused);
  // The best move last: on top of the others.
  for (const a of [...arrows].sort((x, y) => y.rank - x.rank)) {
    const { path, remove } = a.shape;
    const width = unit * (a.rank === 1 ? 0.15 : 0.11);
    const g = s('g', {
      class: ['arrow', `rank-${a.rank}`, a.focus ? 'focus' : '', a.hint ? 'hint' : ''],
      'data-move': a.move, 'data-rank': String(a.rank), 'data-path': path.join(' '),
      'data-remove': remove || null,
    });
    if (path.length >= 2) g.append(...arrowPath(board, path, width));
    else {
      const c = centre(board, path[0]);
      g.append(s('circle', { class: 'place', cx: c.x, cy: c.y, r: unit * 0.36, 'stroke-width': width.toFixed(1) }));
    }
    if (remove) {
      const c = centre(board, remove);
      const d = unit * 0.24;
      g.append(s('path', {
        class: 'remove', 'stroke-width': width.toFixed(1),
        d: `M${c.x - d},${c.y - d} L${c.x + d},${c.y + d} M${c.x + d},${c.y - d} L${c.x - d},${c.y + d}`,
      }));
    }
    layer.append(g);
  }
}

/** Draws the moves `moves` (best first, at most three) on the board of `game`; `focus`: the index to stress. */
export function drawMoves(board, game, moves, focus = null) {
  drawArrows(board, moves.slice(0, 3)
    .map((move, i) => ({ move, rank: i + 1, focus: focus === i, shape: moveShape(game, move) }))
    .filter((a) => a.shape));
}
