// Analysis board for Dame: set up any position (or open one from a game),
// play moves on it by the rules of the chosen variant, and ask the engine
// for its best lines (POST /api/analyze with "game": "dame…").

import { h, mount, toast } from '../dom.js';
import { t, colorName, fmtNumber } from '../i18n.js';
import { api } from '../api.js';
import { DameBoard } from '../dameboard.js';
import * as D from '../dame.js';
import { navigate } from '../nav.js';
import { gameName, parseDameRules, describeDameOptions } from '../rules.js';

export const ANALYSIS_GAMES = ['muehle', 'dame', 'dame-100', 'dame-fr', 'international'];

/** The game chooser of both analysis views. */
export function gameSelect(current) {
  return h('div', { class: 'field' },
    h('label', { for: 'analysis-game', text: t('analysis.game') }),
    h('select', {
      id: 'analysis-game',
      onchange: (ev) => navigate(ev.target.value === 'muehle' ? '/analysis' : `/analysis?variant=${ev.target.value}`, { replace: true }),
    }, ...ANALYSIS_GAMES.map((g) => h('option', { value: g, selected: g === current, text: gameName(g) }))));
}

export class DameAnalysisView {
  constructor(root, q) {
    this.root = root;
    this.game = D.isDame(q.get('variant')) ? q.get('variant') : 'dame';
    this.rules = q.get('rules') || this.game;
    this.options = parseDameRules(this.rules, this.game).options;
    this.size = D.boardSizeOf(this.game);
    this.fromGame = q.get('game') ? { id: q.get('game'), ply: q.get('ply') } : null;
    this.pos = D.parseFen(D.START[this.size], this.size);
    const p = q.get('position');
    if (p) {
      try { this.pos = D.parseFen(p, this.size); } catch (e) { toast(t('analysis.invalid', { error: e.message }), 'error'); }
    }
    this.mode = p ? 'play' : 'setup';
    this.history = [];
    this.dsel = null;
    this.result = null;
    this.running = false;
    this.line = null;
    this.lastMove = null;
    this.timeMs = 1000;
    this.lines = 3;
    this.build();
    this.update();
  }

  destroy() { this.dead = true; }

  relabel() { this.build(); this.update(); }

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
    const moves = this.legal();
    if (this.dsel) {
      const clicks = [...this.dsel.clicks, sq];
      const r = D.matchClicks(moves, { from: this.dsel.from, clicks });
      if (r.candidates.length) {
        if (r.chosen) this.playMove(r.chosen.text);
        else { this.dsel = { from: this.dsel.from, clicks }; this.update(); }
        return;
      }
      if (drag) { this.dsel = null; this.update(); return; }
    }
    const p = this.pos.board[sq];
    if (p && p.color === this.pos.turn && moves.some((m) => m.from === sq)) {
      this.dsel = this.dsel && this.dsel.from === sq ? null : { from: sq, clicks: [] };
    } else this.dsel = null;
    this.update();
  }

  playMove(text) {
    const before = this.pos;
    const after = D.applyMove(before, text);
    this.history.push({ pos: before, move: text });
    this.setPos(after, { keepHistory: true });
    this.lastMove = { text, before };
    this.update();
  }

  undo() {
    const prev = this.history.pop();
    if (!prev) return;
    this.setPos(prev.pos, { keepHistory: true });
    const h2 = this.history[this.history.length - 1];
    this.lastMove = h2 ? { text: h2.move, before: h2.pos } : null;
    this.update();
  }

  async analyze() {
    if (this.running) return;
    this.running = true;
    this.result = null;
    this.line = null;
    this.update();
    const position = D.formatFen(this.pos);
    try {
      const res = await api.analyze({
        game: this.game, rules: this.rules, position, time_ms: this.timeMs, lines: this.lines,
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
    this.board = new DameBoard(els.boardWrap, this.size, {
      onSquare: (sq) => this.onSquare(sq),
      canDrag: (sq) => this.mode === 'play' && !this.line && this.pos.board[sq]?.color === this.pos.turn
        && this.legal().some((m) => m.from === sq),
      onDragStart: (sq) => { this.dsel = { from: sq, clicks: [] }; this.update(); },
      onDrag: (from, to) => { this.dsel = { from, clicks: [] }; this.onSquare(to, { drag: true }); },
      onDragCancel: () => this.update(),
      onEscape: () => { this.dsel = null; this.line = null; this.update(); },
    });
    els.info = h('p', { class: 'muted small' });
    els.side = h('div', { class: 'card' });
    els.results = h('div', { class: 'card results', 'aria-live': 'polite' });
    mount(this.root, h('div', { class: 'analysis-page game-page', 'data-game': this.game },
      h('div', { class: 'board-col' },
        h('div', { class: 'analysis-head' }, h('h1', { text: `${t('analysis.title')} · ${gameName(this.game)}` }), els.info),
        els.boardWrap),
      h('aside', { class: 'side-col' }, els.side, els.results)));
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
        const list = D.positionsAlong(D.parseFen(this.result.position, this.size), pv.slice(0, this.line.step + 1));
        shown = list[list.length - 1];
        last = lastOf(list[list.length - 2], pv[this.line.step]);
      } catch { /* keep the position */ }
    }
    let targets = new Set();
    let movable = new Set();
    let capturing = new Set();
    let path = [];
    let selected = null;
    const interactive = !this.line;
    let legal = [];
    if (this.mode === 'play' && !this.line) {
      legal = this.legal();
      movable = new Set(legal.map((m) => m.from));
      if (this.dsel) {
        const r = D.matchClicks(legal, this.dsel);
        selected = this.dsel.from;
        targets = r.next;
        if (this.dsel.clicks.length) { capturing = r.common; path = D.chosenPath(legal, this.dsel); }
      }
    }
    this.board.render({
      board: shown.board, targets, movable, capturing, path, selected, last, interactive, animate: true, ply: this.history.length,
    });
    e.info.textContent = this.fromGame ? t('analysis.from', { id: this.fromGame.id, n: this.fromGame.ply }) : '';

    const focusedId = e.side.contains(document.activeElement) ? document.activeElement.id : null;
    const pos = this.pos;
    const modeBtn = (m) => h('button', {
      type: 'button', class: ['btn', this.mode === m ? 'pressed' : ''], 'aria-pressed': String(this.mode === m), id: `mode-${m}`,
      onclick: () => { this.mode = m; this.dsel = null; this.update(); },
      text: t(`analysis.mode.${m}`),
    });
    const posInput = h('input', { type: 'text', id: 'position-text', value: D.formatFen(pos), spellcheck: 'false', autocomplete: 'off' });
    const timeSel = h('select', { id: 'analysis-time', onchange: (ev) => { this.timeMs = Number(ev.target.value); } },
      ...[300, 1000, 3000, 10000].map((ms) => h('option', { value: ms, selected: ms === this.timeMs, text: `${ms / 1000} s` })));
    const linesSel = h('select', { id: 'analysis-lines', onchange: (ev) => { this.lines = Number(ev.target.value); } },
      ...[1, 2, 3, 5].map((n) => h('option', { value: n, selected: n === this.lines, text: String(n) })));
    const compulsory = this.mode === 'play' && legal.length > 0 && legal.every((m) => m.capture);

    mount(e.side,
      gameSelect(this.game),
      h('div', { class: 'row mode-row', role: 'group', 'aria-label': t('analysis.setup') }, modeBtn('setup'), modeBtn('play')),
      h('p', { class: 'small muted', text: this.mode === 'setup' ? t('analysis.setup.hintDame') : t('analysis.play') }),
      compulsory ? h('p', { class: 'hint compulsory', text: t('dame.compulsory') }) : null,
      this.mode === 'play' ? h('div', { class: 'row' },
        h('button', { class: 'btn', type: 'button', id: 'undo', disabled: this.history.length === 0, onclick: () => this.undo(), text: `↶ ${t('game.takeback')}` }),
        h('button', { class: 'btn', type: 'button', id: 'analysis-flip', onclick: () => { this.board.setFlipped(!this.board.flipped); this.update(); }, text: `⇅ ${t('game.flip')}` })) : null,
      h('fieldset', { class: 'inline' },
        h('legend', { text: t('analysis.side') }),
        ...['white', 'black'].map((c) => h('label', { class: 'choice small' },
          h('input', {
            type: 'radio', name: 'side', value: c, checked: pos.turn === c, id: `side-${c}`,
            onchange: () => { const next = D.clonePosition(this.pos); next.turn = c; this.setPos(next); },
          }),
          h('span', { class: 'choice-body' }, h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }), h('span', { text: colorName(c) }))))),
      h('form', {
        class: 'field', onsubmit: (ev) => {
          ev.preventDefault();
          try { this.setPos(D.parseFen(posInput.value, this.size)); } catch (err) { toast(t('analysis.invalid', { error: err.message }), 'error'); }
        },
      },
      h('label', { for: 'position-text', text: t('analysis.position') }),
      h('div', { class: 'link-row' }, posInput, h('button', { class: 'btn', type: 'submit', id: 'position-apply', text: t('analysis.apply') }))),
      h('div', { class: 'row' },
        h('button', { class: 'btn', type: 'button', id: 'position-start', onclick: () => this.setPos(D.parseFen(D.START[this.size], this.size)), text: t('analysis.start') }),
        h('button', { class: 'btn', type: 'button', id: 'position-clear', onclick: () => this.setPos({ ...D.parseFen(D.START[this.size], this.size), board: {} }), text: t('analysis.clear') })),
      h('ul', { class: 'rule-list small muted' }, ...describeDameOptions(this.options).map((x) => h('li', { text: x }))),
      h('div', { class: 'grid3' },
        h('div', { class: 'field' }, h('label', { for: 'analysis-time', text: t('analysis.time') }), timeSel),
        h('div', { class: 'field' }, h('label', { for: 'analysis-lines', text: t('analysis.lines') }), linesSel)),
      h('button', { class: 'btn primary big', type: 'button', id: 'analyze-btn', disabled: this.running, onclick: () => this.analyze() },
        this.running ? t('analysis.running') : t('analysis.run')));

    if (focusedId) document.getElementById(focusedId)?.focus();

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
