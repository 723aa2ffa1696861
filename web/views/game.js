// The game view: board, players, status, move list with replay, controls,
// invite / watch links, live updates through the socket.

import { h, s, mount, toast, confirmDialog, copyText } from '../dom.js';
import { t, tn, colorName, errorText, fmtDate } from '../i18n.js';
import { api, GameSocket, ACCOUNT_SEAT } from '../api.js';
import { account, accountKnown, onAccountChange } from '../account.js';
import { ChatPanel } from '../chat.js';
import { other } from '../muehle.js';
import { gameAdapter } from '../games/index.js';
import * as store from '../store.js';
import { navigate } from '../nav.js';
import { statusBox, changeText } from '../tablebase.js';
import { fmtClock, clockTimes, controlText, beep, clockIcon, LOW_TIME_MS } from '../clock.js';
import { endTextFor, ratingChangeText, sideName } from '../ending.js';
import { Hints } from '../hint.js';
import { SettingsPanel, playSound } from '../settings.js';
import { copyRecordOf } from '../record.js';
import { WholeAnalysis } from './whole-analysis.js';

/** An eye: the people watching a game. */
const eyeIcon = () => s('svg', { class: 'eye-icon', viewBox: '0 0 24 24', 'aria-hidden': 'true' },
  s('path', { d: 'M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12z', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linejoin': 'round' }),
  s('circle', { cx: 12, cy: 12, r: 3, fill: 'currentColor' }));

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

/** The page's title while it is the player's move on a clock. */
const titleWithClock = (time) => `⏱ ${time} · brett`;

export class GameView {
  constructor(root, { id }) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.positions = null;
    this.posKey = '';
    // The game's adapter (games/): Mühle until the state names the game.
    this.game = gameAdapter(this, null);
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
    // States the socket has delivered: an HTTP answer that crossed a newer
    // socket state on the way is not applied over it.
    this.socketStates = 0;
    this.chat = new ChatPanel(id);
    this.build();
    this.load();
    this.socket = new GameSocket(id, {
      onState: (st, at) => { this.socketStates += 1; this.queueSocketState(st, at); },
      onOpen: () => { this.load(); this.chat.load(); },
      onStatus: (s) => { this.conn = s; this.renderConn(); },
      onChat: (m) => this.chat.add(m),
    });
    this.onKey = (ev) => this.globalKey(ev);
    document.addEventListener('keydown', this.onKey);
    // The clocks are drawn from the last state every 100 ms (never counted down on their own).
    this.clockAt = 0;
    this.premove = null;
    this.lowBeep = null;
    this.ticker = setInterval(() => this.tick(), 100);
    // A login or logout changes the seats the cookie acts for.
    this.offAccount = onAccountChange(() => {
      if (this.confirming) this.reconfirm = true;
      else this.confirmSeats();
    });
  }

  destroy() {
    this.settings.destroy();
    this.offAccount?.();
    clearInterval(this.ticker);
    this.socket.close();
    document.removeEventListener('keydown', this.onKey);
  }

  // ---------------------------------------------------------------- data

  async load() {
    const since = this.socketStates;
    try {
      const st = await api.state(this.id);
      this.applyState(st, 'fetch', since);
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

  /**
   * A state from the socket: states that come in a burst are drawn once,
   * the latest (each is the whole game), so that the page does not fall
   * behind; its clock counts from the moment it came (`at`).
   */
  queueSocketState(st, at) {
    const first = !this.pendingSocket;
    this.pendingSocket = { st, at };
    if (!first) return;
    setTimeout(() => {
      const p = this.pendingSocket;
      this.pendingSocket = null;
      if (p && !this.socket.closed) this.applyState(p.st, 'socket', null, p.at);
    }, 0);
  }

  /**
   * Takes a state from the server. A move answer older than what we show is
   * ignored, and so is an HTTP answer (`since`: the socket states counted
   * when its request left) once the socket has delivered a state meanwhile:
   * the socket sends every change in order, so its state is at least as new,
   * while the HTTP answer may have been taken before the latest change.
   */
  applyState(st, source, since = null, at = null) {
    if (!st || st.id !== this.id) return;
    const cur = this.state;
    if (cur && source === 'answer' && st.ply < cur.ply && st.moves.every((m, i) => cur.moves[i] === m)) {
      this.update();
      return;
    }
    if (cur && since !== null && this.socketStates !== since) {
      this.update();
      return;
    }
    const firstTime = !cur;
    this.state = st;
    this.clockAt = at ?? performance.now();
    this.optimistic = null;
    if (firstTime) {
      const game = gameAdapter(this, st);
      if (!game) {
        // A game this page does not know: said so, never shown as another.
        this.socket.close();
        mount(this.root, h('div', { class: 'card narrow' },
          h('h1', { text: t('game.title', { id: this.id }) }),
          h('p', { class: 'unknown-game', role: 'alert', text: t('game.unknownGame', { game: st.game }) }),
          h('a', { class: 'btn primary', href: '/', 'data-link': true, text: t('game.newGame') })));
        return;
      }
      // The game's own adapter (its rules, its board) replaces the one the view began with.
      this.useGame(game);
    }
    const key = `${st.start_position}|${st.moves.join(' ')}|${(st.huffs || []).join(',')}`;
    if (key !== this.posKey) {
      this.posKey = key;
      try {
        this.positions = this.game.positionsAlong(st);
      } catch {
        this.positions = null;
      }
      if (!cur || st.ply !== cur.ply || st.moves[st.ply - 1] !== cur.moves[cur.ply - 1]) this.game.clearSelection();
    }
    this.game.stateChanged(cur, st);
    if (this.viewPly !== null && this.viewPly > st.ply) this.viewPly = null;
    if (cur && !firstTime) {
      this.noticeDrawAnswer(cur, st);
      this.soundFor(cur, st);
    }
    if (!this.seatsConfirmed) this.confirmSeats();
    if (firstTime) {
      if (this.flipped === null) {
        this.flipped = this.defaultFlip();
        this.flipFromDefault = true;
      }
      if (st.status === 'over' && !this.hasSeat()) this.viewPly = null;
    }
    this.loadReview();
    this.socket.setFastPing(!!(st.clock && st.status === 'ongoing'));
    this.update();
    this.playPremove();
  }

  /** Tells the player whose draw offer was declined, or lapsed by a move. */
  noticeDrawAnswer(cur, st) {
    const offer = cur.draw_offer;
    if (!offer || st.draw_offer || st.status !== 'ongoing') return;
    if (!this.seats[offer] || (this.seats.white && this.seats.black)) return;
    toast(st.ply === cur.ply ? t('game.drawDeclined') : t('game.drawLapsed'));
  }

  /** The sound of what changed from `cur` to `st`: the game's end, or the new move (a mill, a capture, a move). */
  soundFor(cur, st) {
    if (st.status === 'over' && cur.status !== 'over') playSound('end');
    else if (st.ply > cur.ply && st.moves.length >= st.ply) playSound(this.game.moveClass(st.moves[st.ply - 1]) || 'move');
  }

  /** Copies the game's record (as GET /api/games/{id}/record gives it) to the clipboard. */
  async copyRecord() {
    try {
      await copyRecordOf(this.id);
    } catch (e) {
      this.reportError(e);
    }
  }

  /**
   * After a Mühle game (finished, or an imported record): asks the server
   * which moves changed the game's value by the perfect-play databases.
   */
  async loadReview() {
    const st = this.state;
    if (!st || !this.game.reviews || (st.status !== 'over' && st.kind !== 'imported')) return;
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
    const show = !!r && this.state && (this.state.status === 'over' || this.state.kind === 'imported');
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

  /** Replaces the adapter and board the view began with (standard Mühle) by `game`'s adapter and its board. */
  useGame(game) {
    this.game = game;
    this.els.boardWrap.replaceChildren();
    this.board = game.createBoard(this.els.boardWrap);
    this.els.moveInput.placeholder = game.moveInputPlaceholder();
    this.els.exportLink.setAttribute('download', game.exportName(this.id));
  }

  /**
   * Asks the server which seat each token this browser holds (stored, or
   * from the link just opened) stands for; only confirmed seats are used.
   * A wrong token is dropped with a notice; a link to an online seat that
   * someone has already joined opens the spectator view, with the choice
   * to take the seat over (the same player on another device).
   */
  async confirmSeats() {
    // Whether an account is logged in (its seats need no token) is asked at
    // start: until the answer, no seat is known for sure either way; the
    // answer calls this again (onAccountChange).
    if (this.confirming || !this.state || !accountKnown()) return;
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
      // The seats the login's account holds (no token needed: the cookie acts
      // for them); a local game's both seats.
      if (account()) {
        const st = await api.state(this.id);
        if (st.you) {
          for (const c of st.kind === 'local' ? ['white', 'black'] : [st.you]) if (!seats[c]) seats[c] = ACCOUNT_SEAT;
        }
      }
      if (loose) store.dropLooseToken(this.id);
      this.linkToken = null;
      this.seats = seats;
      this.seatsConfirmed = true;
      this.seatNotice = notice;
      if (Object.keys(seats).length) this.remember();
      // The page of one seat of an online game is its player's presence.
      const held = Object.values(seats);
      if (this.state.kind === 'online' && held.length === 1) this.socket.hello(held[0]);
      if (this.flipFromDefault) this.flipped = this.defaultFlip();
    } catch (e) {
      // Offline or the server away: asked again with the next state.
      if (e.code !== 'network') this.reportError(e);
    } finally {
      this.confirming = false;
    }
    if (this.reconfirm) {
      this.reconfirm = false;
      this.confirmSeats();
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

  /**
   * Whether a move entered now is kept as a premove: an online game on a
   * live clock, the opponent to move.
   */
  premoveAllowed() {
    const st = this.state;
    const c = this.myColor();
    return !!(st && c && st.status === 'ongoing' && st.kind === 'online' && st.clock && st.clock.kind === 'live'
      && st.turn !== c && this.viewPly === null && !this.needsJoin() && !this.waitingForOpponent());
  }

  /** Whether the board takes a move now (the player's move, or a premove). */
  canEnter() { return this.canMoveNow() || this.premoveAllowed(); }

  /** The position moves are entered in: the one shown, with the player to move while a premove is entered. */
  inputPosition() {
    const pos = this.currentPosition();
    return this.premoveAllowed() ? { ...pos, turn: this.myColor() } : pos;
  }

  /** Keeps `text` to be played when it is the player's turn. */
  setPremove(text) {
    this.premove = text;
    this.game.clearSelection();
    this.announce(t('game.premove', { move: text }));
    this.update();
  }

  cancelPremove() {
    if (!this.premove) return false;
    this.premove = null;
    this.game.clearSelection();
    this.update();
    return true;
  }

  /** Plays the premove once it is the player's turn, if it is legal then (else drops it). */
  playPremove() {
    const mv = this.premove;
    const st = this.state;
    if (!mv || !st) return;
    if (st.status !== 'ongoing' || this.premoveAllowed()) {
      if (st.status !== 'ongoing') this.cancelPremove();
      return;
    }
    if (!this.canMoveNow()) return;
    this.premove = null;
    if ((st.legal_moves || []).includes(mv)) this.play(mv);
    else this.update();
  }

  // ---------------------------------------------------------------- moves

  legal() { return this.game.legal(); }

  /**
   * Whether the player may enter a move on the board now; a player whose
   * turn it is not is told so.
   */
  inputAllowed() {
    // A click while a premove waits takes it back.
    if (this.premove) { this.cancelPremove(); return false; }
    if (this.canEnter()) return true;
    const st = this.state;
    if (st && st.status === 'ongoing' && this.viewPly === null && !this.seats[st.turn] && this.hasSeat()) {
      toast(t('game.notYourTurn'));
    }
    return false;
  }

  async play(text) {
    if (this.premoveAllowed()) { this.setPremove(text); return; }
    if (!this.seats[this.state.turn]) return;
    this.game.clearSelection();
    const timed = !!this.state.clock;
    await this.sendTurn(
      (pos) => ({ move: text, position: this.game.afterMove(pos, text) }),
      (tok, ply) => api.move(this.id, tok, text, ply, timed ? this.socket.lagMs() : undefined));
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
    const since = this.socketStates;
    try {
      const res = await request(tok, st.ply);
      this.busy = false;
      this.applyState(res, 'answer', since);
    } catch (e) {
      this.busy = false;
      this.optimistic = null;
      this.update();
      this.reportError(e);
      this.load();
    }
  }

  reportError(e) {
    if (ERROR_CODES.includes(e.code)) toast(t(`error.${e.code}`), 'error');
    else if (errorText(e) !== e.message) toast(errorText(e), 'error');
    else toast(t('error.generic', { message: e.message }), 'error');
  }

  /** The position the board shows (live, optimistic or replayed). */
  currentPosition() {
    const st = this.state;
    if (this.viewPly !== null && this.positions) return this.positions[this.viewPly];
    if (this.optimistic && this.optimistic.ply === st.ply) return this.optimistic.position;
    try {
      return this.game.parsePosition(st);
    } catch {
      return this.positions ? this.positions[this.positions.length - 1] : { board: {}, hand: { white: 0, black: 0 }, turn: st.turn };
    }
  }

  async action(fn) {
    if (this.busy) return;
    this.busy = true;
    this.update();
    const since = this.socketStates;
    try {
      const res = await fn();
      this.busy = false;
      this.applyState(res, 'action', since);
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

  /** Abort (an online game before both have moved), give time, claim the game. */
  abort() {
    const c = this.myColor();
    if (c) this.action(() => api.abort(this.id, this.seats[c]));
  }

  /**
   * Offer (or accept) a rematch, or decline (or withdraw) it; once it is
   * accepted, this player's seat of the new game (a guest's token is kept)
   * and off to it.
   */
  async rematch(what) {
    const c = this.myColor();
    if (!c || this.busy) return;
    this.busy = true;
    this.update();
    try {
      const v = await api.rematch(this.id, this.seats[c], what);
      this.busy = false;
      if (v.game) {
        if (v.token) store.addSeat(v.game, v.color, v.token);
        navigate(`/game/${v.game}`);
        return;
      }
      this.applyState({ ...v.state, you: c }, 'action', this.socketStates);
    } catch (e) {
      this.busy = false;
      this.update();
      this.reportError(e);
    }
  }

  /** The rematch box of a finished online game: offer, answer, or follow it to the new game. */
  renderRematch(st) {
    const e = this.els;
    const mine = this.myColor();
    const show = st.kind === 'online' && st.status === 'over' && !!mine
      && st.players.white.type !== 'computer' && st.players.black.type !== 'computer';
    e.rematchBox.hidden = !show;
    if (!show) return;
    const r = st.rematch;
    if (r && r.game && !this.followingRematch) {
      // Accepted: both players go to the new game.
      this.followingRematch = true;
      this.rematch('offer');
    }
    const state = !r ? 'none' : r.game ? 'started' : r.offered_by === mine ? 'mine' : 'theirs';
    const key = `${state}|${this.busy}|${document.documentElement.lang}`;
    if (e.rematchBox.dataset.key === key) return;
    e.rematchBox.dataset.key = key;
    const btn = (id, what, text, cls = 'btn') => h('button', { class: cls, type: 'button', id, disabled: this.busy, onclick: () => this.rematch(what), text });
    if (state === 'none') mount(e.rematchBox, btn('rematch', 'offer', t('game.rematch.ask'), 'btn primary'));
    else if (state === 'mine') mount(e.rematchBox, h('p', { text: t('game.rematch.offered') }), btn('rematch-withdraw', 'decline', t('game.rematch.withdraw')));
    else if (state === 'theirs') {
      mount(e.rematchBox, h('p', { text: t('game.rematch.offeredBy') }),
        h('div', { class: 'row' }, btn('rematch-accept', 'offer', t('game.accept'), 'btn primary'), btn('rematch-decline', 'decline', t('game.decline'))));
    } else mount(e.rematchBox, h('p', { text: t('game.rematch.starting') }));
  }

  giveTime() {
    const c = this.myColor();
    if (c) this.action(() => api.giveTime(this.id, this.seats[c]));
  }

  claim(result) {
    const c = this.myColor();
    if (c) this.action(() => api.claim(this.id, this.seats[c], result));
  }

  /** Whether the opponent has been away long enough for the player to claim the game. */
  claimable(now = performance.now()) {
    const st = this.state;
    const c = this.myColor();
    if (!st || !c || st.status !== 'ongoing' || st.kind !== 'online' || !st.clock || st.clock.kind !== 'live') return false;
    const p = st.players[other(c)];
    if (!p || p.type === 'computer' || p.online !== false || typeof p.away_ms !== 'number') return false;
    return p.away_ms + (now - this.clockAt) >= st.clock.claim_after_ms;
  }

  draw(action) {
    const st = this.state;
    let c = this.actingColor();
    if (this.seats.white && this.seats.black && st.draw_offer && action !== 'offer') c = other(st.draw_offer);
    if (!c) return;
    this.action(() => api.draw(this.id, this.seats[c], action));
  }

  /** Both seats of a local game are in this browser (a game at one screen). */
  hotSeat() {
    return !!(this.state && this.state.kind === 'local' && this.seats.white && this.seats.black);
  }

  /** Takes back the player's last move (against the computer) or the last move (at one screen). */
  takeback() {
    const c = this.hotSeat() ? other(this.state.turn) : this.myColor();
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
    if (!this.canEnter()) {
      toast(t('game.notYourTurn'));
      return;
    }
    const played = this.game.typedMove(raw, () => { input.value = ''; });
    if (played === false) toast(t('game.moveInput.illegal', { move: raw }), 'error');
  }

  // ---------------------------------------------------------------- replay

  setView(ply) {
    const st = this.state;
    if (!st) return;
    if (ply === null || ply >= st.ply) this.viewPly = null;
    else this.viewPly = Math.max(0, ply);
    this.game.clearSelection();
    this.update();
  }

  shownPly() { return this.viewPly === null ? this.state.ply : this.viewPly; }

  globalKey(ev) {
    if (ev.key === 'Escape' && this.cancelPremove()) return;
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
    this.board = this.game.createBoard(els.boardWrap);
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
    // A draw offer shows above the board, where the player looks, and stays
    // in view under the header while the page scrolls.
    els.drawBox = h('div', { class: 'draw-box draw-banner', id: 'draw-banner', role: 'status', hidden: true });
    els.huffBox = h('div', { class: 'huff-box', id: 'huff-box', hidden: true, role: 'status' });
    els.joinName = h('input', { id: 'join-name', type: 'text', maxlength: 40, autocomplete: 'nickname', value: store.playerName() });
    els.joinBox = h('form', { class: 'card join-box', hidden: true, onsubmit: (e) => { e.preventDefault(); this.join(); } });
    els.seatNotice = h('div', { class: 'card seat-notice', id: 'seat-notice', hidden: true, role: 'alert' });
    els.shareBox = h('div', { class: 'card share-box', hidden: true });
    els.rematchBox = h('div', { class: 'rematch-box', id: 'rematch-box', hidden: true });
    els.spectators = h('span', { class: 'spectators muted small', id: 'spectators', hidden: true });
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
    els.abort = btn('abort', () => this.abort(), 'btn danger');
    els.giveTime = btn('give-time', () => this.giveTime());
    els.analyze = h('a', { class: 'btn', id: 'analyze', 'data-link': true, href: '/analysis' });
    els.exportLink = h('a', { class: 'btn', id: 'export', href: `/api/games/${this.id}/record`, download: this.game.exportName(this.id) });
    els.copyRecord = btn('copy-record', () => this.copyRecord());
    this.settings = new SettingsPanel();
    els.newGame = h('a', { class: 'btn primary', id: 'new-game', href: '/', 'data-link': true, hidden: true });
    this.hints = new Hints(this);
    els.controls = h('div', { class: 'controls' }, this.hints.button, els.flip, els.takeback, els.offerDraw, els.giveTime, els.abort, els.resign);
    els.tools = h('div', { class: 'controls tools' }, els.newGame, els.analyze, els.exportLink, els.copyRecord);
    els.rulesBox = h('div', { class: 'rules-box' });
    els.reviewBox = h('div', { class: 'card review-card', id: 'review', hidden: true });
    this.whole = new WholeAnalysis(this);
    els.clocks = {
      white: h('div', { class: 'clock', id: 'clock-white', role: 'timer' }),
      black: h('div', { class: 'clock', id: 'clock-black', role: 'timer' }),
    };
    els.tc = h('span', { class: 'tc-tag', id: 'game-tc', hidden: true });
    els.abortNote = h('p', { class: 'abort-note small', id: 'abort-countdown', hidden: true });
    els.claimBox = h('div', { class: 'claim-box', id: 'claim-box', hidden: true, role: 'status' });
    els.soundBox = h('input', {
      id: 'clock-sound', type: 'checkbox', checked: store.clockSound(),
      onchange: (ev) => { store.setClockSound(ev.target.checked); if (ev.target.checked) beep(660, 60); },
    });
    els.soundLabel = h('span');
    els.sound = h('label', { class: 'check sound-toggle', hidden: true }, els.soundBox, els.soundLabel);
    els.thinking = h('span', { class: 'thinking', hidden: true }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'thinking-text' }));

    mount(this.root, h('div', { class: 'game-page play-page' }, els.drawBox,
      h('div', { class: 'board-col' }, els.joinBox, els.seatNotice, els.offline, els.top, els.boardWrap, els.bottom, els.mobileStatus,
        h('div', { class: 'under-board' }, els.replayNav, els.live, els.replayInfo)),
      h('aside', { class: 'side-col' },
        h('div', { class: 'card status-card' },
          h('div', { class: 'title-row' }, els.title, els.tc, els.spectators, els.conn, this.settings.el),
          els.status, els.abortNote, els.thinking, els.hint, els.huffBox, els.banner, els.rematchBox, els.claimBox, els.live_region),
        els.shareBox,
        this.chat.el,
        h('div', { class: 'card moves-card' }, els.movesTitle, els.moveList, els.moveForm),
        els.reviewBox,
        this.whole.el,
        h('div', { class: 'card controls-card' }, els.controls, this.hints.note, els.sound, els.tools),
        h('div', { class: 'card rules-card' }, els.rulesBox))));
    this.relabel();
  }

  relabel() {
    this.chat.relabel();
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
    e.moveInput.placeholder = this.game.moveInputPlaceholder();
    e.moveInputBtn.textContent = t('game.moveInput.play');
    e.flip.textContent = `⇅ ${t('game.flip')}`;
    e.takeback.textContent = `↶ ${t('game.takeback')}`;
    e.offerDraw.textContent = `½ ${t('game.offerDraw')}`;
    e.resign.textContent = `⚑ ${t('game.resign')}`;
    e.abort.textContent = `✕ ${t('game.abort')}`;
    e.soundLabel.textContent = t('clock.sound');
    for (const c of ['white', 'black']) e.clocks[c].setAttribute('aria-label', t('clock.of', { color: colorName(c) }));
    e.claimBox.dataset.key = '';
    e.analyze.textContent = t('game.analyze');
    e.exportLink.textContent = t('game.export');
    e.copyRecord.textContent = t('game.copyRecord');
    this.settings.relabel();
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
    this.chat.sync(st, this.seats, this.seatsConfirmed);
    e.title.textContent = t('game.title', { id: this.id });
    if (!st) {
      e.status.textContent = t('game.loading');
      this.board.render({ board: {}, interactive: false });
      return;
    }
    const myTurn = st.status === 'ongoing' && this.seats[st.turn] && !(this.seats.white && this.seats.black);
    this.baseTitle = `${myTurn ? `● ${t('game.yourMove')} – ` : ''}${t('game.title', { id: this.id })} – brett`;
    this.board.setFlipped(this.flipped);
    const pos = this.currentPosition();
    const replay = this.viewPly !== null;
    const canMove = this.canEnter();
    const legal = canMove ? this.legal() : [];

    // Board (while a premove is entered, the player's moves in the position shown)
    const lastText = this.game.renderBoard(this.premoveAllowed() ? this.inputPosition() : pos, canMove, legal, replay);
    e.boardWrap.classList.toggle('replaying', replay);
    this.markPremove();

    // Players
    const bottomColor = this.flipped ? 'black' : 'white';
    this.renderPlayer(e.bottom, bottomColor, pos);
    this.renderPlayer(e.top, other(bottomColor), pos);
    this.renderStatus(st, canMove, legal, replay, lastText, pos);
    this.renderClockControls(st);
    this.tick();
  }

  /** Marks the premove's squares on the board. */
  markPremove() {
    const root = this.els.boardWrap;
    for (const el of root.querySelectorAll('.premove')) el.classList.remove('premove');
    root.classList.toggle('has-premove', !!this.premove);
    if (!this.premove) return;
    for (const cell of this.premove.split(/[^a-z0-9]+/i).filter(Boolean)) {
      for (const el of root.querySelectorAll(`[data-point="${cell}"], [data-square="${cell}"]`)) el.classList.add('premove');
    }
  }

  /** The time control in the header, abort / give time / claim, the sound switch. */
  renderClockControls(st) {
    const e = this.els;
    const clock = st.clock;
    const over = st.status === 'over';
    e.tc.hidden = !clock;
    if (clock && e.tc.dataset.text !== controlText(clock.control)) {
      e.tc.dataset.text = controlText(clock.control);
      mount(e.tc, clockIcon(), h('span', { text: e.tc.dataset.text }));
    }
    e.tc.title = t('tc.label');
    const mine = this.myColor();
    const playing = !over && mine && st.kind === 'online' && !this.needsJoin();
    e.abort.hidden = !(playing && st.ply < 2);
    e.abort.disabled = this.busy;
    e.giveTime.hidden = !(playing && clock && !this.waitingForOpponent());
    e.giveTime.disabled = this.busy;
    e.giveTime.textContent = clock && clock.kind === 'correspondence' ? t('game.giveDay') : t('game.giveTime');
    e.sound.hidden = !(clock && clock.kind === 'live' && this.hasSeat() && !over);
    e.soundBox.checked = store.clockSound();
    this.claimShown = this.claimable();
    e.claimBox.hidden = !this.claimShown;
    if (this.claimShown) {
      const key = `${document.documentElement.lang}|${this.busy}`;
      if (e.claimBox.dataset.key !== key) {
        e.claimBox.dataset.key = key;
        mount(e.claimBox,
          h('p', { text: t('game.opponentLeft', { name: this.playerName(other(mine)) }) }),
          h('div', { class: 'row' },
            h('button', { class: 'btn primary', type: 'button', id: 'claim-win', disabled: this.busy, onclick: () => this.claim('win'), text: t('game.claimWin') }),
            h('button', { class: 'btn', type: 'button', id: 'claim-draw', disabled: this.busy, onclick: () => this.claim('draw'), text: t('game.claimDraw') })));
      }
    } else e.claimBox.dataset.key = '';
  }

  /**
   * Draws the clocks from the last state (the running one: its time then,
   * less the time since the state came), the first-move countdown and the
   * title; beeps when the player's time runs low.
   */
  tick() {
    const st = this.state;
    if (!st || !this.els) return;
    const e = this.els;
    const now = performance.now();
    const clock = st.clock;
    const ongoing = st.status === 'ongoing';
    let title = this.baseTitle;
    if (clock) {
      const times = clockTimes(clock, this.clockAt, now);
      const live = clock.kind === 'live';
      for (const c of ['white', 'black']) {
        const el = e.clocks[c];
        const text = fmtClock(times[c], clock.kind);
        if (el.textContent !== text) el.textContent = text;
        el.classList.toggle('running', ongoing && clock.running === c);
        el.classList.toggle('low', ongoing && live && times[c] < LOW_TIME_MS);
        el.dataset.ms = String(Math.round(times[c]));
        el.dataset.at = String(now);
      }
      const run = ongoing ? clock.running : null;
      const hotSeat = this.seats.white && this.seats.black;
      if (ongoing && this.seats[st.turn] && !hotSeat) title = titleWithClock(fmtClock(times[st.turn], clock.kind));
      this.lowTimeBeep(run && this.seats[run] && live ? run : null, run ? times[run] : 0);
      const abortIn = ongoing && typeof clock.abort_in_ms === 'number' ? Math.max(0, clock.abort_in_ms - (now - this.clockAt)) : null;
      e.abortNote.hidden = abortIn === null;
      if (abortIn !== null) {
        const text = t('clock.abortIn', { time: fmtClock(abortIn) });
        if (e.abortNote.textContent !== text) e.abortNote.textContent = text;
      }
      if (this.claimable(now) !== !!this.claimShown) this.update();
    } else {
      e.abortNote.hidden = true;
    }
    if (title && document.title !== title) document.title = title;
  }

  /** A beep when the player's clock passes 20 s, and each second under 10 s. */
  lowTimeBeep(color, ms) {
    if (!color || ms >= LOW_TIME_MS || ms <= 0) {
      if (!color || ms >= LOW_TIME_MS) this.lowBeep = null;
      return;
    }
    const sec = ms < 10000 ? Math.ceil(ms / 1000) : 'low';
    if (this.lowBeep && this.lowBeep.color === color && this.lowBeep.sec === sec) return;
    this.lowBeep = { color, sec };
    if (store.clockSound()) beep(sec === 'low' ? 660 : 880);
  }

  renderStatus(st, canMove, legal, replay, lastText, pos) {
    const e = this.els;
    // Status
    const over = st.status === 'over';
    // Until the server has confirmed this browser's seats, whose page this
    // is is not known yet: no guess that would flash a wrong status (whose
    // move it is "for you", or a player's own end in a spectator's words).
    const ended = over && this.seatsConfirmed;
    let status;
    if (!this.seatsConfirmed) status = t('game.loading');
    else if (over) status = endTextFor(st, this.myColor());
    else if (st.kind === 'online' && Object.values(st.players).some((p) => !p.joined) && this.hasSeat() && !this.needsJoin()) status = t('game.waitingJoin');
    // Nobody's move before the invited player is there.
    else if (st.kind === 'online' && Object.values(st.players).some((p) => !p.joined)) status = this.needsJoin() ? t('game.join.title') : t('game.waitingPlayer');
    else if (this.seats.white && this.seats.black) status = t('game.toMove', { color: colorName(st.turn) });
    else if (this.seats[st.turn]) status = t('game.yourMove');
    else status = t('game.theirMove', { name: this.playerName(st.turn) });
    e.status.textContent = status;
    e.status.classList.toggle('over', ended);
    const input = this.game.hint(canMove, legal);
    e.mobileStatus.textContent = this.game.mobileStatus(status, canMove, legal);
    e.mobileStatus.classList.toggle('over', ended);
    e.mobileStatus.classList.toggle('mill', !!input?.mill);
    e.thinking.hidden = !st.thinking || over;
    e.banner.hidden = !ended;
    if (ended) {
      // A rated game: the rating change, the player's own first.
      const mine = this.myColor();
      const sides = mine ? [mine, other(mine)] : ['white', 'black'];
      const ratings = sides.map((c) => [c, ratingChangeText(st, c)]).filter(([, text]) => text);
      mount(e.banner, h('strong', { text: t('game.over') }), st.result && st.result !== '*' ? h('span', { text: ` · ${st.result}` }) : null,
        ratings.length ? h('ul', { class: 'rating-changes', id: 'rating-changes' }, ...ratings.map(([c, text]) => h('li', { 'data-side': c },
          h('span', { text: `${c === mine ? t('rating.yours') : sideName(st, c)}: ` }), h('strong', { text })))) : null);
    }
    let hint = '';
    const huffs = canMove ? this.game.huffable() : new Set();
    if (this.premove) hint = t('game.premove', { move: this.premove });
    else if (input) hint = input.text;
    else if (!this.hasSeat() && !over) hint = t('game.spectator');
    else if (this.myColor() && !over && !this.needsJoin()) hint = t('game.yourSeat', { color: colorName(this.myColor()) });
    e.hint.textContent = hint;
    e.hint.classList.toggle('mill', !!input?.mill);
    e.hint.classList.toggle('compulsory', !!input?.compulsory);

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
      const canAnswer = local || (this.seats[other(offer)] && !this.seats[offer]);
      mount(e.drawBox,
        h('p', { text: mineOffer ? t('game.drawOffered') : t('game.drawOfferedByName', { name: this.playerName(offer) }) }),
        canAnswer ? h('div', { class: 'row' },
          h('button', { class: 'btn primary', type: 'button', id: 'accept-draw', onclick: () => this.draw('accept'), text: t('game.accept') }),
          h('button', { class: 'btn', type: 'button', id: 'decline-draw', onclick: () => this.draw('decline'), text: t('game.decline') }),
          h('span', { class: 'small', text: t('game.drawMoveDeclines') })) : null);
      // Below the header, which stays at the top of the screen.
      e.drawBox.style.top = `${document.querySelector('.topbar')?.offsetHeight || 0}px`;
    }

    this.renderJoin();
    this.renderRematch(st);
    const watching = st.spectators || 0;
    e.spectators.hidden = watching === 0;
    // An eye drawn (not an emoji: a system without an emoji font shows a box) and the count.
    if (watching) mount(e.spectators, eyeIcon(), h('span', { class: 'spectator-count', text: String(watching) }));
    else mount(e.spectators);
    e.spectators.title = tn('game.spectators', watching);
    e.spectators.setAttribute('aria-label', e.spectators.title);
    this.renderShare();
    this.renderMoves();
    this.renderReview();
    this.whole.render(this.state);

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
    e.analyze.href = `/analysis?${this.game.analysisParams(pos, st, shown)}`;
    this.hints.update();

    // Rules
    const { label, items, summary } = this.game.rules(st);
    const openSummary = e.rulesBox.querySelector('#rules-summary')?.open;
    if (summary && openSummary) summary.open = true;
    mount(e.rulesBox,
      h('h2', { class: 'section-title', text: t('game.rules') }),
      h('p', {}, h('strong', { text: label })),
      h('ul', { class: 'rule-list' }, ...items.map((x) => h('li', { text: x }))),
      summary,
      h('p', { class: 'muted small' },
        h('span', { text: `${t('game.kind')}: ${t(`kind.${st.kind}`)}` }),
        h('br'),
        h('span', { id: 'rules-tc', text: `${t('tc.label')}: ${controlText(st.clock ? st.clock.control : null)}` }),
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
      p.type === 'human' && st.kind === 'online' && !p.joined ? h('span', { class: 'tag muted', text: '…' }) : null,
      p.type === 'human' && st.kind === 'online' && p.joined && typeof p.online === 'boolean' && !you
        ? h('span', {
          class: `presence ${p.online ? 'on' : 'off'}`, role: 'img',
          'aria-label': t(p.online ? 'game.online' : 'game.away'), title: t(p.online ? 'game.online' : 'game.away'),
        }) : null);
  }

  /** A player bar: who plays `c`, and what the game tells of that side in `pos`. */
  renderPlayer(el, c, pos) {
    const st = this.state;
    markPlayerBar(el, c, st.status === 'ongoing' && pos.turn === c, !!st.clock);
    mount(el, this.playerWho(c), ...this.game.playerDetails(c, pos), st.clock ? this.els.clocks[c] : null);
  }

  renderJoin() {
    const e = this.els;
    this.renderSeatNotice();
    const show = this.needsJoin() && this.state.status === 'ongoing';
    const appeared = show && e.joinBox.hidden;
    e.joinBox.hidden = !show;
    // On a phone the join card is the first thing on screen.
    // It goes just under the header (which stays at the top), to a whole
    // pixel: a fraction would cut its top edge off.
    if (appeared) {
      requestAnimationFrame(() => {
        const header = document.querySelector('.topbar')?.getBoundingClientRect().bottom || 0;
        const top = e.joinBox.getBoundingClientRect().top + window.scrollY - header - 8;
        window.scrollTo({ top: Math.max(0, Math.floor(top)) });
      });
    }
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
        linkRow('invite-link', url),
        h('div', { class: 'row' },
          // The device's own share sheet where there is one (phones); the copy button otherwise.
          navigator.share ? h('button', {
            class: 'btn', type: 'button', id: 'invite-share',
            onclick: () => navigator.share({ title: document.title, text: t('game.invite.share'), url }).catch(() => {}),
            text: t('game.share'),
          }) : null,
          this.myColor() ? h('button', { class: 'btn danger', type: 'button', id: 'cancel-invite', onclick: () => this.abort(), text: t('game.cancelInvite') }) : null));
    }
    parts.push(h('h2', { text: t('game.watch') }),
      h('p', { class: 'small', text: t('game.watch.text') }),
      linkRow('watch-link', `${origin}/game/${this.id}`));
    const key = JSON.stringify([showInvite, document.documentElement.lang, this.myColor()]);
    if (e.shareBox.dataset.key === key) return;
    e.shareBox.dataset.key = key;
    mount(e.shareBox, ...parts);
  }

  renderMoves() {
    const st = this.state;
    const e = this.els;
    const shown = this.shownPly();
    const blunders = new Map((this.review ? this.review.changes : []).map((c) => [c.ply, c]));
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
      const huff = (st.huffs || [])[i];
      const blunder = blunders.get(i);
      const played = huff ? t('dame.playedHuff', { color: colorName(mover), move: mv, sq: huff }) : t('game.played', { color: colorName(mover), move: mv });
      row.append(h('button', {
        type: 'button', class: ['move', this.game.moveClass(mv), current ? 'current' : '', blunder ? 'blunder' : ''],
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
function markPlayerBar(el, c, toMove, timed = false) {
  el.className = `player-bar ${el.classList.contains('top') ? 'top' : 'bottom'} ${c}${toMove ? ' to-move' : ''}${timed ? ' timed' : ''}`;
  el.dataset.color = c;
}
