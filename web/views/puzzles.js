// Puzzles: "Find the best move" (seed 000). Positions from Mühle's
// perfect-play databases where exactly one move keeps the win (or saves the
// draw); the bundled set is /puzzles.json (docs/TABLEBASE.md, "Puzzles").
// The player moves on the board; the answer is checked, the solution line
// can be played through, and the solved puzzles are remembered in the
// browser.

import { h, mount, toast } from '../dom.js';
import { t, colorName } from '../i18n.js';
import { api } from '../api.js';
import { Board } from '../board.js';
import * as M from '../muehle.js';
import { clickPoint, choose, boardHandlers, inputMarks } from '../millinput.js';
import { parseRules } from '../rules.js';
import * as store from '../store.js';
import { verdictText } from '../tablebase.js';

let cached = null;

/** The bundled puzzles (fetched once per page load). */
async function loadPuzzles() {
  if (!cached) cached = api.puzzles().catch((e) => { cached = null; throw e; });
  return cached;
}

/** "12. a1-a4" or "12. … a1-a4" for the solution's moves from `start`. */
function numbered(start, moves) {
  let pos = start;
  return moves.map((mv) => {
    const label = pos.turn === 'white' ? `${pos.moveNo}.` : `${pos.moveNo}. …`;
    try { pos = M.applyMove(pos, mv); } catch { /* keep counting */ }
    return { mv, label };
  });
}

export class PuzzlesView {
  constructor(root, { id = null } = {}) {
    this.root = root;
    this.list = null;
    this.index = 0;
    this.wantId = id;
    this.build();
    this.load();
  }

  destroy() { this.dead = true; }

  async load() {
    try {
      this.list = await loadPuzzles();
    } catch (e) {
      if (this.dead) return;
      mount(this.els.side, h('p', { class: 'error', text: e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }) }));
      return;
    }
    if (this.dead) return;
    if (!Array.isArray(this.list) || this.list.length === 0) {
      mount(this.els.side, h('p', { text: t('puzzle.none') }));
      return;
    }
    const solved = store.solvedPuzzles();
    let i = this.list.findIndex((p) => p.id === (this.wantId ?? store.lastPuzzle()));
    if (i < 0) i = Math.max(0, this.list.findIndex((p) => !solved.includes(p.id)));
    this.open(i, { replace: true });
  }

  get puzzle() { return this.list ? this.list[this.index] : null; }

  /** Opens puzzle number `i` (0-based) in its start position. */
  open(i, { replace = true } = {}) {
    if (!this.list) return;
    this.index = Math.max(0, Math.min(this.list.length - 1, i));
    const p = this.puzzle;
    store.setLastPuzzle(p.id);
    const url = `/puzzles/${p.id}`;
    if (location.pathname !== url) {
      if (replace) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
    }
    this.start = M.parsePosition(p.position);
    this.pos = this.start;
    this.options = parseRules(p.rules).options;
    this.selected = null;
    this.pendingMill = null;
    this.state = 'solving';
    this.wrong = [];
    this.step = null;
    this.update();
  }

  legal() {
    if (this.state === 'solved' || this.state === 'shown') return [];
    return M.legalMoves(this.pos, this.options).map((text) => ({ text, ...M.parseMove(text) }));
  }

  interactive() { return !!this.puzzle && this.step === null && (this.state === 'solving' || this.state === 'wrong'); }

  onPoint(p) {
    if (!this.interactive()) return;
    clickPoint(this, p, (text) => this.answer(text));
  }

  choose(from, to) {
    choose(this, from, to, (text) => this.answer(text));
  }

  /** The player's answer: the one move of the solution, or another. */
  answer(text) {
    const p = this.puzzle;
    this.selected = null;
    this.pendingMill = null;
    if (text === p.solution[0]) {
      this.state = 'solved';
      store.markPuzzleSolved(p.id);
      this.step = 0;
    } else {
      this.state = 'wrong';
      if (!this.wrong.includes(text)) this.wrong.push(text);
    }
    this.update();
  }

  showSolution() {
    if (!this.puzzle) return;
    if (this.state !== 'solved') this.state = 'shown';
    this.step = 0;
    this.update();
  }

  retry() {
    this.open(this.index);
  }

  setStep(k) {
    const n = this.puzzle.solution.length;
    this.step = k === null ? null : Math.max(-1, Math.min(n - 1, k));
    this.update();
  }

  build() {
    const els = {};
    this.els = els;
    els.boardWrap = h('div', { class: 'board-wrap' });
    this.board = new Board(els.boardWrap, boardHandlers(this, () => this.interactive() && !this.pendingMill));
    els.title = h('h1', { id: 'puzzle-title' });
    els.meta = h('p', { class: 'muted small', id: 'puzzle-meta' });
    els.side = h('div', { class: 'card puzzle-card', id: 'puzzle-card' });
    els.line = h('div', { class: 'card puzzle-line', id: 'puzzle-line', hidden: true });
    els.nav = h('div', { class: 'card' });
    mount(this.root, h('div', { class: 'analysis-page game-page puzzle-page' },
      h('div', { class: 'board-col' },
        h('div', { class: 'analysis-head' }, els.title, els.meta),
        els.boardWrap),
      h('aside', { class: 'side-col' }, els.side, els.line, els.nav)));
    this.update();
  }

  relabel() { this.build(); }

  update() {
    if (this.dead) return;
    const e = this.els;
    document.title = `${t('puzzle.title')} – brett`;
    e.title.textContent = t('puzzle.title');
    const p = this.puzzle;
    if (!p) {
      e.meta.textContent = '';
      this.board.render({ board: {}, interactive: false });
      if (!this.list) mount(e.side, h('p', { class: 'muted', text: t('game.loading') }));
      return;
    }
    const solvedIds = store.solvedPuzzles();
    const solved = solvedIds.includes(p.id);
    const total = this.list.length;
    const done = this.list.filter((q) => solvedIds.includes(q.id)).length;
    e.meta.textContent = t('puzzle.progress', { solved: done, total });

    // Board: the puzzle position, or the solution line at `step`.
    let marks = { board: this.pos.board, selected: this.selected };
    let last = null;
    if (this.step !== null) {
      try {
        const along = M.positionsAlong(this.start, p.solution.slice(0, this.step + 1));
        marks = { board: along[along.length - 1].board, selected: this.selected };
        last = this.step >= 0 ? M.parseMove(p.solution[this.step]) : null;
      } catch { /* keep the position */ }
    } else if (this.interactive()) {
      marks = inputMarks(this.pos, this.legal(), this.selected, this.pendingMill);
    }
    this.board.render({
      ...marks, last, interactive: this.interactive(), animate: true,
      ply: this.step === null ? -1 : this.step,
    });

    // The task and the feedback.
    const turn = this.start.turn;
    const stars = '●'.repeat(p.difficulty) + '○'.repeat(Math.max(0, 5 - p.difficulty));
    const [result, plies] = String(p.value).split(' ');
    let feedback = null;
    if (this.state === 'solved') {
      feedback = h('div', { class: 'puzzle-feedback right', id: 'puzzle-feedback', role: 'status' },
        h('strong', { text: t('puzzle.right') }),
        h('span', { text: ` ${t(p.goal === 'win' ? 'puzzle.right.win' : 'puzzle.right.draw', { move: p.solution[0] })}` }));
    } else if (this.state === 'wrong') {
      const mv = this.wrong[this.wrong.length - 1];
      feedback = h('div', { class: 'puzzle-feedback wrong', id: 'puzzle-feedback', role: 'status' },
        h('strong', { text: t('puzzle.wrong') }),
        h('span', { text: ` ${t(p.goal === 'win' ? 'puzzle.wrong.win' : 'puzzle.wrong.draw', { move: mv, color: colorName(turn) })}` }));
    } else if (this.state === 'shown') {
      feedback = h('div', { class: 'puzzle-feedback shown', id: 'puzzle-feedback', role: 'status' },
        h('span', { text: t('puzzle.shown', { move: p.solution[0] }) }));
    }
    mount(e.side,
      h('h2', { id: 'puzzle-number' },
        h('span', { text: t('puzzle.number', { n: this.index + 1, total }) }),
        solved ? h('span', { class: 'badge solved', id: 'puzzle-solved', text: `✓ ${t('puzzle.solved')}` }) : null),
      h('p', { class: 'puzzle-task', id: 'puzzle-task' },
        h('span', { class: `swatch ${turn}`, 'aria-hidden': 'true' }),
        h('strong', { text: ` ${t(p.goal === 'win' ? 'puzzle.task.win' : 'puzzle.task.draw', { color: colorName(turn) })}` })),
      h('p', { class: 'small muted', text: t(p.goal === 'win' ? 'puzzle.hint.win' : 'puzzle.hint.draw') }),
      h('p', { class: 'small', id: 'puzzle-difficulty' },
        h('span', { text: `${t('puzzle.difficulty')}: ` }),
        h('span', { class: 'stars', 'aria-label': t('puzzle.difficulty.of', { n: p.difficulty }), title: t('puzzle.difficulty.of', { n: p.difficulty }), text: stars }),
        h('span', { class: 'muted', text: ` · ${verdictText(turn, { result, plies: Number(plies) || 0 })}` })),
      feedback,
      this.state === 'wrong' && this.wrong.length > 1
        ? h('p', { class: 'small muted', text: t('puzzle.tried', { moves: this.wrong.join(', ') }) }) : null,
      h('div', { class: 'row' },
        this.state === 'solving' || this.state === 'wrong'
          ? h('button', { class: 'btn', type: 'button', id: 'puzzle-show', onclick: () => this.showSolution(), text: t('puzzle.showSolution') }) : null,
        this.state === 'solved' || this.state === 'shown'
          ? h('button', { class: 'btn', type: 'button', id: 'puzzle-retry', onclick: () => this.retry(), text: `↺ ${t('puzzle.retry')}` }) : null));

    // The solution line, to play through.
    e.line.hidden = this.step === null;
    if (this.step !== null) {
      const moves = numbered(this.start, p.solution);
      mount(e.line,
        h('h2', { class: 'section-title', text: t('puzzle.solution') }),
        h('ol', { class: 'pv puzzle-moves', id: 'puzzle-solution' }, ...moves.map(({ mv, label }, k) => h('li', {},
          h('span', { class: 'muted small', text: `${label} ` }),
          h('button', {
            type: 'button', class: ['move', k === this.step ? 'current' : ''], 'data-step': k,
            'aria-current': k === this.step ? 'step' : null,
            onclick: () => this.setStep(k), text: mv,
          })))),
        h('p', { class: 'small muted', text: t('puzzle.solution.note') }),
        h('div', { class: 'row' },
          h('button', { class: 'btn', type: 'button', id: 'line-prev', disabled: this.step < 0, onclick: () => this.setStep(this.step - 1), text: `◀ ${t('puzzle.line.prev')}` }),
          h('button', { class: 'btn', type: 'button', id: 'line-next', disabled: this.step >= p.solution.length - 1, onclick: () => this.setStep(this.step + 1), text: `${t('puzzle.line.next')} ▶` })));
    }

    // Previous / next puzzle, progress.
    const nextUnsolved = () => {
      for (let k = 1; k <= total; k++) {
        const j = (this.index + k) % total;
        if (!solvedIds.includes(this.list[j].id)) return j;
      }
      return (this.index + 1) % total;
    };
    mount(e.nav,
      h('div', { class: 'row' },
        h('button', { class: 'btn', type: 'button', id: 'puzzle-prev', disabled: this.index === 0, onclick: () => this.open(this.index - 1), text: `◀ ${t('puzzle.prev')}` }),
        h('button', { class: 'btn', type: 'button', id: 'puzzle-next', disabled: this.index >= total - 1, onclick: () => this.open(this.index + 1), text: `${t('puzzle.next')} ▶` }),
        h('button', { class: 'btn primary', type: 'button', id: 'puzzle-next-unsolved', disabled: done >= total, onclick: () => this.open(nextUnsolved()), text: t('puzzle.nextUnsolved') })),
      h('p', { class: 'small muted', id: 'puzzle-progress', text: t('puzzle.progress', { solved: done, total }) }),
      done > 0 ? h('button', {
        class: 'btn small', type: 'button', id: 'puzzle-reset',
        onclick: () => { store.clearSolvedPuzzles(); toast(t('puzzle.reset.done')); this.update(); },
        text: t('puzzle.reset'),
      }) : null,
      h('p', { class: 'small muted', text: t('puzzle.source') }));
  }
}
