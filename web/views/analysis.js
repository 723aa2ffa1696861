// Analysis board: set up any position (or open one from a game), play moves
// on it, and ask the engine for its best lines with scores and reasons.

import { h, mount, toast } from '../dom.js';
import { t, colorName, fmtNumber } from '../i18n.js';
import { api } from '../api.js';
import { Board } from '../board.js';
import * as M from '../muehle.js';
import { PRESETS, presetName, parseRules } from '../rules.js';
import { isDame } from '../dame.js';
import { DameAnalysisView, gameSelect } from './dame-analysis.js';

export class AnalysisView {
  constructor(root) {
    this.root = root;
    const q = new URLSearchParams(location.search);
    // Dame positions get the Dame analysis board (the constructor returns it).
    if (isDame(q.get('variant'))) return new DameAnalysisView(root, q);
    this.rules = q.get('rules') || 'standard';
    this.fromGame = q.get('game') ? { id: q.get('game'), ply: q.get('ply') } : null;
    this.pos = M.parsePosition(M.START);
    const p = q.get('position');
    if (p) {
      try { this.pos = M.parsePosition(p); } catch (e) { toast(t('analysis.invalid', { error: e.message }), 'error'); }
    }
    this.mode = p ? 'play' : 'setup';
    this.history = [];
    this.selected = null;
    this.pendingMill = null;
    this.result = null;
    this.running = false;
    this.line = null;
    this.timeMs = 1000;
    this.lines = 3;
    this.build();
    this.update();
  }

  destroy() { this.dead = true; }

  relabel() { this.build(); this.update(); }

  ruleOptions() { return parseRules(this.rules).options; }

  legal() {
    return M.legalMoves(this.pos, this.ruleOptions()).map((text) => ({ text, ...M.parseMove(text) }));
  }

  setPos(pos, { keepHistory = false } = {}) {
    if (!keepHistory) this.history = [];
    this.pos = pos;
    this.selected = null;
    this.pendingMill = null;
    this.result = null;
    this.line = null;
    this.update();
  }

  onPoint(p) {
    if (this.line) { this.line = null; this.update(); return; }
    if (this.mode === 'setup') {
      const next = M.clonePosition(this.pos);
      const c = next.board[p];
      if (!c) next.board[p] = 'white';
      else if (c === 'white') next.board[p] = 'black';
      else delete next.board[p];
      this.setPos(next);
      return;
    }
    const legal = this.legal();
    if (this.pendingMill) {
      const pm = this.pendingMill;
      this.pendingMill = null;
      if (pm.removable.has(p)) { this.playMove(M.formatMove({ from: pm.from, to: pm.to, remove: p })); return; }
      this.update();
      return;
    }
    if (legal.some((m) => !m.from)) {
      if (legal.some((m) => m.to === p)) this.choose(null, p);
      return;
    }
    if (this.selected && legal.some((m) => m.from === this.selected && m.to === p)) { this.choose(this.selected, p); return; }
    this.selected = this.pos.board[p] === this.pos.turn && legal.some((m) => m.from === p) && this.selected !== p ? p : null;
    this.update();
  }

  choose(from, to) {
    const c = this.legal().filter((m) => m.from === from && m.to === to);
    if (c.length === 1) this.playMove(c[0].text);
    else if (c.length > 1) {
      this.pendingMill = { from, to, removable: new Set(c.map((m) => m.remove)) };
      this.selected = null;
      this.update();
    }
  }

  playMove(text) {
    const before = this.pos;
    const after = M.applyMove(before, text);
    this.history.push({ pos: before, move: text });
    this.setPos(after, { keepHistory: true });
    this.lastMove = text;
    this.update();
  }

  undo() {
    const prev = this.history.pop();
    if (prev) {
      this.setPos(prev.pos, { keepHistory: true });
      this.lastMove = this.history.length ? this.history[this.history.length - 1].move : null;
      this.update();
    }
  }

  async analyze() {
    if (this.running) return;
    this.running = true;
    this.result = null;
    this.line = null;
    this.update();
    const position = M.formatPosition(this.pos);
    try {
      const res = await api.analyze({
        game: 'muehle', rules: this.rules, position, time_ms: this.timeMs, lines: this.lines,
      });
      if (this.dead) return;
      this.result = { ...res, position };
    } catch (e) {
      toast(e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }), 'error');
    }
    this.running = false;
    this.update();
  }

  scoreText(score, text) {
    if (score && typeof score.mate === 'number') {
      return score.mate > 0 ? t('analysis.win', { n: score.mate }) : t('analysis.loss', { n: -score.mate });
    }
    if (text) return text;
    if (score && typeof score.cp === 'number') return `${score.cp >= 0 ? '+' : ''}${(score.cp / 100).toFixed(2)}`;
    return '';
  }

  build() {
    const els = {};
    this.els = els;
    els.boardWrap = h('div', { class: 'board-wrap' });
    this.board = new Board(els.boardWrap, {
      onPoint: (p) => this.onPoint(p),
      canDrag: (p) => this.mode === 'play' && !this.line && this.pos.board[p] === this.pos.turn && this.legal().some((m) => m.from === p),
      onDragStart: (p) => { this.selected = p; this.update(); },
      onDrag: (from, to) => { if (this.legal().some((m) => m.from === from && m.to === to)) this.choose(from, to); else { this.selected = null; this.update(); } },
      onDragCancel: () => this.update(),
      onEscape: () => { this.selected = null; this.pendingMill = null; this.line = null; this.update(); },
    });
    els.info = h('p', { class: 'muted small' });
    els.side = h('div', { class: 'card' });
    els.results = h('div', { class: 'card results', 'aria-live': 'polite' });
    mount(this.root, h('div', { class: 'analysis-page game-page' },
      h('div', { class: 'board-col' },
        h('div', { class: 'analysis-head' }, h('h1', { text: t('analysis.title') }), els.info),
        els.boardWrap),
      h('aside', { class: 'side-col' }, els.side, els.results)));
  }

  update() {
    if (this.dead) return;
    document.title = `${t('analysis.title')} – brett`;
    const e = this.els;
    // Board
    let shown = this.pos;
    let last = this.lastMove && this.mode === 'play' ? M.parseMove(this.lastMove) : null;
    if (this.line && this.result) {
      const pv = this.result.lines[this.line.index].pv;
      try {
        shown = M.positionsAlong(M.parsePosition(this.result.position), pv.slice(0, this.line.step + 1)).pop();
        last = M.parseMove(pv[this.line.step]);
      } catch { /* keep the position */ }
    }
    let board = shown.board;
    let targets = new Set();
    let movable = new Set();
    let removable = new Set();
    let selected = this.selected;
    const interactive = !this.line;
    if (this.mode === 'play' && !this.line) {
      const legal = this.legal();
      if (this.pendingMill) {
        board = { ...board };
        if (this.pendingMill.from) delete board[this.pendingMill.from];
        board[this.pendingMill.to] = this.pos.turn;
        removable = this.pendingMill.removable;
        selected = this.pendingMill.to;
      } else if (legal.some((m) => !m.from)) targets = new Set(legal.map((m) => m.to));
      else {
        movable = new Set(legal.map((m) => m.from));
        if (this.selected) targets = new Set(legal.filter((m) => m.from === this.selected).map((m) => m.to));
      }
    }
    this.board.render({ board, targets, movable, removable, selected, last, interactive, animate: true, ply: this.history.length });
    e.info.textContent = this.fromGame ? t('analysis.from', { id: this.fromGame.id, n: this.fromGame.ply }) : '';

    // Setup panel (rebuilt; the focused control keeps the focus by its id)
    const focusedId = e.side.contains(document.activeElement) ? document.activeElement.id : null;
    const pos = this.pos;
    const modeBtn = (m) => h('button', {
      type: 'button', class: ['btn', this.mode === m ? 'pressed' : ''], 'aria-pressed': String(this.mode === m), id: `mode-${m}`,
      onclick: () => { this.mode = m; this.selected = null; this.pendingMill = null; this.update(); },
      text: t(`analysis.mode.${m}`),
    });
    const handInput = (c) => h('label', { class: 'hand-input' },
      h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }),
      h('span', { text: colorName(c) }),
      h('input', {
        type: 'number', min: 0, max: 9, value: pos.hand[c], id: `hand-${c}`,
        onchange: (ev) => { const next = M.clonePosition(this.pos); next.hand[c] = Math.max(0, Math.min(9, Number(ev.target.value) || 0)); this.setPos(next); },
      }));
    const posInput = h('input', { type: 'text', id: 'position-text', value: M.formatPosition(pos), spellcheck: 'false', autocomplete: 'off' });
    const ruleSel = h('select', {
      id: 'analysis-rules',
      onchange: (ev) => { this.rules = ev.target.value; this.result = null; this.update(); },
    }, ...[...new Set([this.rules, ...Object.keys(PRESETS)])].map((r) => h('option', { value: r, selected: r === this.rules, text: PRESETS[r] ? presetName(r) : r })));
    const timeSel = h('select', { id: 'analysis-time', onchange: (ev) => { this.timeMs = Number(ev.target.value); } },
      ...[300, 1000, 3000, 10000].map((ms) => h('option', { value: ms, selected: ms === this.timeMs, text: `${ms / 1000} s` })));
    const linesSel = h('select', { id: 'analysis-lines', onchange: (ev) => { this.lines = Number(ev.target.value); } },
      ...[1, 2, 3, 5].map((n) => h('option', { value: n, selected: n === this.lines, text: String(n) })));

    mount(e.side,
      gameSelect('muehle'),
      h('div', { class: 'row mode-row', role: 'group', 'aria-label': t('analysis.setup') }, modeBtn('setup'), modeBtn('play')),
      h('p', { class: 'small muted', text: this.mode === 'setup' ? t('analysis.setup.hint') : t('analysis.play') }),
      this.mode === 'play' ? h('div', { class: 'row' },
        h('button', { class: 'btn', type: 'button', id: 'undo', disabled: this.history.length === 0, onclick: () => this.undo(), text: `↶ ${t('game.takeback')}` }),
        h('button', { class: 'btn', type: 'button', id: 'analysis-flip', onclick: () => { this.board.setFlipped(!this.board.flipped); this.update(); }, text: `⇅ ${t('game.flip')}` })) : null,
      h('fieldset', { class: 'inline' },
        h('legend', { text: t('analysis.side') }),
        ...['white', 'black'].map((c) => h('label', { class: 'choice small' },
          h('input', {
            type: 'radio', name: 'side', value: c, checked: pos.turn === c, id: `side-${c}`,
            onchange: () => { const next = M.clonePosition(this.pos); next.turn = c; this.setPos(next); },
          }),
          h('span', { class: 'choice-body' }, h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }), h('span', { text: colorName(c) }))))),
      h('fieldset', { class: 'inline' }, h('legend', { text: t('analysis.hand') }), handInput('white'), handInput('black')),
      h('form', {
        class: 'field', onsubmit: (ev) => {
          ev.preventDefault();
          try { this.setPos(M.parsePosition(posInput.value)); } catch (err) { toast(t('analysis.invalid', { error: err.message }), 'error'); }
        },
      },
      h('label', { for: 'position-text', text: t('analysis.position') }),
      h('div', { class: 'link-row' }, posInput, h('button', { class: 'btn', type: 'submit', id: 'position-apply', text: t('analysis.apply') }))),
      h('div', { class: 'row' },
        h('button', { class: 'btn', type: 'button', id: 'position-start', onclick: () => this.setPos(M.parsePosition(M.START)), text: t('analysis.start') }),
        h('button', { class: 'btn', type: 'button', id: 'position-clear', onclick: () => this.setPos({ ...M.parsePosition(M.START), hand: { white: 0, black: 0 } }), text: t('analysis.clear') })),
      h('div', { class: 'grid3' },
        h('div', { class: 'field' }, h('label', { for: 'analysis-rules', text: t('analysis.rules') }), ruleSel),
        h('div', { class: 'field' }, h('label', { for: 'analysis-time', text: t('analysis.time') }), timeSel),
        h('div', { class: 'field' }, h('label', { for: 'analysis-lines', text: t('analysis.lines') }), linesSel)),
      h('button', { class: 'btn primary big', type: 'button', id: 'analyze-btn', disabled: this.running, onclick: () => this.analyze() },
        this.running ? t('analysis.running') : t('analysis.run')));

    if (focusedId) document.getElementById(focusedId)?.focus();

    // Results
    const r = this.result;
    e.results.hidden = !r && !this.running;
    if (this.running) {
      mount(e.results, h('p', { class: 'thinking' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text: t('analysis.running') })));
    } else if (r) {
      mount(e.results,
        h('h2', { class: 'section-title', text: t('analysis.result') }),
        h('p', { class: 'muted small', text: t('analysis.stats', { depth: r.depth, nodes: fmtNumber(r.nodes), time: (r.time_ms / 1000).toFixed(1) }) }),
        r.lines.length === 0 ? h('p', { text: t('analysis.noMoves') }) : null,
        h('ol', { class: 'lines' }, ...r.lines.map((line, i) => h('li', { class: 'line' },
          h('div', { class: 'line-head' },
            h('span', { class: ['score', line.score && (line.score.mate > 0 || line.score.cp > 0) ? 'good' : line.score && (line.score.mate < 0 || line.score.cp < 0) ? 'bad' : ''], text: this.scoreText(line.score, line.score_text) }),
            h('div', { class: 'pv' }, ...line.pv.map((mv, k) => h('button', {
              type: 'button', class: ['move', this.line && this.line.index === i && this.line.step === k ? 'current' : ''],
              onclick: () => { this.line = { index: i, step: k }; this.update(); }, text: mv,
            })))),
          line.why && line.why.length ? h('ul', { class: 'why small' }, ...line.why.map((w) => h('li', { text: w }))) : null))),
        this.line ? h('button', { class: 'btn', type: 'button', onclick: () => { this.line = null; this.update(); }, text: t('analysis.back') }) : null);
    } else {
      mount(e.results);
    }
  }
}
