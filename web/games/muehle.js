// The Mühle adapter of the game view (views/game.js): the board and its
// input (a placement, a move, the stone to remove after a mill; by click,
// drag or typed), positions, the player bars (stones in hand and removed,
// the phase), the last move, hints, the rules card and the link to the
// analysis board. The interface is the one games/index.js describes.

import { h, toast } from '../dom.js';
import { t, tn, colorName } from '../i18n.js';
import { Board, miniStone } from '../board.js';
import * as M from '../muehle.js';
import { clickPoint, choose, boardHandlers, inputMarks } from '../millinput.js';
import { parseRules, describeOptions, muehleRulesLabel, muehleRulesSummary } from '../rules.js';
import { recordFileName } from '../catalogue.js';

export class MuehleGame {
  /** `st`: the game's state (null while it loads: the standard board). */
  constructor(view, st) {
    this.view = view;
    this.name = 'muehle';
    /** The rule options the game is played by (its board, flying, moves while placing, …). */
    this.options = st ? MuehleGame.ruleOptions(st.rules, st.game, st.rule_options) : parseRules('standard').options;
    /** Whether the server reviews the game's moves by the perfect-play databases. */
    this.reviews = true;
    this.selected = null;
    this.pendingMill = null;
  }

  createBoard(host) {
    this.board = new Board(host, boardHandlers(this, () => this.view.canEnter() && !this.pendingMill), this.options);
    return this.board;
  }

  // ------------------------------------------------ positions and moves

  /** The position input works on (millinput.js). */
  get pos() { return this.view.inputPosition(); }

  update() { this.view.update(); }

  legal() {
    // A premove: the player's moves as if it were their turn.
    const texts = this.view.premoveAllowed() ? M.legalMoves(this.pos, this.options) : (this.view.state?.legal_moves || []);
    return texts.map((text) => ({ text, ...M.parseMove(text) })).filter((m) => m.to);
  }

  /** Mühle has no huffs. */
  huffable() { return new Set(); }

  clearSelection() {
    this.selected = null;
    this.pendingMill = null;
  }

  /** A new state arrived (`cur`: the one before). */
  stateChanged() {}

  parsePosition(st) { return M.parsePosition(st.position); }

  positionsAlong(st) { return M.positionsAlong(st.start_position, st.moves, this.options); }

  /** The position after `text` (shown until the server answers). */
  afterMove(pos, text) { return M.applyMove(pos, text, this.options); }

  // ------------------------------------------------ input

  onPoint(p) {
    if (!this.view.inputAllowed()) return;
    clickPoint(this, p, (text) => this.view.play(text), { reselect: true });
  }

  choose(from, to) {
    choose(this, from, to, (text) => this.view.play(text), () => this.view.announce(t('game.chooseRemoval')));
  }

  /**
   * A typed move: played when legal (after `clear()`), a mill move without
   * its stone waits for the stone. False: not a legal move.
   */
  typedMove(raw, clear) {
    const m = M.parseMove(raw);
    const legal = this.legal();
    if (!m) return false;
    const exact = legal.find((x) => x.text === M.formatMove(m));
    if (exact) {
      clear();
      this.view.play(exact.text);
      return true;
    }
    if (!m.remove) {
      const cands = legal.filter((x) => x.from === m.from && x.to === m.to);
      if (cands.length > 1) {
        toast(t('game.moveInput.needRemoval', { example: cands[0].text }));
        clear();
        this.choose(m.from, m.to);
        return true;
      }
    }
    return false;
  }

  moveInputPlaceholder() { return t('game.moveInput.placeholder'); }

  // ------------------------------------------------ drawing

  /** Draws `pos` (with the input marks when `canMove`); returns the text of the move marked as last. */
  renderBoard(pos, canMove, legal, replay) {
    const v = this.view;
    const st = v.state;
    const marks = canMove ? inputMarks(pos, legal, this.selected, this.pendingMill) : { board: pos.board, selected: this.selected };
    let lastText = null;
    if (replay) lastText = v.viewPly > 0 ? st.moves[v.viewPly - 1] : null;
    else if (v.optimistic && v.optimistic.ply === st.ply) lastText = v.optimistic.move;
    else lastText = st.last_move || st.moves[st.ply - 1] || null;
    const last = lastText ? M.parseMove(lastText) : null;
    this.board.render({ ...marks, last, interactive: canMove, animate: true, ply: replay ? v.viewPly : st.ply });
    return lastText;
  }

  /** A player bar's facts (phase, stones in hand and removed) and stones. */
  playerDetails(c, pos) {
    const v = this.view;
    const st = v.state;
    const onBoard = M.onBoard(pos, c);
    const inHand = pos.hand[c];
    const removed = v.viewPly === null && !v.optimistic && st.removed ? st.removed[c] : M.removedCount(pos, this.options)[c];
    const phase = M.phaseOf(pos, c, this.options);
    const over = st.status === 'over' && v.viewPly === null;
    const hand = h('div', { class: 'hand', 'aria-label': t('game.inHand', { n: inHand }), title: t('game.inHand', { n: inHand }) });
    for (let i = 0; i < inHand; i++) hand.append(miniStone(c));
    const lost = h('div', { class: 'lost', title: tn('game.removed', removed) });
    for (let i = 0; i < removed; i++) lost.append(miniStone(c, 'taken'));
    return [
      h('div', { class: 'facts' },
        // A finished game has no phase (a replayed position has).
        over ? h('span', { class: 'phase', text: colorName(c) })
          : h('span', { class: `phase ${phase}`, text: `${colorName(c)} ${t(`game.phase.${phase}`)}` }),
        h('span', { class: 'count', text: `${t('game.inHand', { n: inHand })} · ${tn('game.removed', removed)}`, title: t('game.onBoard', { n: onBoard }) })),
      h('div', { class: 'stones' }, hand, lost),
    ];
  }

  /** The hint of move input: {text, mill} while the stone to remove is chosen, else null. */
  hint() {
    return this.pendingMill ? { text: t('game.chooseRemoval'), mill: true } : null;
  }

  /** The status line under the board on a phone. */
  mobileStatus(status) {
    return this.pendingMill ? t('game.chooseRemoval') : status;
  }

  /** The class of a move in the move list (a mill). */
  moveClass(mv) { return mv.includes('x') ? 'mill' : ''; }

  /** The address parameters of the analysis board for `pos` (the game's `shown` ply). */
  analysisParams(pos, st, shown) {
    return new URLSearchParams({ position: M.formatPosition(pos), rules: st.rules || 'standard', game: String(this.view.id), ply: String(shown) });
  }

  /**
   * The rules card: {label, items, summary} (the summary of the rules in a
   * few lines, folded, for a game on another board or with moves while
   * placing; none for the standard game).
   */
  rules(st) {
    const lines = muehleRulesSummary(this.options);
    return {
      label: muehleRulesLabel(st.rules),
      items: describeOptions(this.options),
      summary: lines.length ? h('details', { class: 'rules-summary', id: 'rules-summary' },
        h('summary', { text: t('rules.summary') }),
        h('ul', {}, ...lines.map((x) => h('li', { text: x })))) : null,
    };
  }

  exportName(id) { return recordFileName(this.view.state?.game || 'muehle', id); }

  /** The label of rules text `text`. */
  static rulesLabel(text) { return muehleRulesLabel(text); }

  /** The rule options of rules text `text` (`known`: the server's, which win). */
  static ruleOptions(text, game, known = null) { return { ...parseRules(text).options, ...(known || {}) }; }
}
