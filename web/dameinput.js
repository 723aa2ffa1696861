// Entering a Dame move on the board, shared by the game (games/dame.js) and
// the Dame analysis board: a piece and its landing squares clicked one by
// one (or the piece dragged), until one legal move is named (dame.js
// matchClicks); and what the board marks meanwhile. `view` holds `pos`,
// `dsel` (the piece chosen and the squares clicked since), `legal()` (the
// moves as describeMoves gives them), `update()` and `onSquare(sq, opts)`;
// `submit(text)` gets the whole move in notation.

import { matchClicks, chosenPath } from './dame.js';

/**
 * A click on square `sq` (`drag`: the square a piece was dragged to).
 * The game adds `huffable` (the squares whose piece may be huffed: a click
 * on one calls `huff(sq)`), `onPath` (called when a capture has several
 * paths and one more square is needed) and `onMustCapture` (called on a
 * click on a piece that may not move because another must capture).
 */
export function clickSquare(view, sq, submit, {
  drag = false, huffable = null, huff = null, onPath = null, onMustCapture = null,
} = {}) {
  if (huffable && huffable.has(sq)) {
    view.dsel = null;
    huff(sq);
    return;
  }
  const moves = view.legal();
  if (view.dsel) {
    const clicks = [...view.dsel.clicks, sq];
    const r = matchClicks(moves, { from: view.dsel.from, clicks });
    if (r.candidates.length > 0) {
      if (r.chosen) { submit(r.chosen.text); return; }
      view.dsel = { from: view.dsel.from, clicks };
      view.update();
      onPath?.();
      return;
    }
    if (drag) { view.dsel = null; view.update(); return; }
  }
  const pos = view.pos;
  const piece = pos.board[sq];
  if (piece && piece.color === pos.turn && moves.some((m) => m.from === sq)) {
    view.dsel = view.dsel && view.dsel.from === sq ? null : { from: sq, clicks: [] };
  } else {
    if (onMustCapture && piece && piece.color === pos.turn && moves.length && moves.every((m) => m.capture)) onMustCapture();
    view.dsel = null;
  }
  view.update();
}

/**
 * The board's handlers (dameboard.js) for move input: clicks go to
 * view.onSquare, a piece of the side to move may be dragged while
 * `canPlay()`, Escape drops the selection (and calls `escape`).
 */
export function boardHandlers(view, canPlay, escape = null) {
  return {
    onSquare: (sq) => view.onSquare(sq),
    canDrag: (sq) => canPlay() && view.pos.board[sq]?.color === view.pos.turn && view.legal().some((m) => m.from === sq),
    onDragStart: (sq) => { view.dsel = { from: sq, clicks: [] }; view.update(); },
    onDrag: (from, to) => { view.dsel = { from, clicks: [] }; view.onSquare(to, { drag: true }); },
    onDragCancel: () => view.update(),
    onEscape: () => { view.dsel = null; escape?.(); view.update(); },
  };
}

/**
 * What the board shows while the side to move enters a move:
 * {selected, targets, movable, capturing, path} for DameBoard.render (the
 * pieces every move still possible takes, and the path clicked so far).
 */
export function inputMarks(legal, dsel) {
  const marks = { selected: null, targets: new Set(), movable: new Set(legal.map((m) => m.from)), capturing: new Set(), path: [] };
  if (dsel) {
    const r = matchClicks(legal, dsel);
    marks.selected = dsel.from;
    marks.targets = r.next;
    if (dsel.clicks.length) {
      marks.capturing = r.common;
      marks.path = chosenPath(legal, dsel);
    }
  }
  return marks;
}
