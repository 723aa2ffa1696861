// Analysis board for Dame: set up any position (or open one from a game),
// play moves on it by the rules of the chosen variant, and ask the engine
// for its best lines (POST /api/analyze with "game": "dame…").

import { h } from '../dom.js';
import { t, tn } from '../i18n.js';
import { DameBoard } from '../dameboard.js';
import * as D from '../dame.js';
import { clickSquare, boardHandlers, inputMarks } from '../dameinput.js';
import { gameName, parseDameRules, describeDameOptions } from '../rules.js';
import { gamesOf } from '../catalogue.js';
import {
  AnalysisBase, gameSelect, requestAnalysis, mountKeepingFocus, modeRow, playRow, sideFieldset, positionForm,
  startClearRow, timeField, linesField, analyzeButton, renderResults,
} from './analysis-common.js';

export class DameAnalysisView extends AnalysisBase {
  constructor(root, q) {
    super();
    this.root = root;
    this.game = gamesOf('dame').includes(q.get('variant')) ? q.get('variant') : 'dame';
    this.rules = q.get('rules') || this.game;
    this.options = parseDameRules(this.rules, this.game).options;
    this.size = D.boardSizeOf(this.game);
    this.initAnalysis(q, D.parseFen(D.START[this.size], this.size), (text) => D.parseFen(text, this.size));
    this.dsel = null;
    this.build();
    this.update();
  }

  legal() {
    return D.describeMoves(this.pos, D.legalMoves(this.pos, this.options));
  }

  setPos(pos, { keepHistory = false } = {}) {
    if (!keepHistory) { this.history = []; this.lastMove = null; }
    this.pos = pos;
    this.dsel = null;
    this.result = null;
    this.line = null;
    this.update();
  }

  onSquare(sq, { drag = false } = {}) {
    if (this.line) { this.line = null; this.update(); return; }
    if (this.mode === 'setup') {
      const next = D.clonePosition(this.pos);
      const p = next.board[sq];
      const cycle = [null, ['white', false], ['white', true], ['black', false], ['black', true]];
      const i = p ? cycle.findIndex((c) => c && c[0] === p.color && c[1] === p.king) : 0;
      const n = cycle[(i + 1) % cycle.length];
      if (n) next.board[sq] = { color: n[0], king: n[1] };
      else delete next.board[sq];
      this.setPos(next);
      return;
    }
    clickSquare(this, sq, (text) => this.playMove(text), { drag });
  }

  gameId() { return this.game; }

  posText() { return D.formatFen(this.pos); }

  applyMove(pos, text) { return D.applyMove(pos, text, this.options); }

  analyze() {
    return requestAnalysis(this, this.game, D.formatFen(this.pos));
  }

  build() {
    this.buildPage(`${t('analysis.title')} · ${gameName(this.game)}`, (host) => new DameBoard(host, this.size,
      boardHandlers(this, () => this.mode === 'play' && !this.line, () => { this.line = null; })), { 'data-game': this.game });
  }

  update() {
    if (this.dead) return;
    document.title = `${t('analysis.title')} – brett`;
    const e = this.els;
    let shown = this.pos;
    let last = null;
    const lastOf = (before, text) => {
      const m = D.parseMove(text, this.size);
      return m ? { path: m.path, captured: m.capture ? D.capturedBy(before, m.path) : [] } : null;
    };
    if (this.lastMove && this.mode === 'play') last = lastOf(this.lastMove.before, this.lastMove.text);
    if (this.line && this.result) {
      const pv = this.result.lines[this.line.index].pv;
      try {
        const list = D.positionsAlong(D.parseFen(this.result.position, this.size), pv.slice(0, this.line.step + 1), [], this.options);
        shown = list[list.length - 1];
        last = lastOf(list[list.length - 2], pv[this.line.step]);
      } catch { /* keep the position */ }
    }
    const interactive = !this.line;
    const legal = this.mode === 'play' && !this.line ? this.legal() : [];
    const marks = this.mode === 'play' && !this.line ? inputMarks(legal, this.dsel) : { selected: null };
    this.board.render({ board: shown.board, ...marks, last, interactive, animate: true, ply: this.history.length });
    e.info.textContent = this.fromGame ? tn('analysis.from', Number(this.fromGame.ply), { id: this.fromGame.id }) : '';

    const compulsory = this.mode === 'play' && legal.length > 0 && legal.every((m) => m.capture);
    const start = () => D.parseFen(D.START[this.size], this.size);
    mountKeepingFocus(e.side,
      gameSelect(this.game),
      modeRow(this, () => { this.dsel = null; }),
      h('p', { class: 'small muted', text: this.mode === 'setup' ? t('analysis.setup.hintDame') : t('analysis.play') }),
      compulsory ? h('p', { class: 'hint compulsory', text: t('dame.compulsory') }) : null,
      playRow(this),
      sideFieldset(this, D.clonePosition),
      positionForm(this, D.formatFen(this.pos), (text) => D.parseFen(text, this.size)),
      startClearRow(this, start, () => ({ ...start(), board: {} })),
      h('ul', { class: 'rule-list small muted' }, ...describeDameOptions(this.options).map((x) => h('li', { text: x }))),
      h('div', { class: 'grid3' }, timeField(this), linesField(this)),
      analyzeButton(this));

    renderResults(this);
    this.teach();
  }
}
