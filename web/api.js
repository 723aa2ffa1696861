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

export const api = {
  createGame: (body) => request('POST', '/api/games', body),
  /** The state; with a token, `you` says which seat it holds (null: none). */
  state: (id, token) => request('GET', token ? `/api/games/${id}?token=${encodeURIComponent(token)}` : `/api/games/${id}`),
  move: (id, token, move, ply) => request('POST', `/api/games/${id}/moves`, { move, token, ply }),
  draw: (id, token, action) => request('POST', `/api/games/${id}/draw`, { token, action }),
  huff: (id, token, ply, square) => request('POST', `/api/games/${id}/huff`, { token, ply, square }),
  resign: (id, token) => request('POST', `/api/games/${id}/resign`, { token }),
  takeback: (id, token) => request('POST', `/api/games/${id}/takeback`, { token }),
  join: (id, token, name) => request('POST', `/api/games/${id}/join`, { token, name }),
  archive: (limit, offset) => request('GET', `/api/games?limit=${limit}&offset=${offset}`),
  record: (id) => request('GET', `/api/games/${id}/record`),
  importRecord: (record) => request('POST', '/api/games/import', { record }),
  analyze: (body) => request('POST', '/api/analyze', body),
  tablebase: (rules) => request('GET', `/api/tablebase?rules=${encodeURIComponent(rules)}`),
  review: (id) => request('GET', `/api/games/${id}/review`),
  puzzles: () => request('GET', '/puzzles.json'),
};

/**
 * The live socket of a game. Reconnects by itself with a growing delay
 * (0.5 s … 10 s) and calls onOpen after every (re)connection so the caller
 * can refetch the state; onStatus gets 'connecting' | 'online' | 'offline'.
 */
export class GameSocket {
  constructor(id, { onState, onOpen, onStatus }) {
    this.id = id;
    this.onState = onState;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.delay = 500;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
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
      ws = new WebSocket(`${proto}//${location.host}/api/games/${this.id}/ws`);
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus?.('online');
      this.onOpen?.();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        if (ws.readyState === 1) ws.send('{"type":"ping"}');
      }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && msg.type === 'state' && msg.state) this.onState?.(msg.state);
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
