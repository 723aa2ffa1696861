// The game view: board, players, status, move list with replay, controls,
// invite / watch links, live updates through the socket.

import { h, s, mount, toast, confirmDialog, copyText } from '../dom.js';
import { t, tn, colorName, endText, fmtDate } from '../i18n.js';
import { api, GameSocket } from '../api.js';
import { Board, miniStone } from '../board.js';
import { DameBoard, miniPiece } from '../dameboard.js';
import * as M from '../muehle.js';
import * as D from '../dame.js';
import { parseRules, describeOptions, rulesLabel, describeDameOptions, dameRulesSummary } from '../rules.js';
import * as store from '../store.js';
import { navigate } from '../nav.js';
import { statusBox, changeText } from '../tablebase.js';

/**
 * Takes the token out of the URL fragment (#token=…&color=…): {token, color}
 * or null. The seat it names is used only once the server confirms it.
 */
function takeFragmentToken() {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = frag.get('token');
  if (!token) return null;
  const color = frag.get('color');
  // Keep the secret out of the address bar (and out of screenshots and shares).
  history.replaceState(null, '', location.pathname + location.search);
  return { token, color: color === 'white' || color === 'black' ? color : null };
}

/** Error codes of docs/API.md the game page words in the player's language. */
const ERROR_CODES = ['wrong_token', 'waiting_for_opponent', 'stale_ply', 'not_your_turn', 'game_over'];

export class GameView {
  constructor(root, { id }) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.positions = null;
    this.posKey = '';
    this.selected = null;
    this.pendingMill = null;
    this.dsel = null;
    this.dame = false;
    this.optimistic = null;
    this.viewPly = null;
    this.busy = false;
    this.conn = 'connecting';
    this.lastAnnounced = '';
    this.review = null;
    this.reviewKey = '';
    this.linkToken = takeFragmentToken();
    // Seats count only once the server has confirmed their tokens
    // (confirmSeats): until then the page is a spectator's.
    this.seats = {};
    this.seatsConfirmed = false;
    this.seatNotice = null;
    const f = store.flipped(id);
    this.flipped = f;
    this.build();
    this.load();
    this.socket = new GameSocket(id, {
      onState: (st) => this.applyState(st, 'socket'),
      onOpen: () => this.load(),
      onStatus: (s) => { this.conn = s; this.renderConn(); },
    });
    this.onKey = (ev) => this.globalKey(ev);
    document.addEventListener('keydown', this.onKey);
  }

  destroy() {
    this.socket.close();
    document.removeEventListener('keydown', this.onKey);
  }

  // ---------------------------------------------------------------- data

  async load() {
    try {
      const st = await api.state(this.id);
      this.applyState(st, 'fetch');
    } catch (e) {
      if (e.code === 'not_found') {
        this.socket.close();
        mount(this.root, h('div', { class: 'card narrow' },
          h('h1', { text: t('game.title', { id: this.id }) }),
          h('p', { text: t('game.notFound') }),
          h('a', { class: 'btn primary', href: '/', 'data-link': true, text: t('game.newGame') })));
      } else if (!this.state) {
        this.els.status.textContent = e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message });
      }
    }
  }

  /** Takes a state from the server. A move answer older than what we show is ignored. */
  applyState(st, source) {
    if (!st || st.id !== this.id) return;
    const cur = this.state;
    if (cur && source === 'answer' && st.ply < cur.ply && st.moves.every((m, i) => cur.moves[i] === m)) {
      this.update();
      return;
    }
    const firstTime = !cur;
    this.state = st;
    this.optimistic = null;
    if (firstTime && D.isDame(st.game)) this.useDameBoard(st.board_size || D.boardSizeOf(st.game));
    const key = `${st.start_position}|${st.moves.join(' ')}|${(st.huffs || []).join(',')}`;
    if (key !== this.posKey) {
      this.posKey = key;
      try {
        this.positions = this.dame
          ? D.positionsAlong(D.parseFen(st.start_position, this.size), st.moves, st.huffs || [], this.dameRuleOptions(st))
          : M.positionsAlong(st.start_position, st.moves);
      } catch {
        this.positions = null;
      }
      if (!cur || st.ply !== cur.ply || st.moves[st.ply - 1] !== cur.moves[cur.ply - 1]) {
        this.selected = null;
        this.pendingMill = null;
        this.dsel = null;
      }
    }
    if (cur && (cur.huffable || []).join() !== (st.huffable || []).join()) this.dsel = null;
    if (this.viewPly !== null && this.viewPly > st.ply) this.viewPly = null;
    if (cur && !firstTime) this.noticeDrawAnswer(cur, st);
    if (!this.seatsConfirmed) this.confirmSeats();
    if (firstTime) {
      if (this.flipped === null) {
        this.flipped = this.defaultFlip();
        this.flipFromDefault = true;
      }
      if (st.status === 'over' && !this.hasSeat()) this.viewPly = null;
    }
    this.loadReview();
    this.update();
  }

  /** Tells the player whose draw offer was declined, or lapsed by a move. */
  noticeDrawAnswer(cur, st) {
    const offer = cur.draw_offer;
    if (!offer || st.draw_offer || st.status !== 'ongoing') return;
    if (!this.seats[offer] || (this.seats.white && this.seats.black)) return;
    toast(st.ply === cur.ply ? t('game.drawDeclined') : t('game.drawLapsed'));
  }

  /**
   * After a Mühle game (finished, or an imported record): asks the server
   * which moves changed the game's value by the perfect-play databases.
   */
  async loadReview() {
    const st = this.state;
    if (!st || this.dame || st.game !== 'muehle' || (st.status !== 'over' && st.kind !== 'imported')) return;
    const key = `${st.start_position}|${st.moves.join(' ')}`;
    if (key === this.reviewKey) return;
    this.reviewKey = key;
    try {
      const review = await api.review(this.id);
      if (this.reviewKey !== key) return;
      this.review = review;
      this.update();
    } catch {
      if (this.reviewKey === key) this.reviewKey = '';
    }
  }

  /** The review card: the legend of the marked moves and the databases' status. */
  renderReview() {
    const e = this.els;
    const r = this.review;
    const show = !!r && !this.dame && this.state && (this.state.status === 'over' || this.state.kind === 'imported');
    e.reviewBox.hidden = !show;
    if (!show) return;
    const key = JSON.stringify([r, document.documentElement.lang]);
    if (e.reviewBox.dataset.key === key) return;
    e.reviewBox.dataset.key = key;
    const n = r.changes.length;
    let summary;
    if (!r.database) summary = t('review.noDatabase');
    else if (r.judged === 0) summary = t('review.notJudged');
    else if (n === 0) summary = t('review.none', { judged: r.judged });
    else summary = t(n === 1 ? 'review.found.1' : 'review.found', { n, judged: r.judged });
    mount(e.reviewBox,
      h('h2', { class: 'section-title', text: t('review.title') }),
      h('p', { id: 'review-summary', text: summary }),
      n ? h('ul', { class: 'review-list', id: 'review-list' }, ...r.changes.map((c) => h('li', {},
        h('button', {
          type: 'button', class: 'move blunder', onclick: () => this.setView(c.ply + 1),
          text: `${this.moveNumber(c.ply)} ${c.move}??`,
        }),
        h('span', { text: ` ${colorName(c.mover)}: ${changeText(c)}` })))) : null,
      n ? h('p', { class: 'small muted', text: t('review.legend') }) : null,
      statusBox(r.tablebase, { id: 'review-tb' }));
  }

  /** "12." (White's) or "12…" (Black's) for the move at `ply` (0-based): a move number counts full moves. */
  moveNumber(ply) {
    const before = this.positions ? this.positions[ply] : null;
    const no = before ? before.moveNo : Math.floor(ply / 2) + 1;
    const black = before ? before.turn === 'black' : ply % 2 === 1;
    return black ? `${no}…` : `${no}.`;
  }

  /** Dame: replaces the Mühle board by a Dame board of the game's size. */
  useDameBoard(size) {
    this.dame = true;
    this.size = size;
    this.els.boardWrap.replaceChildren();
    this.board = new DameBoard(this.els.boardWrap, size, {
      onSquare: (sq) => this.onSquare(sq),
      canDrag: (sq) => this.canMoveNow() && this.currentPosition().board[sq]?.color === this.state.turn
        && this.legal().some((m) => m.from === sq),
      onDragStart: (sq) => { this.dsel = { from: sq, clicks: [] }; this.update(); },
      onDrag: (from, to) => { this.dsel = { from, clicks: [] }; this.onSquare(to, { drag: true }); },
      onDragCancel: () => { this.update(); },
      onEscape: () => { this.dsel = null; this.update(); },
    });
    this.els.moveInput.placeholder = t(size === 8 ? 'dame.moveInput.placeholder8' : 'dame.moveInput.placeholder10');
    this.els.exportLink.setAttribute('download', `dame-${this.id}.pdn`);
  }

  /**
   * Asks the server which seat each token this browser holds (stored, or
   * from the link just opened) stands for; only confirmed seats are used.
   * A wrong token is dropped with a notice; a link to an online seat that
   * someone has already joined opens the spectator view, with the choice
   * to take the seat over (the same player on another device).
   */
  async confirmSeats() {
    if (this.confirming || !this.state) return;
    this.confirming = true;
    try {
      const stored = store.seats(this.id);
      const tries = Object.entries(stored).map(([color, token]) => ({ token, color, stored: true }));
      const loose = store.looseToken(this.id);
      if (loose && !tries.some((x) => x.token === loose)) tries.push({ token: loose, color: null, stored: true, loose: true });
      const link = this.linkToken;
      if (link && !tries.some((x) => x.token === link.token)) tries.push({ ...link, stored: false });
      const seats = {};
      let notice = null;
      for (const x of tries) {
        const st = await api.state(this.id, x.token);
        const you = st.you;
        if (!you || (x.color && x.color !== you)) {
          if (x.stored && x.color) store.dropSeat(this.id, x.color);
          notice = { kind: 'invalid' };
          continue;
        }
        const p = st.players[you];
        if (!x.stored && st.kind === 'online' && p && p.joined && p.type !== 'computer') {
          notice = { kind: 'taken', color: you, name: p.name, token: x.token };
          continue;
        }
        seats[you] = x.token;
        if (!x.stored || x.loose) store.addSeat(this.id, you, x.token);
      }
      if (loose) store.dropLooseToken(this.id);
      this.linkToken = null;
      this.seats = seats;
      this.seatsConfirmed = true;
      this.seatNotice = notice;
      if (Object.keys(seats).length) this.remember();
      if (this.flipFromDefault) this.flipped = this.defaultFlip();
    } catch (e) {
      // Offline or the server away: asked again with the next state.
      if (e.code !== 'network') this.reportError(e);
    } finally {
      this.confirming = false;
    }
    this.update();
  }

  /** Take over a seat that someone joined already (after a warning). */
  async takeOverSeat() {
    const n = this.seatNotice;
    if (!n || n.kind !== 'taken') return;
    const ok = await confirmDialog({
      title: t('game.seatTaken.takeOver'),
      text: t('game.seatTaken.warning', { name: n.name || colorName(n.color) }),
      ok: t('game.seatTaken.takeOver'),
      cancel: t('game.cancel'),
    });
    if (!ok) return;
    store.addSeat(this.id, n.color, n.token);
    this.seats = { ...this.seats, [n.color]: n.token };
    this.seatNotice = null;
    this.remember();
    if (this.flipFromDefault) this.flipped = this.defaultFlip();
    this.update();
  }

  /** An online game whose invited player has not joined yet: nobody moves. */
  waitingForOpponent() {
    const st = this.state;
    return !!(st && st.kind === 'online' && st.status === 'ongoing'
      && Object.values(st.players).some((p) => p.type !== 'computer' && !p.joined));
  }

  remember() {
    if (!this.state) return;
    store.rememberGame({
      id: this.id, kind: this.state.kind, colors: Object.keys(this.seats), rules: this.state.rules,
      created: this.state.created_at,
    });
  }

  defaultFlip() {
    const held = Object.keys(this.seats);
    return this.state.kind !== 'local' && held.length === 1 && held[0] === 'black';
  }

  // ---------------------------------------------------------------- who am I

  hasSeat() { return Object.keys(this.seats).length > 0; }

  /** The colour whose token acts now (local: the side to move). */
  actingColor() {
    const st = this.state;
    if (!st) return null;
    if (this.seats.white && this.seats.black) return st.turn;
    const held = Object.keys(this.seats);
    return held.length === 1 ? held[0] : null;
  }

  myColor() {
    const held = Object.keys(this.seats);
    return held.length === 1 ? held[0] : null;
  }

  needsJoin() {
    const c = this.myColor();
    const st = this.state;
    return !!(c && st && st.kind === 'online' && st.players[c] && !st.players[c].joined);
  }

  canMoveNow() {
    const st = this.state;
    return !!(st && st.status === 'ongoing' && this.viewPly === null && !this.busy && this.seats[st.turn]
      && !this.needsJoin() && !this.waitingForOpponent() && !st.thinking);
  }

  // ---------------------------------------------------------------- moves

  legal() {
    if (this.dame) return D.describeMoves(this.currentPosition(), this.state?.legal_moves || []);
    return (this.state?.legal_moves || []).map((text) => ({ text, ...M.parseMove(text) })).filter((m) => m.to);
  }

  /** Dame: squares the player to move may huff now (none while a request is on its way). */
  huffable() {
    const st = this.state;
    if (!this.dame || !st || this.optimistic) return new Set();
    return new Set(st.huffable || []);
  }

  /** Dame input: a click on a square (piece, landing square or huffable piece). */
  onSquare(sq, { drag = false } = {}) {
    const st = this.state;
    if (!this.canMoveNow()) {
      if (st && st.status === 'ongoing' && this.viewPly === null && !this.seats[st.turn] && this.hasSeat()) {
        toast(t('game.notYourTurn'));
      }
      return;
    }
    if (this.huffable().has(sq)) {
      this.dsel = null;
      this.huff(sq);
      return;
    }
    const moves = this.legal();
    if (this.dsel) {
      const clicks = [...this.dsel.clicks, sq];
      const r = D.matchClicks(moves, { from: this.dsel.from, clicks });
      if (r.candidates.length > 0) {
        if (r.chosen) { this.play(r.chosen.text); return; }
        this.dsel = { from: this.dsel.from, clicks };
        this.update();
        this.announce(t('dame.choosePath'));
        return;
      }
      if (drag) { this.dsel = null; this.update(); return; }
    }
    const pos = this.currentPosition();
    const piece = pos.board[sq];
    if (piece && piece.color === st.turn && moves.some((m) => m.from === sq)) {
      this.dsel = this.dsel && this.dsel.from === sq ? null : { from: sq, clicks: [] };
    } else {
      if (piece && piece.color === st.turn && moves.length && moves.every((m) => m.capture)) toast(t('dame.compulsory'));
      this.dsel = null;
    }
    this.update();
  }

  /** Huffs (removes) the opponent's piece on sq that skipped a capture. */
  huff(sq) {
    return this.sendTurn(
      (pos) => ({ huff: sq, position: D.applyHuff(pos, sq) }),
      (tok, ply) => api.huff(this.id, tok, ply, sq));
  }

  onPoint(p) {
    if (!this.canMoveNow()) {
      if (this.state && this.state.status === 'ongoing' && this.viewPly === null && !this.seats[this.state.turn] && this.hasSeat()) {
        toast(t('game.notYourTurn'));
      }
      return;
    }
    const legal = this.legal();
    if (this.pendingMill) {
      const pm = this.pendingMill;
      if (pm.removable.has(p)) {
        this.play(M.formatMove({ from: pm.from, to: pm.to, remove: p }));
        return;
      }
      this.pendingMill = null;
      if (p === pm.to) { this.selected = null; this.update(); return; }
    }
    const board = this.currentPosition().board;
    const side = this.state.turn;
    const placing = legal.some((m) => !m.from);
    if (placing) {
      if (legal.some((m) => m.to === p)) this.choose(null, p);
      else this.update();
      return;
    }
    if (this.selected && legal.some((m) => m.from === this.selected && m.to === p)) {
      this.choose(this.selected, p);
      return;
    }
    if (board[p] === side && legal.some((m) => m.from === p)) {
      this.selected = this.selected === p ? null : p;
    } else {
      this.selected = null;
    }
    this.update();
  }

  choose(from, to) {
    const cands = this.legal().filter((m) => m.from === from && m.to === to);
    if (cands.length === 0) return;
    if (cands.length === 1) {
      this.play(cands[0].text);
      return;
    }
    this.pendingMill = { from, to, removable: new Set(cands.map((m) => m.remove).filter(Boolean)) };
    this.selected = null;
    this.update();
    this.announce(t('game.chooseRemoval'));
  }

  /** The Dame rule options of a state: its preset's, overridden by the server's. */
  dameRuleOptions(st) {
    return { ...D.PRESETS[st.game], ...(st.rule_options || {}) };
  }

  async play(text) {
    if (!this.seats[this.state.turn]) return;
    this.selected = null;
    this.pendingMill = null;
    this.dsel = null;
    await this.sendTurn(
      (pos) => ({ move: text, position: this.dame ? D.applyMove(pos, text, this.dameRuleOptions(this.state)) : M.applyMove(pos, text) }),
      (tok, ply) => api.move(this.id, tok, text, ply));
  }

  /**
   * Sends a move or a huff of the side to move (when this browser holds its
   * seat): shows the position it leads to at once (`preview`, which may
   * throw), then the server's answer; on an error the game is loaded again.
   */
  async sendTurn(preview, request) {
    const st = this.state;
    const tok = this.seats[st.turn];
    if (!tok) return;
    this.busy = true;
    try {
      this.optimistic = { ply: st.ply, ...preview(this.currentPosition()) };
    } catch {
      this.optimistic = null;
    }
    this.update();
    try {
      const res = await request(tok, st.ply);
      this.busy = false;
      this.applyState(res, 'answer');
    } catch (e) {
      this.busy = false;
      this.optimistic = null;
      this.update();
      this.reportError(e);
      this.load();
    }
  }

  reportError(e) {
    if (e.code === 'network') toast(t('error.network'), 'error');
    else if (ERROR_CODES.includes(e.code)) toast(t(`error.${e.code}`), 'error');
    else toast(t('error.generic', { message: e.message }), 'error');
  }

  /** The position the board shows (live, optimistic or replayed). */
  currentPosition() {
    const st = this.state;
    if (this.viewPly !== null && this.positions) return this.positions[this.viewPly];
    if (this.optimistic && this.optimistic.ply === st.ply) return this.optimistic.position;
    try {
      return this.dame ? D.parseFen(st.position, this.size) : M.parsePosition(st.position);
    } catch {
      return this.positions ? this.positions[this.positions.length - 1] : { board: {}, hand: { white: 0, black: 0 }, turn: st.turn };
    }
  }

  async action(fn) {
    if (this.busy) return;
    this.busy = true;
    this.update();
    try {
      const res = await fn();
      this.busy = false;
      this.applyState(res, 'action');
    } catch (e) {
      this.busy = false;
      this.update();
      this.reportError(e);
      this.load();
    }
  }

  async resign() {
    const c = this.actingColor();
    if (!c) return;
    const local = this.seats.white && this.seats.black;
    const ok = await confirmDialog({
      title: t('game.resign'),
      text: local ? t('game.resign.confirmLocal', { color: colorName(c) }) : t('game.resign.confirm'),
      ok: t('game.resign'),
      cancel: t('game.cancel'),
    });
    if (ok) this.action(() => api.resign(this.id, this.seats[c]));
  }

  draw(action) {
    const st = this.state;
    let c = this.actingColor();
    if (this.seats.white && this.seats.black && st.draw_offer && action !== 'offer') c = M.other(st.draw_offer);
    if (!c) return;
    this.action(() => api.draw(this.id, this.seats[c], action));
  }

  /** Both seats of a local game are in this browser (a game at one screen). */
  hotSeat() {
    return !!(this.state && this.state.kind === 'local' && this.seats.white && this.seats.black);
  }

  /** Takes back the player's last move (against the computer) or the last move (at one screen). */
  takeback() {
    const c = this.hotSeat() ? M.other(this.state.turn) : this.myColor();
    if (c && this.seats[c]) this.action(() => api.takeback(this.id, this.seats[c]));
  }

  async join() {
    const c = this.myColor();
    const name = this.els.joinName.value.trim().slice(0, 40);
    store.setPlayerName(name);
    await this.action(() => api.join(this.id, this.seats[c], name || undefined));
    this.remember();
  }

  typedMove(ev) {
    ev.preventDefault();
    const input = this.els.moveInput;
    const raw = input.value.trim();
    if (!raw) return;
    if (!this.canMoveNow()) {
      toast(t('game.notYourTurn'));
      return;
    }
    if (this.dame) {
      this.typedDameMove(raw);
      return;
    }
    const m = M.parseMove(raw);
    const legal = this.legal();
    if (m) {
      const exact = legal.find((x) => x.text === M.formatMove(m));
      if (exact) {
        input.value = '';
        this.play(exact.text);
        return;
      }
      if (!m.remove) {
        const cands = legal.filter((x) => x.from === m.from && x.to === m.to);
        if (cands.length > 1) {
          toast(t('game.moveInput.needRemoval', { example: cands[0].text }));
          input.value = '';
          this.choose(m.from, m.to);
          return;
        }
      }
    }
    toast(t('game.moveInput.illegal', { move: raw }), 'error');
  }

  /** Dame: a typed move, with or without its huff (`He5 g3-h4`), path in full or in part. */
  typedDameMove(raw) {
    const input = this.els.moveInput;
    const m = D.parseMove(raw, this.size);
    const moves = this.legal();
    if (m) {
      if (m.huff && !this.huffable().has(m.huff)) {
        toast(t('dame.huff.notAllowed', { sq: m.huff }), 'error');
        return;
      }
      const r = D.matchClicks(moves, { from: m.path[0], clicks: m.path.slice(1) });
      const last = m.path[m.path.length - 1];
      const chosen = r.chosen && r.chosen.to === last ? r.chosen
        : r.candidates.filter((x) => x.to === last).length === 1 ? r.candidates.find((x) => x.to === last) : null;
      if (chosen) {
        input.value = '';
        if (m.huff) this.play(`H${m.huff} ${chosen.text}`);
        else this.play(chosen.text);
        return;
      }
      if (r.candidates.length > 1) {
        toast(t('dame.moveInput.ambiguous', { moves: r.candidates.map((x) => x.text).join(', ') }), 'error');
        return;
      }
    } else {
      const hm = raw.match(/^h\s*([a-h]?\d+)$/i);
      const sq = hm && D.normSquare(this.size, hm[1]);
      if (sq && this.huffable().has(sq)) {
        input.value = '';
        this.huff(sq);
        return;
      }
    }
    toast(t('game.moveInput.illegal', { move: raw }), 'error');
  }

  // ---------------------------------------------------------------- replay

  setView(ply) {
    const st = this.state;
    if (!st) return;
    if (ply === null || ply >= st.ply) this.viewPly = null;
    else this.viewPly = Math.max(0, ply);
    this.selected = null;
    this.pendingMill = null;
    this.dsel = null;
    this.update();
  }

  shownPly() { return this.viewPly === null ? this.state.ply : this.viewPly; }

  globalKey(ev) {
    if (!this.state || ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target.tagName || '').toLowerCase();
    if (['input', 'textarea', 'select', 'button'].includes(tag) || ev.target.closest?.('.board, dialog')) return;
    const p = this.shownPly();
    if (ev.key === 'ArrowLeft') this.setView(p - 1);
    else if (ev.key === 'ArrowRight') this.setView(p + 1);
    else if (ev.key === 'Home') this.setView(0);
    else if (ev.key === 'End') this.setView(null);
    else if (ev.key === 'f') this.flip();
    else return;
    ev.preventDefault();
  }

  flip() {
    this.flipFromDefault = false;
    this.flipped = !this.flipped;
    store.setFlipped(this.id, this.flipped);
    this.update();
  }

  // ---------------------------------------------------------------- DOM

  build() {
    const els = {};
    this.els = els;
    els.boardWrap = h('div', { class: 'board-wrap' });
    this.board = new Board(els.boardWrap, {
      onPoint: (p) => this.onPoint(p),
      canDrag: (p) => this.canMoveNow() && !this.pendingMill
        && this.currentPosition().board[p] === this.state.turn && this.legal().some((m) => m.from === p),
      onDragStart: (p) => { this.selected = p; this.update(); },
      onDrag: (from, to) => {
        if (this.legal().some((m) => m.from === from && m.to === to)) this.choose(from, to);
        else { this.selected = null; this.update(); }
      },
      onDragCancel: () => { this.update(); },
      onEscape: () => { this.selected = null; this.pendingMill = null; this.update(); },
    });
    els.top = h('div', { class: 'player-bar top' });
    els.bottom = h('div', { class: 'player-bar bottom' });
    els.banner = h('div', { class: 'end-banner', hidden: true });
    els.mobileStatus = h('p', { class: 'mobile-status', 'aria-hidden': 'true' });
    els.offline = h('div', { class: 'offline-banner', hidden: true, role: 'alert' });

    const navBtn = (label, d, fn, id) => h('button', {
      class: 'btn icon', type: 'button', 'aria-label': label, title: label, id, onclick: fn,
    }, s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' }, s('path', { d })));
    els.first = navBtn(t('game.replay.first'), 'M5 5h2.5v14H5zM19 5v14L8.5 12z', () => this.setView(0), 'nav-first');
    els.prev = navBtn(t('game.replay.prev'), 'M17 5v14L6 12z', () => this.setView(this.shownPly() - 1), 'nav-prev');
    els.next = navBtn(t('game.replay.next'), 'M7 5v14l11-7z', () => this.setView(this.shownPly() + 1), 'nav-next');
    els.last = navBtn(t('game.replay.last'), 'M16.5 5H19v14h-2.5zM5 5v14l10.5-7z', () => this.setView(null), 'nav-last');
    els.live = h('button', { class: 'btn live', type: 'button', id: 'back-live', hidden: true, onclick: () => this.setView(null) });
    els.replayInfo = h('div', { class: 'replay-info', 'aria-live': 'polite' });
    els.replayNav = h('div', { class: 'replay-nav' }, els.first, els.prev, els.next, els.last);

    els.title = h('h1', { class: 'game-title' });
    els.conn = h('span', { class: 'conn', role: 'status' });
    els.status = h('p', { class: 'status-line', id: 'status' });
    els.hint = h('p', { class: 'hint', id: 'hint' });
    els.live_region = h('div', { class: 'visually-hidden', 'aria-live': 'polite', id: 'announce' });
    els.drawBox = h('div', { class: 'draw-box', hidden: true });
    els.huffBox = h('div', { class: 'huff-box', id: 'huff-box', hidden: true, role: 'status' });
    els.joinName = h('input', { id: 'join-name', type: 'text', maxlength: 40, autocomplete: 'nickname', value: store.playerName() });
    els.joinBox = h('form', { class: 'card join-box', hidden: true, onsubmit: (e) => { e.preventDefault(); this.join(); } });
    els.seatNotice = h('div', { class: 'card seat-notice', id: 'seat-notice', hidden: true, role: 'alert' });
    els.shareBox = h('div', { class: 'card share-box', hidden: true });
    els.moveList = h('ol', { class: 'move-list', id: 'move-list', 'aria-label': t('game.moves') });
    els.movesTitle = h('h2', { class: 'section-title' });
    els.moveInput = h('input', {
      id: 'move-input', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', enterkeyhint: 'go',
    });
    els.moveInputLabel = h('label', { for: 'move-input', class: 'visually-hidden' });
    els.moveInputBtn = h('button', { class: 'btn', type: 'submit' });
    els.moveForm = h('form', { class: 'move-form', onsubmit: (e) => this.typedMove(e) }, els.moveInputLabel, els.moveInput, els.moveInputBtn);

    const btn = (id, fn, cls = 'btn') => h('button', { class: cls, type: 'button', id, onclick: fn });
    els.flip = btn('flip', () => this.flip());
    els.takeback = btn('takeback', () => this.takeback());
    els.offerDraw = btn('offer-draw', () => this.draw('offer'));
    els.resign = btn('resign', () => this.resign(), 'btn danger');
    els.analyze = h('a', { class: 'btn', id: 'analyze', 'data-link': true, href: '/analysis' });
    els.exportLink = h('a', { class: 'btn', id: 'export', href: `/api/games/${this.id}/record`, download: `muehle-${this.id}.txt` });
    els.newGame = h('a', { class: 'btn primary', id: 'new-game', href: '/', 'data-link': true, hidden: true });
    els.controls = h('div', { class: 'controls' }, els.flip, els.takeback, els.offerDraw, els.resign);
    els.tools = h('div', { class: 'controls tools' }, els.newGame, els.analyze, els.exportLink);
    els.rulesBox = h('div', { class: 'rules-box' });
    els.reviewBox = h('div', { class: 'card review-card', id: 'review', hidden: true });
    els.thinking = h('span', { class: 'thinking', hidden: true }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'thinking-text' }));

    mount(this.root, h('div', { class: 'game-page' },
      h('div', { class: 'board-col' }, els.joinBox, els.seatNotice, els.offline, els.top, els.boardWrap, els.bottom, els.mobileStatus,
        h('div', { class: 'under-board' }, els.replayNav, els.live, els.replayInfo)),
      h('aside', { class: 'side-col' },
        h('div', { class: 'card status-card' },
          h('div', { class: 'title-row' }, els.title, els.conn),
          els.status, els.thinking, els.hint, els.huffBox, els.banner, els.drawBox, els.live_region),
        els.shareBox,
        h('div', { class: 'card moves-card' }, els.movesTitle, els.moveList, els.moveForm),
        els.reviewBox,
        h('div', { class: 'card controls-card' }, els.controls, els.tools),
        h('div', { class: 'card rules-card' }, els.rulesBox))));
    this.relabel();
  }

  relabel() {
    const e = this.els;
    e.first.setAttribute('aria-label', t('game.replay.first'));
    e.first.title = t('game.replay.first');
    e.prev.setAttribute('aria-label', t('game.replay.prev'));
    e.prev.title = t('game.replay.prev');
    e.next.setAttribute('aria-label', t('game.replay.next'));
    e.next.title = t('game.replay.next');
    e.last.setAttribute('aria-label', t('game.replay.last'));
    e.last.title = t('game.replay.last');
    e.live.textContent = t('game.live');
    e.movesTitle.textContent = t('game.moves');
    e.moveList.setAttribute('aria-label', t('game.moves'));
    e.moveInputLabel.textContent = t('game.moveInput');
    e.moveInput.placeholder = this.dame ? t(this.size === 8 ? 'dame.moveInput.placeholder8' : 'dame.moveInput.placeholder10') : t('game.moveInput.placeholder');
    e.moveInputBtn.textContent = t('game.moveInput.play');
    e.flip.textContent = `⇅ ${t('game.flip')}`;
    e.takeback.textContent = `↶ ${t('game.takeback')}`;
    e.offerDraw.textContent = `½ ${t('game.offerDraw')}`;
    e.resign.textContent = `⚑ ${t('game.resign')}`;
    e.analyze.textContent = t('game.analyze');
    e.exportLink.textContent = t('game.export');
    e.newGame.textContent = t('game.newGame');
    e.thinking.querySelector('.thinking-text').textContent = t('game.thinking');
    this.lastAnnounced = '';
    this.update();
  }

  renderConn() {
    const e = this.els.conn;
    e.className = `conn ${this.conn}`;
    e.textContent = t(`conn.${this.conn}`);
    this.els.offline.hidden = this.conn !== 'offline';
    this.els.offline.textContent = t('conn.offline');
  }

  announce(text) {
    this.els.live_region.textContent = text;
  }

  update() {
    this.renderConn();
    const st = this.state;
    const e = this.els;
    e.title.textContent = t('game.title', { id: this.id });
    if (!st) {
      e.status.textContent = t('game.loading');
      this.board.render({ board: {}, interactive: false });
      return;
    }
    const myTurn = st.status === 'ongoing' && this.seats[st.turn] && !(this.seats.white && this.seats.black);
    document.title = `${myTurn ? `● ${t('game.yourMove')} – ` : ''}${t('game.title', { id: this.id })} – brett`;
    this.board.setFlipped(this.flipped);
    const pos = this.currentPosition();
    const replay = this.viewPly !== null;
    const canMove = this.canMoveNow();
    const legal = canMove ? this.legal() : [];

    // Board
    let lastText = null;
    if (this.dame) lastText = this.renderDameBoard(pos, canMove, legal, replay);
    else lastText = this.renderMuehleBoard(pos, canMove, legal, replay);
    e.boardWrap.classList.toggle('replaying', replay);

    // Players
    const bottomColor = this.flipped ? 'black' : 'white';
    if (this.dame) {
      this.renderDamePlayer(e.bottom, bottomColor, pos);
      this.renderDamePlayer(e.top, M.other(bottomColor), pos);
    } else {
      this.renderPlayer(e.bottom, bottomColor, pos);
      this.renderPlayer(e.top, M.other(bottomColor), pos);
    }
    this.renderStatus(st, canMove, legal, replay, lastText, pos);
  }

  /** Draws the Mühle board; returns the text of the move marked as last. */
  renderMuehleBoard(pos, canMove, legal, replay) {
    const st = this.state;
    let board = pos.board;
    let targets = new Set();
    let movable = new Set();
    let removable = new Set();
    let selected = this.selected;
    if (canMove) {
      if (this.pendingMill) {
        const pm = this.pendingMill;
        board = { ...board };
        if (pm.from) delete board[pm.from];
        board[pm.to] = st.turn;
        removable = pm.removable;
        selected = pm.to;
      } else if (legal.some((m) => !m.from)) {
        targets = new Set(legal.map((m) => m.to));
      } else {
        movable = new Set(legal.map((m) => m.from));
        if (this.selected) targets = new Set(legal.filter((m) => m.from === this.selected).map((m) => m.to));
      }
    }
    let lastText = null;
    if (replay) lastText = this.viewPly > 0 ? st.moves[this.viewPly - 1] : null;
    else if (this.optimistic && this.optimistic.ply === st.ply) lastText = this.optimistic.move;
    else lastText = st.last_move || st.moves[st.ply - 1] || null;
    const last = lastText ? M.parseMove(lastText) : null;
    this.board.render({
      board, selected, targets, movable, removable, last, interactive: canMove,
      animate: true, ply: replay ? this.viewPly : st.ply,
    });
    return lastText;
  }

  /** The last move of the shown position as {text, path, captured} (Dame). */
  dameLast(replay) {
    const st = this.state;
    let i;
    let text;
    if (replay) { i = this.viewPly - 1; text = i >= 0 ? st.moves[i] : null; }
    else if (this.optimistic && this.optimistic.ply === st.ply && this.optimistic.move) { i = st.ply; text = this.optimistic.move; }
    else { i = st.ply - 1; text = st.moves[i] || null; }
    const extra = [];
    if (!replay && st.pending_huff) extra.push(st.pending_huff);
    if (!replay && this.optimistic && this.optimistic.huff) extra.push(this.optimistic.huff);
    if (!text) return { text: null, path: [], captured: extra };
    const m = D.parseMove(text, this.size);
    if (!m) return { text, path: [], captured: extra };
    let before = null;
    if (m.huff) extra.push(m.huff);
    if (i === st.ply) {
      try { before = D.parseFen(st.position, this.size); } catch { before = null; }
      if (before && m.huff) before = D.applyHuff(before, m.huff);
    }
    else if (this.positions && this.positions[i]) {
      before = this.positions[i];
      const hf = (st.huffs || [])[i];
      if (hf) { before = D.applyHuff(before, hf); extra.push(hf); }
    }
    const captured = before && m.capture ? D.capturedBy(before, m.path) : [];
    return { text, path: m.path, captured: [...captured, ...extra] };
  }

  /** Draws the Dame board; returns the text of the move marked as last. */
  renderDameBoard(pos, canMove, legal, replay) {
    const st = this.state;
    let targets = new Set();
    let movable = new Set();
    let capturing = new Set();
    let path = [];
    let selected = null;
    const huffable = canMove ? this.huffable() : new Set();
    if (canMove) {
      movable = new Set(legal.map((m) => m.from));
      if (this.dsel) {
        const r = D.matchClicks(legal, this.dsel);
        selected = this.dsel.from;
        targets = r.next;
        if (this.dsel.clicks.length) {
          capturing = r.common;
          path = D.chosenPath(legal, this.dsel);
        }
      }
    }
    const last = this.dameLast(replay);
    this.board.render({
      board: pos.board, selected, targets, movable, huffable, capturing, path,
      last: { path: last.path, captured: last.captured }, interactive: canMove,
      animate: true, ply: replay ? this.viewPly : st.ply,
    });
    return last.text;
  }

  renderStatus(st, canMove, legal, replay, lastText, pos) {
    const e = this.els;
    // Status
    const over = st.status === 'over';
    let status;
    if (over) status = endText(st);
    else if (st.kind === 'online' && Object.values(st.players).some((p) => !p.joined) && this.hasSeat() && !this.needsJoin()) status = t('game.waitingJoin');
    else if (this.seats.white && this.seats.black) status = t('game.toMove', { color: colorName(st.turn) });
    else if (this.seats[st.turn]) status = t('game.yourMove');
    else status = t('game.theirMove', { name: this.playerName(st.turn) });
    e.status.textContent = status;
    e.status.classList.toggle('over', over);
    e.mobileStatus.textContent = this.pendingMill ? t('game.chooseRemoval') : status;
    e.mobileStatus.classList.toggle('over', over);
    e.mobileStatus.classList.toggle('mill', !!this.pendingMill);
    e.thinking.hidden = !st.thinking || over;
    e.banner.hidden = !over;
    if (over) {
      mount(e.banner, h('strong', { text: t('game.over') }), h('span', { text: ` · ${st.result}` }));
    }
    let hint = '';
    const huffs = canMove ? this.huffable() : new Set();
    const compulsory = this.dame && canMove && legal.length > 0 && legal.every((m) => m.capture);
    let several = false;
    if (this.dame && canMove && this.dsel) several = D.matchClicks(legal, this.dsel).candidates.length > 1;
    if (this.dame && canMove && several && this.dsel.clicks.length) hint = t('dame.choosePath');
    else if (compulsory) hint = t('dame.compulsory');
    else if (this.pendingMill) hint = t('game.chooseRemoval');
    else if (!this.hasSeat() && !over) hint = t('game.spectator');
    else if (this.myColor() && !over && !this.needsJoin()) hint = t('game.yourSeat', { color: colorName(this.myColor()) });
    e.hint.textContent = hint;
    e.hint.classList.toggle('mill', !!this.pendingMill);
    e.hint.classList.toggle('compulsory', compulsory && hint === t('dame.compulsory'));
    if (huffs.size) e.mobileStatus.textContent = t('dame.huff.short');
    else if (compulsory) e.mobileStatus.textContent = `${status} – ${t('dame.compulsory')}`;

    // Huff offer
    e.huffBox.hidden = huffs.size === 0;
    if (huffs.size) {
      const local = this.seats.white && this.seats.black;
      mount(e.huffBox,
        h('p', {}, h('strong', { text: t('dame.huff.title') })),
        h('p', { text: local ? t('dame.huff.offerLocal', { color: colorName(st.turn) }) : t('dame.huff.offer') }),
        h('p', { class: 'small muted', text: t('dame.huff.squares', { squares: [...huffs].join(', ') }) }));
    }
    const announceText = over ? status : `${status}${lastText && !replay ? ` – ${lastText}` : ''}`;
    if (announceText !== this.lastAnnounced) {
      this.lastAnnounced = announceText;
      this.announce(announceText);
    }

    // Draw offer
    const offer = !over && st.draw_offer;
    e.drawBox.hidden = !offer;
    if (offer) {
      const local = this.seats.white && this.seats.black;
      const mineOffer = !local && this.seats[offer];
      const canAnswer = local || (this.seats[M.other(offer)] && !this.seats[offer]);
      mount(e.drawBox,
        h('p', { text: mineOffer ? t('game.drawOffered') : t('game.drawOfferedBy', { color: colorName(offer) }) }),
        canAnswer ? h('div', { class: 'row' },
          h('button', { class: 'btn primary', type: 'button', id: 'accept-draw', onclick: () => this.draw('accept'), text: t('game.accept') }),
          h('button', { class: 'btn', type: 'button', id: 'decline-draw', onclick: () => this.draw('decline'), text: t('game.decline') })) : null);
    }

    this.renderJoin();
    this.renderShare();
    this.renderMoves();
    this.renderReview();

    // Replay navigation
    const shown = this.shownPly();
    e.first.disabled = shown === 0;
    e.prev.disabled = shown === 0;
    e.next.disabled = shown >= st.ply;
    e.last.disabled = shown >= st.ply;
    e.live.hidden = !replay || over;
    e.replayInfo.textContent = replay ? (this.viewPly === 0 ? t('game.replay.start')
      : t('game.replay.viewing', { move: `${this.moveNumber(this.viewPly - 1)} ${st.moves[this.viewPly - 1]}` })) : '';

    // Controls
    const acting = this.actingColor();
    const playing = !over && acting && !this.needsJoin() && !this.waitingForOpponent();
    e.moveForm.hidden = over || !this.hasSeat() || this.needsJoin();
    e.moveInput.disabled = !canMove;
    e.moveInputBtn.disabled = !canMove;
    e.resign.hidden = !playing;
    e.resign.disabled = this.busy;
    e.offerDraw.hidden = !playing || !!st.draw_offer || st.kind === 'computer';
    e.offerDraw.disabled = this.busy;
    const mine = this.myColor();
    const hasOwnMove = st.kind === 'computer' && mine && this.positions
      && this.positions.slice(0, st.ply).some((p) => p.turn === mine);
    const hotSeat = this.hotSeat();
    e.takeback.hidden = over || !((st.kind === 'computer' && mine) || hotSeat);
    e.takeback.disabled = this.busy || !(hotSeat ? st.ply > 0 : hasOwnMove);
    e.newGame.hidden = !over;
    const analysisParams = this.dame
      ? new URLSearchParams({ variant: st.game, position: D.formatFen(pos), rules: st.rules || st.game, game: String(this.id), ply: String(shown) })
      : new URLSearchParams({ position: M.formatPosition(pos), rules: st.rules || 'standard', game: String(this.id), ply: String(shown) });
    e.analyze.href = `/analysis?${analysisParams}`;

    // Rules
    let ruleItems;
    let summary = null;
    if (this.dame) {
      const opts = this.dameRuleOptions(st);
      ruleItems = describeDameOptions(opts);
      summary = h('details', { class: 'rules-summary', id: 'rules-summary' },
        h('summary', { text: t('dame.rules.summary') }),
        h('ul', {}, ...dameRulesSummary(opts).map((x) => h('li', { text: x }))));
    } else {
      const { options } = parseRules(st.rules);
      ruleItems = describeOptions({ ...options, ...(st.rule_options || {}) });
    }
    const openSummary = e.rulesBox.querySelector('#rules-summary')?.open;
    if (summary && openSummary) summary.open = true;
    mount(e.rulesBox,
      h('h2', { class: 'section-title', text: t('game.rules') }),
      h('p', {}, h('strong', { text: this.dame ? rulesLabel(st.rules, st.game) : rulesLabel(st.rules) })),
      h('ul', { class: 'rule-list' }, ...ruleItems.map((x) => h('li', { text: x }))),
      summary,
      h('p', { class: 'muted small' },
        h('span', { text: `${t('game.kind')}: ${t(`kind.${st.kind}`)}` }),
        h('br'),
        h('span', { text: `${t('game.started')}: ${fmtDate(st.created_at)}` })));
  }

  playerName(c) {
    const p = this.state.players[c];
    if (!p) return colorName(c);
    if (p.type === 'computer') return t('game.computer', { n: p.level ?? '?' });
    return p.name || colorName(c);
  }

  /** A player bar's name line: colour, name, "you" (one seat here) and "…" while an invited player is away. */
  playerWho(c) {
    const st = this.state;
    const p = st.players[c] || {};
    const you = this.seats[c] && !(this.seats.white && this.seats.black);
    return h('div', { class: 'who' },
      h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }),
      h('span', { class: 'name', text: this.playerName(c) }),
      you ? h('span', { class: 'tag', text: t('game.you') }) : null,
      p.type === 'human' && st.kind === 'online' && !p.joined ? h('span', { class: 'tag muted', text: '…' }) : null);
  }

  renderPlayer(el, c, pos) {
    const st = this.state;
    const onBoard = M.onBoard(pos, c);
    const inHand = pos.hand[c];
    const removed = this.viewPly === null && !this.optimistic && st.removed ? st.removed[c] : M.removedCount(pos)[c];
    const phase = M.phaseOf(pos, c, (st.rule_options || {}).flying !== false);
    const toMove = st.status === 'ongoing' && pos.turn === c;
    const over = st.status === 'over' && this.viewPly === null;
    markPlayerBar(el, c, toMove);
    const hand = h('div', { class: 'hand', 'aria-label': t('game.inHand', { n: inHand }), title: t('game.inHand', { n: inHand }) });
    for (let i = 0; i < inHand; i++) hand.append(miniStone(c));
    const lost = h('div', { class: 'lost', title: tn('game.removed', removed) });
    for (let i = 0; i < removed; i++) lost.append(miniStone(c, 'taken'));
    mount(el,
      this.playerWho(c),
      h('div', { class: 'facts' },
        // A finished game has no phase (a replayed position has).
        over ? h('span', { class: 'phase', text: colorName(c) })
          : h('span', { class: `phase ${phase}`, text: `${colorName(c)} ${t(`game.phase.${phase}`)}` }),
        h('span', { class: 'count', text: `${t('game.inHand', { n: inHand })} · ${tn('game.removed', removed)}`, title: t('game.onBoard', { n: onBoard }) })),
      h('div', { class: 'stones' }, hand, lost));
  }

  renderDamePlayer(el, c, pos) {
    const st = this.state;
    const live = this.viewPly === null && !this.optimistic;
    const counts = live && st.pieces ? st.pieces[c] : D.pieceCounts(pos)[c];
    let lost;
    if (live && st.captured) lost = st.captured[c];
    else {
      let start = null;
      try { start = D.parseFen(st.start_position, this.size); } catch { /* the usual start */ }
      lost = D.lostCount(pos, start)[c];
    }
    const toMove = st.status === 'ongoing' && pos.turn === c;
    markPlayerBar(el, c, toMove);
    const kings = h('div', { class: 'kings', title: tn('dame.kings', counts.kings) });
    for (let i = 0; i < counts.kings; i++) kings.append(miniPiece(c, { king: true }));
    const lostRow = h('div', { class: 'lost', title: tn('dame.lost', lost) });
    for (let i = 0; i < lost; i++) lostRow.append(miniPiece(c, { cls: 'taken' }));
    mount(el,
      this.playerWho(c),
      h('div', { class: 'facts' },
        h('span', { class: 'phase', text: colorName(c) }),
        h('span', { class: 'count', 'data-men': counts.men, 'data-kings': counts.kings, 'data-lost': lost, text: `${tn('dame.men', counts.men)} · ${tn('dame.kings', counts.kings)} · ${tn('dame.lost', lost)}` })),
      h('div', { class: 'stones' }, kings, lostRow));
  }

  renderJoin() {
    const e = this.els;
    this.renderSeatNotice();
    const show = this.needsJoin() && this.state.status === 'ongoing';
    const appeared = show && e.joinBox.hidden;
    e.joinBox.hidden = !show;
    // On a phone the join card is the first thing on screen.
    if (appeared) requestAnimationFrame(() => e.joinBox.scrollIntoView({ block: 'start' }));
    if (!show) return;
    const c = this.myColor();
    if (e.joinBox.dataset.lang === document.documentElement.lang) return;
    e.joinBox.dataset.lang = document.documentElement.lang;
    mount(e.joinBox,
      h('h2', { text: t('game.join.title') }),
      h('p', { text: t('game.join.text', { color: colorName(c) }) }),
      h('div', { class: 'field' }, h('label', { for: 'join-name', text: t('home.name') }), e.joinName),
      h('button', { class: 'btn primary', type: 'submit', id: 'join', text: t('game.join.button') }));
  }

  /** A link whose token holds no seat, or a seat someone else has joined. */
  renderSeatNotice() {
    const e = this.els;
    const n = this.seatNotice;
    e.seatNotice.hidden = !n;
    if (!n) return;
    const key = `${n.kind}|${document.documentElement.lang}`;
    if (e.seatNotice.dataset.key === key) return;
    e.seatNotice.dataset.key = key;
    if (n.kind === 'invalid') {
      mount(e.seatNotice,
        h('h2', { text: t('game.badToken.title') }),
        h('p', { text: t('game.badToken.text') }));
    } else {
      mount(e.seatNotice,
        h('h2', { text: t('game.seatTaken.title') }),
        h('p', { text: t('game.seatTaken.text', { name: n.name || colorName(n.color), color: colorName(n.color) }) }),
        h('div', { class: 'row' },
          h('button', { class: 'btn', type: 'button', id: 'dismiss-notice', onclick: () => { this.seatNotice = null; this.update(); }, text: t('game.seatTaken.watch') }),
          h('button', { class: 'btn danger', type: 'button', id: 'take-over', onclick: () => this.takeOverSeat(), text: t('game.seatTaken.takeOver') })));
    }
  }

  renderShare() {
    const st = this.state;
    const e = this.els;
    const inv = store.invite(this.id);
    const showInvite = st.kind === 'online' && inv && st.players[inv.color] && !st.players[inv.color].joined && st.status === 'ongoing';
    const show = st.kind !== 'imported' && (showInvite || st.kind === 'online' || this.hasSeat());
    e.shareBox.hidden = !show;
    e.shareBox.classList.toggle('inviting', !!showInvite);
    if (!show) return;
    const origin = location.origin;
    const linkRow = (id, url) => {
      const input = h('input', { type: 'text', readonly: true, value: url, id, 'aria-label': url, onfocus: (ev) => ev.target.select() });
      return h('div', { class: 'link-row' }, input,
        h('button', {
          class: 'btn', type: 'button', id: `${id}-copy`,
          onclick: async (ev) => {
            await copyText(url).catch(() => {});
            ev.target.textContent = t('game.copied');
            setTimeout(() => { ev.target.textContent = t('game.copy'); }, 1500);
          },
          text: t('game.copy'),
        }));
    };
    const parts = [];
    if (showInvite) {
      const url = `${origin}${inv.url}${inv.url.includes('#') ? '&' : '#'}color=${inv.color}`;
      parts.push(h('h2', { text: t('game.invite') }),
        h('p', { class: 'small', text: t('game.invite.text', { color: colorName(inv.color) }) }),
        linkRow('invite-link', url));
    }
    parts.push(h('h2', { text: t('game.watch') }),
      h('p', { class: 'small', text: t('game.watch.text') }),
      linkRow('watch-link', `${origin}/game/${this.id}`));
    const key = JSON.stringify([showInvite, document.documentElement.lang]);
    if (e.shareBox.dataset.key === key) return;
    e.shareBox.dataset.key = key;
    mount(e.shareBox, ...parts);
  }

  renderMoves() {
    const st = this.state;
    const e = this.els;
    const shown = this.shownPly();
    const review = this.review && !this.dame ? this.review : null;
    const blunders = new Map((review ? review.changes : []).map((c) => [c.ply, c]));
    const key = `${st.moves.join(' ')}|${(st.huffs || []).join(',')}|${shown}|${document.documentElement.lang}|${[...blunders.keys()].join(',')}`;
    if (e.moveList.dataset.key === key) return;
    e.moveList.dataset.key = key;
    const items = [];
    const positions = this.positions;
    if (st.moves.length === 0) {
      mount(e.moveList, h('li', { class: 'muted empty', text: t('game.noMoves') }));
      return;
    }
    let row = null;
    st.moves.forEach((mv, i) => {
      const before = positions ? positions[i] : null;
      const mover = before ? before.turn : (i % 2 === 0 ? 'white' : 'black');
      const no = before ? before.moveNo : Math.floor(i / 2) + 1;
      if (!row || mover === 'white') {
        row = h('li', { class: 'move-row' }, h('span', { class: 'move-no', text: `${no}.` }));
        if (mover === 'black') row.append(h('span', { class: 'move empty', text: '…' }));
        items.push(row);
      }
      const current = shown === i + 1;
      const huff = this.dame ? (st.huffs || [])[i] : null;
      const blunder = blunders.get(i);
      const played = huff ? t('dame.playedHuff', { color: colorName(mover), move: mv, sq: huff }) : t('game.played', { color: colorName(mover), move: mv });
      row.append(h('button', {
        type: 'button', class: ['move', mv.includes('x') ? (this.dame ? 'capture' : 'mill') : '', current ? 'current' : '', blunder ? 'blunder' : ''],
        'data-ply': i + 1, 'aria-current': current ? 'step' : null,
        'aria-label': blunder ? `${played} – ${changeText(blunder)}` : played,
        title: blunder ? changeText(blunder) : null,
        onclick: () => this.setView(i + 1),
      }, huff ? h('span', { class: 'huff', text: `H ${huff}` }) : null, huff ? ' ' : null, mv,
      blunder ? h('span', { class: 'blunder-mark', 'aria-hidden': 'true', text: '??' }) : null));
    });
    mount(e.moveList, ...items);
    const cur = e.moveList.querySelector('.current');
    if (cur) {
      const list = e.moveList;
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

export { navigate };

/** Colours a player bar and marks the side to move; the bar keeps its place (top / bottom). */
function markPlayerBar(el, c, toMove) {
  el.className = `player-bar ${el.classList.contains('top') ? 'top' : 'bottom'} ${c}${toMove ? ' to-move' : ''}`;
  el.dataset.color = c;
}
