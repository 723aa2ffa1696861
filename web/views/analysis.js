// Analysis board: set up any position (or open one from a game), play moves
// on it, and ask the engine for its best lines with scores and reasons.

import { h } from '../dom.js';
import { t, tn, colorName } from '../i18n.js';
import { Board } from '../board.js';
import * as M from '../muehle.js';
import { clickPoint, choose, boardHandlers, inputMarks } from '../millinput.js';
import { muehlePresets, presetName, parseRules, describeOptions } from '../rules.js';
import { familyOf } from '../catalogue.js';
import { DameAnalysisView } from './dame-analysis.js';
import { tablebaseStatus, statusBox, verdictText, moveValueText } from '../tablebase.js';
import {
  AnalysisBase, gameSelect, requestAnalysis, mountKeepingFocus, modeRow, playRow, sideFieldset, positionForm,
  startClearRow, timeField, linesField, analyzeButton, renderResults,
} from './analysis-common.js';

export class AnalysisView extends AnalysisBase {
  constructor(root) {
    super();
    this.root = root;
    const q = new URLSearchParams(location.search);
    // Dame positions get the Dame analysis board (the constructor returns it).
    if (familyOf(q.get('variant')) === 'dame') return new DameAnalysisView(root, q);
    this.rules = q.get('rules') || 'standard';
    this.initAnalysis(q, M.parsePosition(M.startPosition(this.ruleOptions())), (text) => M.parsePosition(text));
    this.selected = null;
    this.pendingMill = null;
    this.tbStatus = null;
    this.build();
    this.update();
    this.loadStatus();
  }

  /** Whether the perfect-play databases are installed for the rules chosen. */
  async loadStatus() {
    const rules = this.rules;
    const status = await tablebaseStatus(rules);
    if (this.dead || rules !== this.rules) return;
    this.tbStatus = status;
    // Only the databases' card: the rest of the side panel (a position
    // being typed, say) stays as it is.
    this.renderDatabase();
  }

  /** The databases' card: their verdict on the analysed position and each move's value, and their status. */
  renderDatabase() {
    const el = this.els.db;
    if (!el) return;
    const r = this.result;
    const db = r && !this.running ? r.database : null;
    const parts = [];
    if (db) {
      const here = r.position === M.formatPosition(this.pos);
      parts.push(
        h('h2', { class: 'section-title', text: t('tb.analysis.title') }),
        h('p', { class: ['tb-verdict', db.result], id: 'tb-verdict', text: verdictText(db.turn, db) }),
        db.exact ? null : h('p', { class: 'small muted', text: t('tb.analysis.counter') }),
        h('p', { class: 'small muted', text: t('tb.analysis.moves') }),
        h('ol', { class: 'tb-moves', id: 'tb-moves' }, ...db.moves.map((m) => h('li', { class: ['tb-move', m.result], 'data-move': m.move },
          h('button', {
            type: 'button', class: 'move', disabled: !here || this.mode !== 'play',
            title: t('tb.analysis.playMove'),
            onclick: () => { if (r.position === M.formatPosition(this.pos)) this.playMove(m.move); },
            text: m.move,
          }),
          h('span', { class: 'tb-value', text: moveValueText(m) })))));
    }
    const box = statusBox(this.tbStatus);
    if (box) parts.push(box);
    el.hidden = parts.length === 0;
    mountKeepingFocus(el, ...parts);
  }

  ruleOptions() { return parseRules(this.rules).options; }

  /**
   * Analyses by rules `rules` from now on: a board of other stones starts
   * from its own start position (the board is drawn anew when its lines
   * differ); the position stays where the stones fit.
   */
  setRules(rules) {
    const before = M.geometryOf(this.ruleOptions());
    this.rules = rules;
    this.result = null;
    this.tbStatus = null;
    const after = M.geometryOf(this.ruleOptions());
    if (after.stones !== before.stones) {
      this.pos = M.parsePosition(M.startPosition(this.ruleOptions()));
      this.history = [];
      this.lastMove = null;
    }
    const redraw = after.name !== this.boardName;
    if (redraw) this.build();
    this.selected = null;
    this.pendingMill = null;
    this.update();
    if (redraw) document.getElementById('analysis-rules')?.focus();
    this.loadStatus();
  }

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
    clickPoint(this, p, (text) => this.playMove(text));
  }

  choose(from, to) {
    choose(this, from, to, (text) => this.playMove(text));
  }

  gameId() { return 'muehle'; }

  posText() { return M.formatPosition(this.pos); }

  applyMove(pos, text) { return M.applyMove(pos, text, this.ruleOptions()); }

  analyze() {
    return requestAnalysis(this, 'muehle', M.formatPosition(this.pos));
  }

  build() {
    this.boardName = this.ruleOptions().board;
    this.buildPage(t('analysis.title'), (host) => new Board(host,
      boardHandlers(this, () => this.mode === 'play' && !this.line, () => { this.line = null; }), this.ruleOptions()));
    this.els.db = h('div', { class: 'card tb-card', id: 'tb-card', hidden: true });
    this.els.results.after(this.els.db);
  }

  update() {
    if (this.dead) return;
    document.title = `${t('analysis.title')} – brett`;
    const e = this.els;
    // Board
    let shown = this.pos;
    let last = this.lastMove && this.mode === 'play' ? M.parseMove(this.lastMove.text) : null;
    if (this.line && this.result) {
      const pv = this.result.lines[this.line.index].pv;
      try {
        shown = M.positionsAlong(M.parsePosition(this.result.position), pv.slice(0, this.line.step + 1), this.ruleOptions()).pop();
        last = M.parseMove(pv[this.line.step]);
      } catch { /* keep the position */ }
    }
    const interactive = !this.line;
    const marks = this.mode === 'play' && !this.line
      ? inputMarks(this.pos, this.legal(), this.selected, this.pendingMill)
      : { board: shown.board, selected: this.selected };
    this.board.render({ ...marks, last, interactive, animate: true, ply: this.history.length });
    e.info.textContent = this.fromGame ? tn('analysis.from', Number(this.fromGame.ply), { id: this.fromGame.id }) : '';

    // Setup panel (rebuilt; the focused control keeps the focus by its id)
    const pos = this.pos;
    const options = this.ruleOptions();
    const stones = M.geometryOf(options).stones;
    const handInput = (c) => h('label', { class: 'hand-input' },
      h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }),
      h('span', { text: colorName(c) }),
      h('input', {
        type: 'number', min: 0, max: stones, value: pos.hand[c], id: `hand-${c}`,
        onchange: (ev) => { const next = M.clonePosition(this.pos); next.hand[c] = Math.max(0, Math.min(stones, Number(ev.target.value) || 0)); this.setPos(next); },
      }));
    const presets = muehlePresets();
    const ruleSel = h('select', {
      id: 'analysis-rules',
      onchange: (ev) => { this.setRules(ev.target.value); },
    }, ...[...new Set([this.rules, ...Object.keys(presets)])].map((r) => h('option', { value: r, selected: r === this.rules, text: presets[r] ? presetName(r) : r })));

    mountKeepingFocus(e.side,
      gameSelect('muehle'),
      modeRow(this, () => { this.selected = null; this.pendingMill = null; }),
      h('p', { class: 'small muted', text: this.mode === 'setup' ? t('analysis.setup.hint') : t('analysis.play') }),
      playRow(this),
      sideFieldset(this, M.clonePosition),
      h('fieldset', { class: 'inline' }, h('legend', { text: t('analysis.hand') }), handInput('white'), handInput('black')),
      positionForm(this, M.formatPosition(pos), (text) => M.parsePosition(text)),
      startClearRow(this, () => M.parsePosition(M.startPosition(options)), () => ({ ...M.parsePosition(M.startPosition(options)), hand: { white: 0, black: 0 } })),
      h('div', { class: 'grid3' },
        h('div', { class: 'field' }, h('label', { for: 'analysis-rules', text: t('analysis.rules') }), ruleSel),
        timeField(this),
        linesField(this)),
      h('ul', { class: 'rule-list small muted', id: 'analysis-rule-list' }, ...describeOptions(options).map((x) => h('li', { text: x }))),
      analyzeButton(this));

    renderResults(this);
    this.teach();
    this.renderDatabase();
  }
}
