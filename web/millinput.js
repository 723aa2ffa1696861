// Entering a Mühle move on the board, shared by the game (games/muehle.js),
// the analysis board and the puzzles: a placement by one click, a move by
// its stone and its point (clicked or dragged; in Lasker Morris also while
// stones are in hand), and after a move that closes a mill the stone to
// remove; and what the board marks meanwhile.
// `view` holds `pos`, `selected`, `pendingMill`, `legal()`, `update()` and
// `choose(from, to)`; `submit(text)` gets the whole move in notation.

import * as M from './muehle.js';

/**
 * A click on point `p`. `reselect`: a click on another point while the
 * stone to remove is to be chosen drops the choice and counts as a click of
 * its own (the game); without it the click only drops the choice.
 */
export function clickPoint(view, p, submit, { reselect = false } = {}) {
  const legal = view.legal();
  if (view.pendingMill) {
    const pm = view.pendingMill;
    view.pendingMill = null;
    if (pm.removable.has(p)) { submit(M.formatMove({ from: pm.from, to: pm.to, remove: p })); return; }
    if (!reselect || p === pm.to) { view.update(); return; }
  }
  if (view.selected && legal.some((m) => m.from === view.selected && m.to === p)) { choose(view, view.selected, p, submit); return; }
  // While placing, a click on an empty point places a stone; where a side
  // may also move instead of placing, a click on one of its stones that can
  // slide selects it (and a click on a point it reaches moves it).
  if (legal.some((m) => !m.from)) {
    const slides = legal.some((m) => m.from === p);
    if (!slides) {
      const had = view.selected;
      view.selected = null;
      if (legal.some((m) => !m.from && m.to === p)) choose(view, null, p, submit);
      else if (reselect || had) view.update();
      return;
    }
  }
  view.selected = view.pos.board[p] === view.pos.turn && legal.some((m) => m.from === p) && view.selected !== p ? p : null;
  view.update();
}

/** The move from `from` (null: a placement) to `to`: played at once, or,
 * when it closes a mill with a choice of stones, waiting for the stone
 * (then `onChoice` is called, after the update). */
export function choose(view, from, to, submit, onChoice = null) {
  const c = view.legal().filter((m) => m.from === from && m.to === to);
  if (c.length === 1) submit(c[0].text);
  else if (c.length > 1) {
    view.pendingMill = { from, to, removable: new Set(c.map((m) => m.remove).filter(Boolean)) };
    view.selected = null;
    view.update();
    onChoice?.();
  }
}

/**
 * The board's handlers (board.js) for move input: clicks go to
 * view.onPoint, a stone of the side to move may be dragged while
 * `canPlay()`, Escape drops the selection (and calls `escape`).
 */
export function boardHandlers(view, canPlay, escape = null) {
  return {
    onPoint: (p) => view.onPoint(p),
    canDrag: (p) => canPlay() && view.pos.board[p] === view.pos.turn && view.legal().some((m) => m.from === p),
    onDragStart: (p) => { view.selected = p; view.update(); },
    onDrag: (from, to) => {
      if (view.legal().some((m) => m.from === from && m.to === to)) view.choose(from, to);
      else { view.selected = null; view.update(); }
    },
    onDragCancel: () => view.update(),
    onEscape: () => { view.selected = null; view.pendingMill = null; escape?.(); view.update(); },
  };
}

/**
 * What the board shows while the side to move enters a move in `pos`:
 * {board, selected, targets, movable, removable} for Board.render (the
 * stone just moved stands on its point while the stone to remove is chosen).
 */
export function inputMarks(pos, legal, selected, pendingMill) {
  if (pendingMill) {
    const board = { ...pos.board };
    if (pendingMill.from) delete board[pendingMill.from];
    board[pendingMill.to] = pos.turn;
    return { board, selected: pendingMill.to, targets: new Set(), movable: new Set(), removable: pendingMill.removable };
  }
  const marks = { board: pos.board, selected, targets: new Set(), movable: new Set(), removable: new Set() };
  // Stones that can move; the points the selected stone reaches, or else
  // the points a stone may be placed on.
  marks.movable = new Set(legal.filter((m) => m.from).map((m) => m.from));
  if (selected) marks.targets = new Set(legal.filter((m) => m.from === selected).map((m) => m.to));
  else marks.targets = new Set(legal.filter((m) => !m.from).map((m) => m.to));
  return marks;
}
