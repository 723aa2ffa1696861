// Puzzles: "Find the best move" (seed 000), for Mühle and Dame. Mühle's are
// positions from the perfect-play databases where exactly one move keeps
// the win (or saves the draw), bundled as /puzzles.json; Dame's are endings
// from the Dame databases and shots from the tactical suites, bundled as
// /puzzles-dame.json (docs/TABLEBASE.md, "Puzzles"). One tab per game. The
// player moves on the board; the answer is checked, the solution line can
// be played through, and the solved puzzles are remembered in the browser.
// The board and move input of each family are in puzzle-muehle.js and
// puzzle-dame.js.

import { h, mount, toast } from '../dom.js';
import { t, tn, colorName } from '../i18n.js';
import { api } from '../api.js';
import { gameName } from '../rules.js';
import { familyOf } from '../catalogue.js';
import * as store from '../store.js';
import { verdictText } from '../tablebase.js';
import { muehlePuzzles } from './puzzle-muehle.js';
import { damePuzzles } from './puzzle-dame.js';

const FAMILIES = { muehle: muehlePuzzles, dame: damePuzzles };

let cached = null;

/**
 * The bundled puzzles by game (fetched once per page load): [{game, list}]
 * in the catalogue's order, Mühle first. A set that cannot be had is left
 * out (Mühle's error is reported).
 */
async function loadPuzzles() {
  if (!cached) {
    cached = Promise.all([api.puzzles(), api.damePuzzles().catch(() => [])]).then(([muehle, dame]) => {
      const sets = [{ game: 'muehle', list: muehle.map((p) => ({ ...p, game: p.game || 'muehle' })) }];
      for (const p of Array.isArray(dame) ? dame : []) {
        if (!FAMILIES[familyOf(p.game)]) continue;
        let set = sets.find((x) => x.game === p.game);
        if (!set) { set = { game: p.game, list: [] }; sets.push(set); }
        set.list.push(p);
      }
      return sets;
    }).catch((e) => { cached = null; throw e; });
  }
  return cached;
}

/** "12." or "12. …" before each move of the solution from `start`. */
function numbered(kind, view, start, moves) {
  let pos = start;
  return moves.map((mv) => {
    const label = pos.turn === 'white' ? `${pos.moveNo}.` : `${pos.moveNo}. …`;
    try { pos = kind.apply(view, pos, mv); } catch { /* keep counting */ }
    return { mv, label };
  });
}

export class PuzzlesView {
  constructor(root, { id = null } = {}) {
    this.root = root;
    this.sets = null;
    this.list = null;
    this.game = 'muehle';
    this.kind = muehlePuzzles;
    this.size = 8;
    this.index = 0;
    this.wantId = id;
    this.build();
    this.load();
  }

  destroy() { this.dead = true; }

  async load() {
    try {
      this.sets = await loadPuzzles();
    } catch (e) {
      if (this.dead) return;
      mount(this.els.side, h('p', { class: 'error', text: e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }) }));
      return;
    }
    if (this.dead) return;
    const want = this.wantId ?? store.lastPuzzle();
    const set = this.sets.find((x) => x.list.some((p) => p.id === want)) || this.sets[0];
    this.showSet(set.game, want);
  }

  /** Shows the puzzles of `game`: puzzle `want`, else the first unsolved one. */
  showSet(game, want = null) {
    const set = this.sets.find((x) => x.game === game);
    if (!set) return;
    this.game = game;
    this.list = set.list;
    this.start = null;
    this.pos = null;
    const kind = FAMILIES[familyOf(game)] || muehlePuzzles;
    if (kind !== this.kind) {
      this.kind = kind;
      this.build();
    }
    if (this.list.length === 0) {
      mount(this.els.side, h('p', { text: t('puzzle.none') }));
      return;
    }
    const solved = store.solvedPuzzles();
    let i = this.list.findIndex((p) => p.id === want);
    if (i < 0) i = Math.max(0, this.list.findIndex((p) => !solved.includes(p.id)));
    this.open(i, { replace: true });
  }

  get puzzle() { return this.list ? this.list[this.index] : null; }

  /** Opens puzzle number `i` (0-based) of the game's set in its start position. */
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
    const { pos, options, size } = this.kind.start(p);
    if (size && size !== this.size) {
      this.size = size;
      this.build();
    }
    this.start = pos;
    this.pos = pos;
    this.options = options;
    this.kind.clear(this);
    this.state = 'solving';
    this.wrong = [];
    this.step = null;
    this.update();
  }

  legal() {
    if (this.state === 'solved' || this.state === 'shown') return [];
    return this.kind.legal(this);
  }

  interactive() { return !!this.puzzle && this.step === null && (this.state === 'solving' || this.state === 'wrong'); }

  /** The player's answer: a move that solves it, or another. */
  answer(text) {
    const p = this.puzzle;
    this.kind.clear(this);
    if (text === p.solution[0] || (p.accept || []).includes(text)) {
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
    this.board = this.kind.makeBoard(this, els.boardWrap);
    els.title = h('h1', { id: 'puzzle-title' });
    els.games = h('div', { class: 'row puzzle-games', id: 'puzzle-games', role: 'group' });
    els.meta = h('p', { class: 'muted small', id: 'puzzle-meta' });
    els.side = h('div', { class: 'card puzzle-card', id: 'puzzle-card' });
    els.line = h('div', { class: 'card puzzle-line', id: 'puzzle-line', hidden: true });
    els.nav = h('div', { class: 'card' });
    mount(this.root, h('div', { class: 'analysis-page game-page puzzle-page', 'data-game': this.game },
      h('div', { class: 'board-col' },
        h('div', { class: 'analysis-head' }, els.title, els.meta, els.games),
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
    const p = this.pos ? this.puzzle : null;
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
    e.meta.textContent = `${gameName(this.game)} · ${t('puzzle.progress', { solved: done, total })}`;
    e.games.setAttribute('aria-label', t('puzzle.games'));
    mount(e.games, ...(this.sets || []).map((set) => {
      const n = set.list.filter((q) => solvedIds.includes(q.id)).length;
      return h('button', {
        type: 'button', class: ['btn', 'small', set.game === this.game ? 'primary' : ''], 'data-game': set.game,
        'aria-pressed': set.game === this.game ? 'true' : 'false',
        onclick: () => { if (set.game !== this.game) this.showSet(set.game); },
        text: `${gameName(set.game)} · ${n}/${set.list.length}`,
      });
    }));

    // Board: the puzzle position, or the solution line at `step`.
    this.kind.render(this, this.step);

    // The task and the feedback.
    const turn = this.start.turn;
    const stars = '●'.repeat(p.difficulty) + '○'.repeat(Math.max(0, 5 - p.difficulty));
    const [result, plies] = String(p.value).split(' ');
    let feedback = null;
    if (this.state === 'solved') {
      feedback = h('div', { class: 'puzzle-feedback right', id: 'puzzle-feedback', role: 'status' },
        h('strong', { text: t('puzzle.right') }),
        h('span', { text: ` ${t(`puzzle.right.${p.goal}`, { move: p.solution[0] })}` }));
    } else if (this.state === 'wrong') {
      const mv = this.wrong[this.wrong.length - 1];
      feedback = h('div', { class: 'puzzle-feedback wrong', id: 'puzzle-feedback', role: 'status' },
        h('strong', { text: t('puzzle.wrong') }),
        h('span', { text: ` ${t(`puzzle.wrong.${p.goal}`, { move: mv, color: colorName(turn) })}` }));
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
        h('strong', { text: ` ${t(`puzzle.task.${p.goal}`, { color: colorName(turn) })}` })),
      h('p', { class: 'small muted', text: t(`puzzle.hint.${p.goal}`) }),
      h('p', { class: 'small', id: 'puzzle-difficulty' },
        h('span', { text: `${t('puzzle.difficulty')}: ` }),
        h('span', { class: 'stars', 'aria-label': t('puzzle.difficulty.of', { n: p.difficulty }), title: t('puzzle.difficulty.of', { n: p.difficulty }), text: stars }),
        h('span', { class: 'muted', text: ` · ${p.goal === 'shot' ? tn('puzzle.gain', p.gain || 0) : verdictText(turn, { result, plies: Number(plies) || 0 })}` })),
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
      const moves = numbered(this.kind, this, this.start, p.solution);
      mount(e.line,
        h('h2', { class: 'section-title', text: t('puzzle.solution') }),
        h('ol', { class: 'pv puzzle-moves', id: 'puzzle-solution' }, ...moves.map(({ mv, label }, k) => h('li', {},
          h('span', { class: 'muted small', text: `${label} ` }),
          h('button', {
            type: 'button', class: ['move', k === this.step ? 'current' : ''], 'data-step': k,
            'aria-current': k === this.step ? 'step' : null,
            onclick: () => this.setStep(k), text: mv,
          })))),
        h('p', { class: 'small muted', text: t(p.goal === 'shot' ? 'puzzle.solution.note.shot' : 'puzzle.solution.note') }),
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
        onclick: () => { store.forgetSolvedPuzzles(this.list.map((q) => q.id)); toast(t('puzzle.reset.done')); this.update(); },
        text: t('puzzle.reset'),
      }) : null,
      h('p', { class: 'small muted', text: t(this.kind === muehlePuzzles ? 'puzzle.source' : 'puzzle.source.dame') }));
  }
}
