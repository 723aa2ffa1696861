// The Dame adapter of the game view (views/game.js): the board of the
// game's size and its input (a piece and its landing squares by click, drag
// or typed; huffs), positions by the game's rules, the player bars (men,
// kings, pieces lost), the last move with the pieces it took, hints (a
// capture is compulsory, a path to choose), the rules card and the link to
// the analysis board. The interface is the one games/index.js describes.

import { h, toast } from '../dom.js';
import { t, tn, colorName } from '../i18n.js';
import { api } from '../api.js';
import { DameBoard, miniPiece } from '../dameboard.js';
import * as D from '../dame.js';
import { clickSquare, boardHandlers, inputMarks } from '../dameinput.js';
import { dameRulesLabel, parseDameRules, describeDameOptions, dameRulesSummary } from '../rules.js';
import { recordFileName } from '../catalogue.js';

export class DameGame {
  /** `st`: the game's state. */
  constructor(view, st) {
    this.view = view;
    this.name = 'dame';
    this.reviews = false;
    this.size = st.board_size || D.boardSizeOf(st.game);
    this.dsel = null;
  }

  createBoard(host) {
    this.board = new DameBoard(host, this.size, boardHandlers(this, () => this.view.canEnter()));
    return this.board;
  }

  // ------------------------------------------------ positions and moves

  /** The position input works on (dameinput.js). */
  get pos() { return this.view.inputPosition(); }

  update() { this.view.update(); }

  /** The rule options of a state: its preset's, overridden by the server's. */
  ruleOptions(st = this.view.state) {
    return { ...D.PRESETS[st.game], ...(st.rule_options || {}) };
  }

  legal() {
    // A premove: the player's moves as if it were their turn.
    if (this.view.premoveAllowed()) {
      const pos = this.pos;
      return D.describeMoves(pos, D.legalMoves(pos, this.ruleOptions()));
    }
    return D.describeMoves(this.view.currentPosition(), this.view.state?.legal_moves || []);
  }

  /** Squares the player to move may huff now (none while a request is on its way). */
  huffable() {
    const st = this.view.state;
    if (!st || this.view.optimistic || this.view.premoveAllowed()) return new Set();
    return new Set(st.huffable || []);
  }

  clearSelection() { this.dsel = null; }

  /** A new state arrived (`cur`: the one before): other huffable pieces drop the selection. */
  stateChanged(cur, st) {
    if (cur && (cur.huffable || []).join() !== (st.huffable || []).join()) this.dsel = null;
  }

  parsePosition(st) { return D.parseFen(st.position, this.size); }

  positionsAlong(st) {
    return D.positionsAlong(D.parseFen(st.start_position, this.size), st.moves, st.huffs || [], this.ruleOptions(st));
  }

  /** The position after `text` (shown until the server answers). */
  afterMove(pos, text) { return D.applyMove(pos, text, this.ruleOptions()); }

  // ------------------------------------------------ input

  /** A click on a square (piece, landing square or huffable piece). */
  onSquare(sq, { drag = false } = {}) {
    if (!this.view.inputAllowed()) return;
    clickSquare(this, sq, (text) => this.view.play(text), {
      drag,
      huffable: this.huffable(),
      huff: (s) => this.huff(s),
      onPath: () => this.view.announce(t('dame.choosePath')),
      onMustCapture: () => toast(t('dame.compulsory')),
    });
  }

  /** Huffs (removes) the opponent's piece on sq that skipped a capture. */
  huff(sq) {
    const v = this.view;
    return v.sendTurn(
      (pos) => ({ huff: sq, position: D.applyHuff(pos, sq) }),
      (tok, ply) => api.huff(v.id, tok, ply, sq));
  }

  /**
   * A typed move, with or without its huff (`He5 g3-h4`), path in full or
   * in part, or a huff alone: played when legal (after `clear()`). False:
   * not a legal move; null: the player has been told why not.
   */
  typedMove(raw, clear) {
    const m = D.parseMove(raw, this.size);
    const moves = this.legal();
    if (m) {
      if (m.huff && !this.huffable().has(m.huff)) {
        toast(t('dame.huff.notAllowed', { sq: m.huff }), 'error');
        return null;
      }
      const r = D.matchClicks(moves, { from: m.path[0], clicks: m.path.slice(1) });
      const last = m.path[m.path.length - 1];
      const chosen = r.chosen && r.chosen.to === last ? r.chosen
        : r.candidates.filter((x) => x.to === last).length === 1 ? r.candidates.find((x) => x.to === last) : null;
      if (chosen) {
        clear();
        if (m.huff) this.view.play(`H${m.huff} ${chosen.text}`);
        else this.view.play(chosen.text);
        return true;
      }
      if (r.candidates.length > 1) {
        toast(t('dame.moveInput.ambiguous', { moves: r.candidates.map((x) => x.text).join(', ') }), 'error');
        return null;
      }
    } else {
      const hm = raw.match(/^h\s*([a-h]?\d+)$/i);
      const sq = hm && D.normSquare(this.size, hm[1]);
      if (sq && this.huffable().has(sq)) {
        clear();
        this.huff(sq);
        return true;
      }
    }
    return false;
  }

  moveInputPlaceholder() {
    return t(this.size === 8 ? 'dame.moveInput.placeholder8' : 'dame.moveInput.placeholder10');
  }

  // ------------------------------------------------ drawing

  /** The last move of the shown position as {text, path, captured}. */
  lastMove(replay) {
    const v = this.view;
    const st = v.state;
    let i;
    let text;
    if (replay) { i = v.viewPly - 1; text = i >= 0 ? st.moves[i] : null; }
    else if (v.optimistic && v.optimistic.ply === st.ply && v.optimistic.move) { i = st.ply; text = v.optimistic.move; }
    else { i = st.ply - 1; text = st.moves[i] || null; }
    const extra = [];
    if (!replay && st.pending_huff) extra.push(st.pending_huff);
    if (!replay && v.optimistic && v.optimistic.huff) extra.push(v.optimistic.huff);
    if (!text) return { text: null, path: [], captured: extra };
    const m = D.parseMove(text, this.size);
    if (!m) return { text, path: [], captured: extra };
    let before = null;
    if (m.huff) extra.push(m.huff);
    if (i === st.ply) {
      try { before = D.parseFen(st.position, this.size); } catch { before = null; }
      if (before && m.huff) before = D.applyHuff(before, m.huff);
    }
    else if (v.positions && v.positions[i]) {
      before = v.positions[i];
      const hf = (st.huffs || [])[i];
      if (hf) { before = D.applyHuff(before, hf); extra.push(hf); }
    }
    const captured = before && m.capture ? D.capturedBy(before, m.path) : [];
    return { text, path: m.path, captured: [...captured, ...extra] };
  }

  /** Draws `pos` (with the input marks when `canMove`); returns the text of the move marked as last. */
  renderBoard(pos, canMove, legal, replay) {
    const v = this.view;
    const marks = canMove ? inputMarks(legal, this.dsel) : { selected: null };
    const huffable = canMove ? this.huffable() : new Set();
    const last = this.lastMove(replay);
    this.board.render({
      board: pos.board, ...marks, huffable,
      last: { path: last.path, captured: last.captured }, interactive: canMove,
      animate: true, ply: replay ? v.viewPly : v.state.ply,
    });
    return last.text;
  }

  /** A player bar's facts (men, kings, pieces lost) and pieces. */
  playerDetails(c, pos) {
    const v = this.view;
    const st = v.state;
    const live = v.viewPly === null && !v.optimistic;
    const counts = live && st.pieces ? st.pieces[c] : D.pieceCounts(pos)[c];
    let lost;
    if (live && st.captured) lost = st.captured[c];
    else {
      let start = null;
      try { start = D.parseFen(st.start_position, this.size); } catch { /* the usual start */ }
      lost = D.lostCount(pos, start)[c];
    }
    const kings = h('div', { class: 'kings', title: tn('dame.kings', counts.kings) });
    for (let i = 0; i < counts.kings; i++) kings.append(miniPiece(c, { king: true }));
    const lostRow = h('div', { class: 'lost', title: tn('dame.lost', lost) });
    for (let i = 0; i < lost; i++) lostRow.append(miniPiece(c, { cls: 'taken' }));
    return [
      h('div', { class: 'facts' },
        h('span', { class: 'phase', text: colorName(c) }),
        h('span', { class: 'count', 'data-men': counts.men, 'data-kings': counts.kings, 'data-lost': lost, text: `${tn('dame.men', counts.men)} · ${tn('dame.kings', counts.kings)} · ${tn('dame.lost', lost)}` })),
      h('div', { class: 'stones' }, kings, lostRow),
    ];
  }

  /** Whether every legal move captures (a capture is compulsory). */
  compulsory(canMove, legal) {
    return canMove && legal.length > 0 && legal.every((m) => m.capture);
  }

  /** The hint of move input: {text, compulsory} (a path to choose, a capture to make), or null. */
  hint(canMove, legal) {
    if (canMove && this.dsel && this.dsel.clicks.length && D.matchClicks(legal, this.dsel).candidates.length > 1) {
      return { text: t('dame.choosePath') };
    }
    if (this.compulsory(canMove, legal)) return { text: t('dame.compulsory'), compulsory: true };
    return null;
  }

  /** The status line under the board on a phone. */
  mobileStatus(status, canMove, legal) {
    if (canMove && this.huffable().size) return t('dame.huff.short');
    if (this.compulsory(canMove, legal)) return `${status} – ${t('dame.compulsory')}`;
    return status;
  }

  /** The class of a move in the move list (a capture). */
  moveClass(mv) { return mv.includes('x') ? 'capture' : ''; }

  /** The address parameters of the analysis board for `pos` (the game's `shown` ply). */
  analysisParams(pos, st, shown) {
    return new URLSearchParams({ variant: st.game, position: D.formatFen(pos), rules: st.rules || st.game, game: String(this.view.id), ply: String(shown) });
  }

  /** The rules card: {label, items, summary} (the summary of the rules in a few lines, folded). */
  rules(st) {
    const opts = this.ruleOptions(st);
    return {
      label: dameRulesLabel(st.rules, st.game),
      items: describeDameOptions(opts),
      summary: h('details', { class: 'rules-summary', id: 'rules-summary' },
        h('summary', { text: t('dame.rules.summary') }),
        h('ul', {}, ...dameRulesSummary(opts).map((x) => h('li', { text: x })))),
    };
  }

  exportName(id) { return recordFileName(this.view.state?.game || 'dame', id); }

  /** The label of rules text `text` of game `game`. */
  static rulesLabel(text, game) { return dameRulesLabel(text, game); }

  /** The rule options of rules text `text` of game `game`. */
  static ruleOptions(text, game) { return parseDameRules(text, game).options; }
}
