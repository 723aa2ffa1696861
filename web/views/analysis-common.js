// What the Mühle and the Dame analysis boards (analysis.js, dame-analysis.js)
// share: their common state and moves (AnalysisBase), the game chooser, the
// engine request, the controls of the side panel and the engine's lines.
// `view` is the analysis view; it has mode, pos, history, board, running,
// result, line, timeMs, lines, els and the methods update, setPos, undo and
// analyze.

import { h, mount, toast } from '../dom.js';
import { t, tn, colorName, fmtNumber, errorText } from '../i18n.js';
import { api } from '../api.js';
import { navigate } from '../nav.js';
import { gameName } from '../rules.js';
import { gameNames } from '../catalogue.js';
import { drawMoves } from '../arrows.js';
import { evalBar, setBar, verdictOf, renderBestLine, continueCard, scoreWords } from '../teach.js';

/**
 * State and methods of both analysis views. A view calls initAnalysis in its
 * constructor, buildPage in its build and teach at the end of its update,
 * and has setPos, update, applyMove(pos, text), gameId() (the API's game)
 * and posText() (the position as text).
 */
export class AnalysisBase {
  /**
   * The position from the address (a bad one is reported and `start` kept;
   * with one the view opens in play mode), the game it came from, no history
   * and no engine result yet. `parse` reads a position text and throws on a
   * bad one.
   */
  initAnalysis(q, start, parse) {
    this.fromGame = q.get('game') ? { id: q.get('game'), ply: q.get('ply') } : null;
    this.pos = start;
    const p = q.get('position');
    if (p) {
      try { this.pos = parse(p); } catch (e) { toast(t('analysis.invalid', { error: errorText(e) }), 'error'); }
    }
    this.mode = p ? 'play' : 'setup';
    this.history = [];
    this.result = null;
    this.running = false;
    this.line = null;
    this.lastMove = null;
    this.timeMs = 1000;
    this.lines = 3;
    // The engine's line under the pointer or focus (its arrow stands out).
    this.hoverLine = null;
    this.continueState = { kind: 'computer', level: 5, color: this.pos.turn === 'black' ? 'black' : 'white' };
  }

  /**
   * Lays out the page: the heading `title`, the board (`makeBoard` gets
   * its host element and returns it) and the side column with the controls
   * (els.side) and the engine's lines (els.results). `attrs`: more
   * attributes of the page element.
   */
  buildPage(title, makeBoard, attrs = {}) {
    const els = {};
    this.els = els;
    els.boardWrap = h('div', { class: 'board-wrap' });
    this.board = makeBoard(els.boardWrap);
    els.info = h('p', { class: 'muted small' });
    els.side = h('div', { class: 'card' });
    els.results = h('div', { class: 'card results', 'aria-live': 'polite' });
    els.bar = evalBar();
    els.best = h('div', { class: 'best-line', id: 'best-line', 'aria-live': 'polite', hidden: true });
    mount(this.root, h('div', { class: 'analysis-page game-page', ...attrs },
      h('div', { class: 'board-col' },
        h('div', { class: 'analysis-head' }, h('h1', { text: title }), els.info),
        h('div', { class: 'teach-board' }, els.bar, els.boardWrap),
        els.best),
      h('aside', { class: 'side-col' }, els.side, els.results,
        continueCard(this.continueState, () => ({ game: this.gameId(), rules: this.rules, position: this.posText() })))));
  }

  /** The engine's answer when it is about the position on the board (and not being replaced). */
  currentResult() {
    const r = this.result;
    return r && !this.running && r.position === this.posText() ? r : null;
  }

  /**
   * The engine's moves as arrows: the best three lines' first moves (the
   * hovered line's stressed), or, while a line is stepped through, the
   * line's next move; none once the position changed.
   */
  showArrows() {
    const r = this.currentResult();
    let moves = [];
    let focus = null;
    if (r && this.line) {
      const next = r.lines[this.line.index]?.pv[this.line.step + 1];
      if (next) moves = [next];
    } else if (r) {
      moves = r.lines.map((l) => l.move);
      focus = this.hoverLine;
    }
    drawMoves(this.board, this.gameId(), moves, focus);
  }

  /** The arrows, the evaluation bar and the best line under the board. */
  teach() {
    const r = this.currentResult();
    const verdict = r ? verdictOf(r, r.turn, this.gameId()) : null;
    setBar(this.els.bar, verdict ? verdict.share : null, verdict ? verdict.words : '');
    renderBestLine(this.els.best, verdict, r && r.lines[0] ? r.lines[0].pv : null);
    this.showArrows();
  }

  destroy() { this.dead = true; }

  relabel() { this.build(); this.update(); }

  /** Plays a move on the board; lastMove is {text, before} for drawing it. */
  playMove(text) {
    const before = this.pos;
    const after = this.applyMove(before, text);
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
}

/** The game chooser of both analysis views. */
export function gameSelect(current) {
  return h('div', { class: 'field' },
    h('label', { for: 'analysis-game', text: t('analysis.game') }),
    h('select', {
      id: 'analysis-game',
      onchange: (ev) => navigate(ev.target.value === 'muehle' ? '/analysis' : `/analysis?variant=${ev.target.value}`, { replace: true }),
    }, ...gameNames().map((g) => h('option', { value: g, selected: g === current, text: gameName(g) }))));
}

/** How often a busy engine is asked again by itself before the view gives up. */
const BUSY_RETRIES = 3;

/**
 * Asks the engine (POST /api/analyze) for its best lines in `position`.
 * When the engine is busy (503 engine_busy) or this browser is over its
 * share (429 rate_limited), the view says so (view.busy) and asks again by
 * itself after the seconds the server gives, while the position stays.
 */
export async function requestAnalysis(view, game, position, { retry = false } = {}) {
  if (view.running) return;
  clearTimeout(view.busyTimer);
  if (!retry) view.busyTries = 0;
  const pos = view.pos;
  view.busy = null;
  view.running = true;
  view.result = null;
  view.line = null;
  view.update();
  try {
    const res = await api.analyze({
      game, rules: view.rules, position, time_ms: view.timeMs, lines: view.lines,
    });
    if (view.dead) return;
    view.result = { ...res, position, turn: pos.turn };
    view.hoverLine = null;
  } catch (e) {
    if (view.dead) return;
    if ((e.code === 'engine_busy' || e.code === 'rate_limited') && e.retryAfter) {
      const secs = Math.max(1, Math.min(Math.round(e.retryAfter), 120));
      const again = view.busyTries < BUSY_RETRIES;
      view.busy = { code: e.code, queue: e.queuePosition, secs: again ? secs : null, pos };
      if (again) {
        view.busyTries += 1;
        view.busyTimer = setTimeout(() => {
          if (!view.dead && !view.running && view.busy && view.pos === pos) {
            requestAnalysis(view, game, position, { retry: true });
          }
        }, secs * 1000);
      }
    } else if (e.detail) {
      // The server found the position wrong (a rule the board's own check
      // does not know, e.g. too many stones): in the player's language.
      toast(t('analysis.invalid', { error: errorText(e) }), 'error');
    } else {
      toast(e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }), 'error');
    }
  }
  view.running = false;
  view.update();
}

/** A score as text: a win or loss in n moves, the engine's own words, or pawns. */
export function scoreText(score, text) {
  if (score && typeof score.mate === 'number') {
    return score.mate > 0 ? t('analysis.win', { n: score.mate }) : t('analysis.loss', { n: -score.mate });
  }
  if (score && typeof score.cp === 'number') {
    return fmtNumber(score.cp / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'always' });
  }
  return text || '';
}

/** Rebuilds a panel; the focused control in it keeps the focus by its id. */
export function mountKeepingFocus(el, ...children) {
  const focusedId = el.contains(document.activeElement) ? document.activeElement.id : null;
  mount(el, ...children);
  if (focusedId) document.getElementById(focusedId)?.focus();
}

/** The setup / play switch; `reset` drops the view's selection. */
export function modeRow(view, reset) {
  const modeBtn = (m) => h('button', {
    type: 'button', class: ['btn', view.mode === m ? 'pressed' : ''], 'aria-pressed': String(view.mode === m), id: `mode-${m}`,
    onclick: () => { view.mode = m; reset(); view.update(); },
    text: t(`analysis.mode.${m}`),
  });
  return h('div', { class: 'row mode-row', role: 'group', 'aria-label': t('analysis.setup') }, modeBtn('setup'), modeBtn('play'));
}

/** Take back and flip, in play mode. */
export function playRow(view) {
  if (view.mode !== 'play') return null;
  return h('div', { class: 'row' },
    h('button', { class: 'btn', type: 'button', id: 'undo', disabled: view.history.length === 0, onclick: () => view.undo(), text: `↶ ${t('game.takeback')}` }),
    h('button', { class: 'btn', type: 'button', id: 'analysis-flip', onclick: () => { view.board.setFlipped(!view.board.flipped); view.update(); }, text: `⇅ ${t('game.flip')}` }));
}

/** The side to move; `clonePosition` is the game's. */
export function sideFieldset(view, clonePosition) {
  return h('fieldset', { class: 'inline' },
    h('legend', { text: t('analysis.side') }),
    ...['white', 'black'].map((c) => h('label', { class: 'choice small' },
      h('input', {
        type: 'radio', name: 'side', value: c, checked: view.pos.turn === c, id: `side-${c}`,
        onchange: () => { const next = clonePosition(view.pos); next.turn = c; view.setPos(next); },
      }),
      h('span', { class: 'choice-body' }, h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }), h('span', { text: colorName(c) })))));
}

/** The position as text, to edit; `parse` reads it back (and throws on a bad one). */
export function positionForm(view, text, parse) {
  const posInput = h('input', { type: 'text', id: 'position-text', value: text, spellcheck: 'false', autocomplete: 'off' });
  return h('form', {
    class: 'field', onsubmit: (ev) => {
      ev.preventDefault();
      try { view.setPos(parse(posInput.value)); } catch (err) { toast(t('analysis.invalid', { error: errorText(err) }), 'error'); }
    },
  },
  h('label', { for: 'position-text', text: t('analysis.position') }),
  h('div', { class: 'link-row' }, posInput, h('button', { class: 'btn', type: 'submit', id: 'position-apply', text: t('analysis.apply') })));
}

/** The start position and the empty board. */
export function startClearRow(view, start, empty) {
  return h('div', { class: 'row' },
    h('button', { class: 'btn', type: 'button', id: 'position-start', onclick: () => view.setPos(start()), text: t('analysis.start') }),
    h('button', { class: 'btn', type: 'button', id: 'position-clear', onclick: () => view.setPos(empty()), text: t('analysis.clear') }));
}

/** The engine's thinking time. */
export function timeField(view) {
  const timeSel = h('select', { id: 'analysis-time', onchange: (ev) => { view.timeMs = Number(ev.target.value); } },
    ...[300, 1000, 3000, 10000].map((ms) => h('option', { value: ms, selected: ms === view.timeMs, text: `${fmtNumber(ms / 1000)} s` })));
  return h('div', { class: 'field' }, h('label', { for: 'analysis-time', text: t('analysis.time') }), timeSel);
}

/** How many lines the engine gives. */
export function linesField(view) {
  const linesSel = h('select', { id: 'analysis-lines', onchange: (ev) => { view.lines = Number(ev.target.value); } },
    ...[1, 2, 3, 5].map((n) => h('option', { value: n, selected: n === view.lines, text: String(n) })));
  return h('div', { class: 'field' }, h('label', { for: 'analysis-lines', text: t('analysis.lines') }), linesSel);
}

export function analyzeButton(view) {
  return h('button', { class: 'btn primary big', type: 'button', id: 'analyze-btn', disabled: view.running, onclick: () => view.analyze() },
    view.running ? t('analysis.running') : t('analysis.run'));
}

/** The results card: a spinner while the engine thinks, then its lines (a click on a move shows it). */
/**
 * A reason of the engine in the player's language: the server sends each
 * with a code and parameters (docs/API.md); its English text is the
 * fallback for a code this page does not know.
 */
function reasonText(r) {
  const key = `why.${r.code}`;
  const params = { ...(r.params || {}) };
  if (params.color) params.color = colorName(params.color);
  if (params.kings !== undefined) params.kings = fmtNumber(Number(params.kings));
  const text = params.n !== undefined ? tn(key, Number(params.n), params) : t(key, params);
  return text === key ? r.text : text;
}

/** The reasons of an analysis line as a list (none: nothing). */
function whyList(line) {
  const items = line.reasons && line.reasons.length ? line.reasons.map(reasonText) : line.why || [];
  return items.length ? h('ul', { class: 'why small' }, ...items.map((w) => h('li', { text: w }))) : null;
}

/** Stresses the arrow of line `i` (null: none). */
function hoverLine(view, i) {
  if (view.hoverLine === i) return;
  view.hoverLine = i;
  view.showArrows();
}

export function renderResults(view) {
  const el = view.els.results;
  const r = view.result;
  // A busy answer is about the position it was asked for.
  const busy = view.busy && view.busy.pos === view.pos ? view.busy : null;
  el.hidden = !r && !view.running && !busy;
  if (view.running) {
    mount(el, h('p', { class: 'thinking' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text: t('analysis.running') })));
  } else if (busy) {
    mount(el, h('div', { class: 'engine-busy', id: 'engine-busy', role: 'status' },
      h('p', { text: busy.code === 'engine_busy' && busy.queue ? t('analysis.busy', { n: busy.queue }) : t('analysis.limited') }),
      h('p', { class: 'muted small', text: busy.secs ? t('analysis.retrying', { s: busy.secs }) : t('analysis.tryLater') })));
  } else if (r) {
    mount(el,
      h('h2', { class: 'section-title', text: t('analysis.result') }),
      h('p', { class: 'muted small', text: t('analysis.stats', { depth: r.depth, nodes: fmtNumber(r.nodes), time: fmtNumber(r.time_ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }) }),
      r.preempted ? h('p', { class: 'muted small', id: 'analysis-preempted', text: t('analysis.preempted') }) : null,
      r.lines.length === 0 ? h('p', { text: t('analysis.noMoves') }) : null,
      h('ol', { class: 'lines' }, ...r.lines.map((line, i) => h('li', {
        class: 'line', 'data-line': String(i + 1),
        onmouseenter: () => hoverLine(view, i), onmouseleave: () => hoverLine(view, null),
        onfocusin: () => hoverLine(view, i), onfocusout: () => hoverLine(view, null),
      },
        h('div', { class: 'line-head' },
          h('span', { class: ['score', line.score && (line.score.mate > 0 || line.score.cp > 0) ? 'good' : line.score && (line.score.mate < 0 || line.score.cp < 0) ? 'bad' : ''], text: scoreText(line.score, line.score_text) }),
          h('div', { class: 'pv' }, ...line.pv.map((mv, k) => h('button', {
            type: 'button', class: ['move', view.line && view.line.index === i && view.line.step === k ? 'current' : ''],
            onclick: () => { view.line = { index: i, step: k }; view.update(); }, text: mv,
          })))),
        r.turn ? h('p', { class: 'line-words small muted', text: scoreWords(line.score, r.turn, view.gameId()) }) : null,
        whyList(line)))),
      view.line ? h('button', { class: 'btn', type: 'button', onclick: () => { view.line = null; view.update(); }, text: t('analysis.back') }) : null);
  } else {
    mount(el);
  }
}
