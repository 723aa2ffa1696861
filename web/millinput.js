// Entering a Mühle move by clicks on the board, shared by the analysis
// board and the puzzles: a placement by one click, a move by its stone
// and its point, and after a move that closes a mill the stone to remove.
// `view` holds `pos`, `selected`, `pendingMill`, `legal()` and `update()`;
// `submit(text)` gets the whole move in notation.

import * as M from './muehle.js';

/** A click on point `p`. */
export function clickPoint(view, p, submit) {
  const legal = view.legal();
  if (view.pendingMill) {
    const pm = view.pendingMill;
    view.pendingMill = null;
    if (pm.removable.has(p)) { submit(M.formatMove({ from: pm.from, to: pm.to, remove: p })); return; }
    view.update();
    return;
  }
  if (legal.some((m) => !m.from)) {
    if (legal.some((m) => m.to === p)) choose(view, null, p, submit);
    return;
  }
  if (view.selected && legal.some((m) => m.from === view.selected && m.to === p)) { choose(view, view.selected, p, submit); return; }
  view.selected = view.pos.board[p] === view.pos.turn && legal.some((m) => m.from === p) && view.selected !== p ? p : null;
  view.update();
}

/** The move from `from` (null: a placement) to `to`: played at once, or,
 * when it closes a mill with a choice of stones, waiting for the stone. */
export function choose(view, from, to, submit) {
  const c = view.legal().filter((m) => m.from === from && m.to === to);
  if (c.length === 1) submit(c[0].text);
  else if (c.length > 1) {
    view.pendingMill = { from, to, removable: new Set(c.map((m) => m.remove)) };
    view.selected = null;
    view.update();
  }
}
