// What the analysis boards teach about a position: the engine's score in
// words ("White is better by about half a stone"), an evaluation bar
// (White's share), the best line under the board, and "continue from
// here" (a new game from the analysed position).

import { h, mount, toast } from './dom.js';
import { t, tn, colorName, fmtNumber, errorText } from './i18n.js';
import { api } from './api.js';
import { navigate } from './nav.js';
import * as store from './store.js';
import { verdictText } from './tablebase.js';

/**
 * A score ({cp} in hundredths of a stone or man, or {mate}) for the side
 * `turn` as White's advantage in stones (Mühle) or men (Dame); null for a
 * forced win or none.
 */
export function whiteUnits(score, turn) {
  if (!score || typeof score.cp !== 'number') return null;
  return (turn === 'black' ? -score.cp : score.cp) / 100;
}

/** The winner of a forced win or loss for the side `turn`, or null. */
function mateWinner(score, turn) {
  if (!score || typeof score.mate !== 'number' || score.mate === 0) return null;
  const other = turn === 'white' ? 'black' : 'white';
  return score.mate > 0 ? turn : other;
}

/** "half a stone", "a stone", "one and a half stones", "2.5 stones" (Mühle) or men (Dame). */
function amountText(units, game) {
  const unit = game === 'muehle' ? 'stones' : 'men';
  const halves = Math.max(1, Math.round(units * 2));
  if (halves === 1) return t(`teach.${unit}.half`);
  if (halves === 2) return t(`teach.${unit}.one`);
  if (halves === 3) return t(`teach.${unit}.oneHalf`);
  return t(`teach.${unit}.n`, { n: fmtNumber(halves / 2) });
}

/** The grades of an advantage, in stones or men: below each bound its word. */
const GRADES = [[0.25, 'equal'], [0.5, 'slightly'], [1.25, 'better'], [3, 'clearly'], [Infinity, 'winning']];

/** The grade of White's advantage `units`: equal, slightly, better, clearly or winning. */
export function grade(units) {
  return GRADES.find(([bound]) => Math.abs(units) < bound)[1];
}

/**
 * The engine's score in words for the side `turn` in `game`: the graded
 * advantage with its size, or who wins by force in how many moves.
 */
export function scoreWords(score, turn, game) {
  const winner = mateWinner(score, turn);
  if (winner) return tn('teach.mate', Math.abs(score.mate), { color: colorName(winner) });
  const units = whiteUnits(score, turn);
  if (units === null) return '';
  const g = grade(units);
  if (g === 'equal') return t('teach.equal');
  const color = colorName(units > 0 ? 'white' : 'black');
  return t(`teach.${g}`, { color, amount: amountText(Math.abs(units), game) });
}

/** White's share of the bar (0…100) from a score for `turn`, or the databases' verdict `db`. */
export function whiteShare(score, turn, db = null) {
  if (db) {
    if (db.result === 'draw') return 50;
    const winner = db.result === 'win' ? db.turn : (db.turn === 'white' ? 'black' : 'white');
    return winner === 'white' ? 100 : 0;
  }
  const winner = mateWinner(score, turn);
  if (winner) return winner === 'white' ? 100 : 0;
  const units = whiteUnits(score, turn);
  if (units === null) return 50;
  // One stone ahead is about 71 %, three about 94 %.
  return Math.round(100 / (1 + Math.exp(-0.9 * units)));
}

/** The words and the bar's share for an engine answer `r` about a position with `turn` to move. */
export function verdictOf(r, turn, game) {
  const best = r.lines[0];
  if (r.database) {
    return { words: verdictText(r.database.turn, r.database), share: whiteShare(null, turn, r.database), number: '' };
  }
  if (!best) return null;
  const units = whiteUnits(best.score, turn);
  const number = units === null ? '' : fmtNumber(units, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
  return { words: scoreWords(best.score, turn, game), share: whiteShare(best.score, turn), number };
}

/** The evaluation bar: White's share as a meter (updated by setBar). */
export function evalBar() {
  const fill = h('div', { class: 'eval-fill' });
  return h('div', {
    class: 'eval-bar', id: 'eval-bar', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100',
    'aria-valuenow': '50', 'data-state': 'none',
  }, fill);
}

/** Shows White's share `share` (null: no evaluation) with its words on the bar. */
export function setBar(bar, share, words) {
  const none = share === null;
  bar.dataset.state = none ? 'none' : 'set';
  bar.setAttribute('aria-valuenow', String(none ? 50 : share));
  bar.setAttribute('aria-label', t('teach.bar'));
  bar.setAttribute('aria-valuetext', none ? t('teach.bar.none') : `${t('teach.bar.white', { n: fmtNumber(share) })}: ${words}`);
  bar.title = none ? t('teach.bar.none') : words;
  bar.firstChild.style.height = `${none ? 50 : share}%`;
}

/**
 * The best line under the board: the engine's words on the position and
 * its best move with the line that follows (hidden while there is none).
 * `verdict` as verdictOf gives it; `pv` the best line's moves.
 */
export function renderBestLine(el, verdict, pv) {
  el.hidden = !verdict;
  if (!verdict) { mount(el); return; }
  mount(el,
    h('p', { class: 'score-words', id: 'score-words' },
      verdict.number ? h('strong', { class: 'score-number', text: `${verdict.number} ≈ ` }) : null,
      h('span', { text: verdict.words })),
    pv && pv.length ? h('p', { class: 'best-moves small' },
      h('span', { class: 'muted', text: `${t('teach.best')}: ` }),
      h('strong', { class: 'best-move', text: pv[0] }),
      pv.length > 1 ? h('span', { class: 'muted', text: ` ${pv.slice(1, 6).join(' ')}${pv.length > 6 ? ' …' : ''}` }) : null) : null);
}

/**
 * "Continue from here": a new game from the analysed position against the
 * computer (level and side) or at one screen. `what()` gives {game, rules,
 * position} when asked; `state` keeps the choices between renders.
 */
export function continueCard(state, what) {
  const start = async (btn) => {
    btn.disabled = true;
    const { game, rules, position } = what();
    const body = { game, kind: state.kind, rules, position };
    if (state.kind === 'computer') { body.level = state.level; body.color = state.color; }
    const name = store.playerName();
    if (name) body.name = name;
    try {
      const res = await api.createGame(body);
      for (const [c, tok] of Object.entries(res.tokens || {})) store.addSeat(res.id, c, tok);
      store.rememberGame({ id: res.id, kind: state.kind, colors: Object.keys(res.tokens || {}), rules: (res.state && res.state.rules) || rules, game });
      navigate(`/game/${res.id}`);
    } catch (e) {
      btn.disabled = false;
      toast(e.detail ? t('analysis.invalid', { error: errorText(e) }) : e.code === 'network' ? t('error.network') : errorText(e), 'error');
    }
  };
  const radio = (name, value, label, checked, onchange) => h('label', { class: 'choice small' },
    h('input', { type: 'radio', name, value, checked, id: `${name}-${value}`, onchange }),
    h('span', { class: 'choice-body' }, label));
  const body = h('div', { class: 'continue-body' });
  const fill = () => mount(body,
    h('fieldset', { class: 'inline' },
      h('legend', { text: t('teach.continue.against') }),
      radio('continue-kind', 'computer', t('kind.computer'), state.kind === 'computer', () => { state.kind = 'computer'; fill(); }),
      radio('continue-kind', 'local', t('kind.local'), state.kind === 'local', () => { state.kind = 'local'; fill(); })),
    state.kind === 'computer' ? h('div', { class: 'continue-opts' },
      h('div', { class: 'field' },
        h('label', { for: 'continue-level', text: t('home.level') }),
        h('select', { id: 'continue-level', onchange: (ev) => { state.level = Number(ev.target.value); } },
          ...Array.from({ length: 10 }, (_, i) => h('option', { value: i + 1, selected: state.level === i + 1, text: String(i + 1) })))),
      h('fieldset', { class: 'inline' },
        h('legend', { text: t('home.color') }),
        ...['white', 'black'].map((c) => radio('continue-color', c,
          [h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }), h('span', { text: colorName(c) })],
          state.color === c, () => { state.color = c; })))) : null,
    h('button', { class: 'btn primary', type: 'button', id: 'continue-start', onclick: (ev) => start(ev.currentTarget), text: t('teach.continue.start') }));
  fill();
  return h('section', { class: 'card continue-card', id: 'continue-card', 'aria-labelledby': 'continue-title' },
    h('h2', { class: 'section-title', id: 'continue-title', text: t('teach.continue') }),
    h('p', { class: 'small muted', text: t('teach.continue.note') }),
    body);
}
