// The hint of a game against the computer: a button that asks the engine
// (POST /api/analyze, a short search) for the best move in the game's
// position and draws it as an arrow on the board (arrows.js) until the
// position changes. Never offered in rated games, nor in a game started with
// hints off; the hints asked for are counted and shown once the game is over.

import { h, toast } from './dom.js';
import { t, tn, errorText } from './i18n.js';
import { api } from './api.js';
import * as store from './store.js';
import { drawArrows, moveShape } from './arrows.js';

/** The engine's time for a hint (ms). */
const HINT_MS = 400;

export class Hints {
  /** `view`: the game view (its state, seats, board and game adapter). */
  constructor(view) {
    this.view = view;
    this.shown = null;
    this.asking = null;
    this.button = h('button', { class: 'btn', type: 'button', id: 'hint-btn', hidden: true, onclick: () => this.ask() });
    this.note = h('p', { class: 'hints-used small muted', id: 'hints-used', hidden: true });
  }

  /** Whether the game offers hints to this browser: against the computer, unrated, hints on, a seat held. */
  offered() {
    const v = this.view;
    const st = v.state;
    return !!(st && st.kind === 'computer' && !st.rated && store.hintsOn(v.id) && v.myColor());
  }

  /** The position the player moves in now, as a key. */
  key() {
    const st = this.view.state;
    return st ? `${st.ply}|${this.view.viewPly}` : '';
  }

  async ask() {
    const v = this.view;
    const st = v.state;
    if (!this.offered() || !v.canMoveNow() || this.asking) return;
    const key = this.key();
    const position = v.game.analysisParams(v.currentPosition(), st, st.ply).get('position');
    this.asking = key;
    this.update();
    try {
      const res = await api.analyze({ game: st.game, rules: st.rules, position, time_ms: HINT_MS, lines: 1 });
      const best = res.lines && res.lines[0];
      if (best && this.key() === key) {
        this.shown = { key, move: best.move };
        store.countHint(v.id);
        v.announce(t('hint.shown', { move: best.move }));
      }
    } catch (e) {
      toast(e.code === 'network' ? t('error.network') : e.code === 'engine_busy' || e.code === 'rate_limited' ? t('analysis.limited') : errorText(e), 'error');
    }
    this.asking = null;
    this.update();
  }

  /** Shows the button, the arrow of a hint for the position on the board, and the count at the end. */
  update() {
    const v = this.view;
    const st = v.state;
    const offered = this.offered();
    const over = !st || st.status === 'over';
    this.button.hidden = !offered || over;
    this.button.disabled = !!this.asking || !v.canMoveNow();
    this.button.textContent = this.asking ? t('hint.thinking') : `☼ ${t('hint.button')}`;
    const shown = this.shown && this.shown.key === this.key() && !over ? this.shown : null;
    if (!shown) this.shown = null;
    this.button.title = shown ? t('hint.shown', { move: shown.move }) : '';
    const shape = shown ? moveShape(st.game, shown.move) : null;
    drawArrows(v.board, shape ? [{ move: shown.move, rank: 1, shape, hint: true }] : []);
    const used = offered ? store.hintsUsed(v.id) : 0;
    this.note.hidden = !(over && used > 0);
    this.note.textContent = used > 0 ? tn('hint.used', used) : '';
  }
}
