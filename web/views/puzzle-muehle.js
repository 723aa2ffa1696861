// The Mühle half of the puzzle page (puzzles.js): the board, entering the
// answer (millinput.js), and the solution line's positions.

import { Board } from '../board.js';
import * as M from '../muehle.js';
import { clickPoint, choose, boardHandlers, inputMarks } from '../millinput.js';
import { parseRules } from '../rules.js';

export const muehlePuzzles = {
  /** The board in `host`; clicks and drags answer through `view.answer`. */
  makeBoard(view, host) {
    view.onPoint = (p) => { if (view.interactive()) clickPoint(view, p, (text) => view.answer(text)); };
    view.choose = (from, to) => choose(view, from, to, (text) => view.answer(text));
    return new Board(host, boardHandlers(view, () => view.interactive() && !view.pendingMill));
  },

  /** The puzzle's start position and rule options. */
  start(p) { return { pos: M.parsePosition(p.position), options: parseRules(p.rules).options }; },

  /** Drops a half-entered answer. */
  clear(view) { view.selected = null; view.pendingMill = null; },

  legal(view) { return M.legalMoves(view.pos, view.options).map((text) => ({ text, ...M.parseMove(text) })); },

  /** The position after each move of `moves` from `start`. */
  along: (view, start, moves) => M.positionsAlong(start, moves),

  apply: (view, pos, mv) => M.applyMove(pos, mv),

  /** The board at the solution's `step` (null: the puzzle, maybe being answered). */
  render(view, step) {
    let marks = { board: view.pos.board, selected: view.selected };
    let last = null;
    if (step !== null) {
      try {
        const along = M.positionsAlong(view.start, view.puzzle.solution.slice(0, step + 1));
        marks = { board: along[along.length - 1].board, selected: view.selected };
        last = step >= 0 ? M.parseMove(view.puzzle.solution[step]) : null;
      } catch { /* keep the position */ }
    } else if (view.interactive()) {
      marks = inputMarks(view.pos, view.legal(), view.selected, view.pendingMill);
    }
    view.board.render({ ...marks, last, interactive: view.interactive(), animate: true, ply: step === null ? -1 : step });
  },
};
