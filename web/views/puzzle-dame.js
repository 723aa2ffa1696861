// The Dame half of the puzzle page (puzzles.js): the board, entering the
// answer square by square (dameinput.js), and the solution line's positions.

import { DameBoard } from '../dameboard.js';
import * as D from '../dame.js';
import { clickSquare, boardHandlers, inputMarks } from '../dameinput.js';
import { parseDameRules } from '../rules.js';

export const damePuzzles = {
  /** The board in `host`; clicks and drags answer through `view.answer`. */
  makeBoard(view, host) {
    view.onSquare = (sq, { drag = false } = {}) => {
      if (view.interactive()) clickSquare(view, sq, (text) => view.answer(text), { drag });
    };
    return new DameBoard(host, view.size, boardHandlers(view, () => view.interactive()));
  },

  /** The puzzle's start position and rule options. */
  start(p) {
    const size = D.boardSizeOf(p.game);
    return { pos: D.parseFen(p.position, size), options: parseDameRules(p.rules, p.game).options, size };
  },

  clear(view) { view.dsel = null; },

  legal(view) { return D.describeMoves(view.pos, D.legalMoves(view.pos, view.options)); },

  along: (view, start, moves) => D.positionsAlong(start, moves, [], view.options),

  apply: (view, pos, mv) => D.applyMove(pos, mv, view.options),

  /** The board at the solution's `step` (null: the puzzle, maybe being answered). */
  render(view, step) {
    let shown = view.pos;
    let last = null;
    let marks = { selected: null };
    if (step !== null) {
      try {
        const list = D.positionsAlong(view.start, view.puzzle.solution.slice(0, step + 1), [], view.options);
        shown = list[list.length - 1];
        if (step >= 0) {
          const m = D.parseMove(view.puzzle.solution[step], view.size);
          last = m ? { path: m.path, captured: m.capture ? D.capturedBy(list[list.length - 2], m.path) : [] } : null;
        }
      } catch { /* keep the position */ }
    } else if (view.interactive()) {
      marks = inputMarks(view.legal(), view.dsel);
    }
    view.board.render({ board: shown.board, ...marks, last, interactive: view.interactive(), animate: true, ply: step === null ? -1 : step });
  },
};
