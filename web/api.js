// The JSON API of docs/API.md, and the live game socket.

import { clientId } from './store.js';

export class ApiError extends Error {
  /**
   * `retryAfter`: the seconds to wait (429 rate_limited, 503 engine_busy);
   * `queuePosition`: an analysis's place in the engine's queue (engine_busy);
   * `detail`: the error as {code, params, cause} for the page to word
   * (records and position strings, docs/API.md "Error details").
   */
  constructor(status, code, message, { retryAfter = null, queuePosition = null, detail = null } = {}) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || 'network';
    this.retryAfter = retryAfter;
    this.queuePosition = queuePosition;
    this.detail = detail;
  }
}

async function request(method, path, body) {
  const changes = method !== 'GET' && method !== 'HEAD';
  let res;
  try {
    res = await fetch(path, {
      method,
      // Every state-changing request is JSON: the server refuses other
      // bodies (415) so that no other web site can post to it.
      // The browser's id: the server shares the engine's time fairly
      // between browsers by it.
      headers: {
        'X-Brett-Client': clientId(),
        ...(changes || body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : changes ? '{}' : undefined,
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'network', e.message);
  }
  const type = res.headers.get('content-type') || '';
  const data = type.includes('application/json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const json = data && typeof data === 'object' ? data : {};
    const header = Number(res.headers.get('retry-after'));
    throw new ApiError(res.status, json.code, json.error || res.statusText, {
      retryAfter: header > 0 ? header : (typeof json.retry_after === 'number' ? json.retry_after : null),
      queuePosition: typeof json.queue_position === 'number' ? json.queue_position : null,
      detail: json.detail && typeof json.detail === 'object' ? json.detail : null,
    });
  }
  return data;
}

/**
 * The seat an account holds (the login's cookie acts for it): stands in
 * the place of a token and is sent as none.
 */
export const ACCOUNT_SEAT = '@account';
const tok = (token) => (token === ACCOUNT_SEAT ? undefined : token);

export const api = {
  createGame: (body) => request('POST', '/api/games', body),
  /** The state; with a token, `you` says which seat it holds (null: none). */
  state: (id, token) => request('GET', tok(token) ? `/api/games/${id}?token=${encodeURIComponent(token)}` : `/api/games/${id}`),
  /** `lagMs`: the network delay measured on the socket (timed games; the server credits it up to 0.5 s). */
  move: (id, token, move, ply, lagMs) => request('POST', `/api/games/${id}/moves`, lagMs === undefined ? { move, token: tok(token), ply } : { move, token: tok(token), ply, lag_ms: lagMs }),
  abort: (id, token) => request('POST', `/api/games/${id}/abort`, { token: tok(token) }),
  claim: (id, token, result) => request('POST', `/api/games/${id}/claim`, { token: tok(token), result }),
  giveTime: (id, token) => request('POST', `/api/games/${id}/give-time`, { token: tok(token) }),
  draw: (id, token, action) => request('POST', `/api/games/${id}/draw`, { token: tok(token), action }),
  huff: (id, token, ply, square) => request('POST', `/api/games/${id}/huff`, { token: tok(token), ply, square }),
  resign: (id, token) => request('POST', `/api/games/${id}/resign`, { token: tok(token) }),
  takeback: (id, token) => request('POST', `/api/games/${id}/takeback`, { token: tok(token) }),
  join: (id, token, name) => request('POST', `/api/games/${id}/join`, { token: tok(token), name }),
  archive: (limit, offset, filters = '') => request('GET', `/api/games?limit=${limit}&offset=${offset}${filters}`),
  record: (id) => request('GET', `/api/games/${id}/record`),
  importRecord: (record) => request('POST', '/api/games/import', { record }),
  analyze: (body) => request('POST', '/api/analyze', body),
  tablebase: (rules) => request('GET', `/api/tablebase?rules=${encodeURIComponent(rules)}`),
  perfect: () => request('GET', '/api/perfect'),
  perfectBuild: (game, rules, size) => request('POST', '/api/perfect/build', { game, rules, size }),
  perfectPause: () => request('POST', '/api/perfect/build/pause', {}),
  perfectResume: () => request('POST', '/api/perfect/build/resume', {}),
  review: (id) => request('GET', `/api/games/${id}/review`),
  /** The analysis of a whole game: start it (`timeMs` per position; the server's default without), or its progress. */
  startGameAnalysis: (id, timeMs) => request('POST', `/api/games/${id}/analysis`, timeMs ? { time_ms: timeMs } : {}),
  gameAnalysis: (id) => request('GET', `/api/games/${id}/analysis`),
  puzzles: () => request('GET', '/puzzles.json'),
  damePuzzles: () => request('GET', '/puzzles-dame.json'),
  account: () => request('GET', '/api/account'),
  register: (name, password) => request('POST', '/api/account/register', { name, password }),
  login: (name, password) => request('POST', '/api/account/login', { name, password }),
  logout: () => request('POST', '/api/account/logout', {}),
  changePassword: (old, neu) => request('POST', '/api/account/password', { old, new: neu }),
  deleteAccount: (password) => request('POST', '/api/account/delete', { password }),
  playerRatings: (name) => request('GET', `/api/players/${encodeURIComponent(name)}/ratings`),
  playerGames: (name, query) => request('GET', `/api/players/${encodeURIComponent(name)}/games?${query}`),
  ratingPools: () => request('GET', '/api/ratings'),
  leaderboard: (pool) => request('GET', `/api/ratings/${encodeURIComponent(pool)}`),
  setLanguage: (language) => request('POST', '/api/account/language', { language }),
  yourTurn: () => request('GET', '/api/account/your-turn'),
  accountGames: (limit, offset) => request('GET', `/api/account/games?limit=${limit}&offset=${offset}`),
  /** A room's messages (`room`: players | spectators); a guest player's token for the players' room. */
  chat: (id, room, token) => request('GET', `/api/games/${id}/chat?room=${room}${tok(token) ? `&token=${encodeURIComponent(token)}` : ''}`),
  say: (id, room, text, token) => request('POST', `/api/games/${id}/chat`, { room, text, token: tok(token) }),
  block: (name) => request('POST', `/api/players/${encodeURIComponent(name)}/block`, {}),
  unblock: (name) => request('POST', `/api/players/${encodeURIComponent(name)}/unblock`, {}),
  report: (message, reason) => request('POST', `/api/chat/${message}/report`, { reason }),
  /** `action`: 'offer' (or accept the opponent's offer) or 'decline' (or withdraw). */
  rematch: (id, token, action = 'offer') => request('POST', `/api/games/${id}/rematch`, { token: tok(token), action }),
  lobby: () => request('GET', '/api/lobby'),
  postSeek: (terms) => request('POST', '/api/lobby/seeks', terms),
  cancelSeek: (id) => request('POST', `/api/lobby/seeks/${id}/cancel`, {}),
  acceptSeek: (id) => request('POST', `/api/lobby/seeks/${id}/accept`, {}),
  quickPair: (terms) => request('POST', '/api/lobby/quick', terms),
  challenge: (terms) => request('POST', '/api/challenges', terms),
  challenges: () => request('GET', '/api/challenges'),
  /** `what`: 'accept', 'decline' or 'cancel'. */
  settleChallenge: (id, what) => request('POST', `/api/challenges/${id}/${what}`, {}),
};

/**
 * The live socket of a game. Reconnects by itself with a growing delay
 * (0.5 s … 10 s) and calls onOpen after every (re)connection so the caller
 * can refetch the state; onStatus gets 'connecting' | 'online' | 'offline'.
 */
export class GameSocket {
  /** `path`: another socket than the game's (the lobby's), whose messages go to onMessage. */
  constructor(id, { onState, onOpen, onStatus, onChat, onMessage, path }) {
    this.id = id;
    this.path = path || `/api/games/${id}/ws`;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onChat = onChat;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    // The seat this socket is the presence of ({"type":"hello"} after each connection).
    this.helloToken = null;
    // Pings every 5 s while a timed game runs (else 25 s); the delay is half the round trip.
    this.fast = false;
    this.pingSent = null;
    this.lags = [];
    this.kick = () => { if (!this.closed && (!this.ws || this.ws.readyState > 1)) this.reconnectNow(); };
    window.addEventListener('online', this.kick);
    document.addEventListener('visibilitychange', this.kick);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.onStatus?.('connecting');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}${this.path}`);
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus?.('online');
      if (this.helloToken) ws.send(JSON.stringify({ type: 'hello', token: tok(this.helloToken) }));
      this.onOpen?.();
      this.startPings();
    };
    ws.onmessage = (ev) => {
      // When the message came: a state's clock times count from here.
      const at = performance.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && msg.type === 'state' && msg.state) this.onState?.(msg.state, at);
      else if (msg && msg.type === 'chat' && msg.message) this.onChat?.(msg.message);
      else if (msg && msg.type === 'pong' && this.pingSent !== null) {
        this.lags = [...this.lags, (performance.now() - this.pingSent) / 2].slice(-5);
        this.pingSent = null;
      } else if (msg) this.onMessage?.(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closed) {
        this.onStatus?.('offline');
        this.schedule();
      }
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  startPings() {
    clearInterval(this.pinger);
    const ping = () => {
      const ws = this.ws;
      if (!ws || ws.readyState !== 1) return;
      this.pingSent = performance.now();
      ws.send('{"type":"ping"}');
    };
    if (this.fast) ping();
    this.pinger = setInterval(ping, this.fast ? 5000 : 25000);
  }

  /** Pings often (a timed game runs) or seldom. */
  setFastPing(fast) {
    if (fast === this.fast) return;
    this.fast = fast;
    if (this.ws && this.ws.readyState === 1) this.startPings();
  }

  /** The network delay (ms, the least of the last few measures; 0 while none). */
  lagMs() {
    return this.lags.length ? Math.round(Math.min(...this.lags)) : 0;
  }

  /** Makes the socket the presence of the seat of `token`. */
  hello(token) {
    if (token === this.helloToken) return;
    this.helloToken = token;
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: 'hello', token: tok(token) }));
  }

  schedule() {
    clearTimeout(this.timer);
    const wait = this.delay * (0.8 + Math.random() * 0.4);
    this.delay = Math.min(this.delay * 2, 10000);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    this.delay = 500;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener('online', this.kick);
    document.removeEventListener('visibilitychange', this.kick);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
