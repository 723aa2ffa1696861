// What the browser remembers: the seats (tokens) it holds per game, the
// invite of games it created, the player's name, and its games list.
// Tokens are secrets: they stay in localStorage and in URL fragments only.

const PREFIX = 'brett.';

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(PREFIX + key, JSON.stringify(value)); } catch { /* storage full or off */ }
}

/** {white?: token, black?: token} */
export const seats = (id) => read(`seats.${id}`, {});

export function addSeat(id, color, token) {
  if (color !== 'white' && color !== 'black') return;
  write(`seats.${id}`, { ...seats(id), [color]: token });
}

/** Forget a seat (its token turned out wrong). */
export function dropSeat(id, color) {
  const rest = { ...seats(id) };
  delete rest[color];
  write(`seats.${id}`, rest);
}

/** A token whose colour is not known yet (a link without a colour). */
export const looseToken = (id) => read(`loose.${id}`, null);
export const setLooseToken = (id, token) => write(`loose.${id}`, token);
export function dropLooseToken(id) {
  try { localStorage.removeItem(`${PREFIX}loose.${id}`); } catch { /* ignore */ }
}

export const invite = (id) => read(`invite.${id}`, null);
export const setInvite = (id, inv) => write(`invite.${id}`, inv);

export const playerName = () => read('name', '');
export const setPlayerName = (name) => write('name', name);

export const flipped = (id) => read(`flip.${id}`, null);
export const setFlipped = (id, v) => write(`flip.${id}`, v);

/** Games this browser plays in, newest first: [{id, kind, colors, created}]. */
export const myGames = () => read('games', []);

export function rememberGame(entry) {
  const list = myGames().filter((g) => g.id !== entry.id);
  list.unshift({ ...entry, created: entry.created || new Date().toISOString() });
  write('games', list.slice(0, 30));
}

/**
 * This browser's id for the server's fair share of engine time (the
 * X-Brett-Client header, docs/API.md "Engine time"): 32 random hex digits,
 * made once and kept. Not a secret and not a login.
 */
export function clientId() {
  const kept = read('client', null);
  if (typeof kept === 'string' && /^[0-9a-f]{32}$/.test(kept)) return kept;
  const bytes = new Uint8Array(16);
  try {
    crypto.getRandomValues(bytes);
  } catch {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  write('client', id);
  return id;
}

export const lastSettings = () => read('settings', null);
export const setLastSettings = (v) => write('settings', v);

/** Ids of the puzzles solved in this browser. */
export const solvedPuzzles = () => read('puzzles.solved', []);

export function markPuzzleSolved(id) {
  const list = solvedPuzzles();
  if (!list.includes(id)) write('puzzles.solved', [...list, id]);
}

/** Forgets that the puzzles `ids` were solved (the others stay solved). */
export const forgetSolvedPuzzles = (ids) => write('puzzles.solved', solvedPuzzles().filter((id) => !ids.includes(id)));

/** The puzzle open last. */
export const lastPuzzle = () => read('puzzles.last', null);
export const setLastPuzzle = (id) => write('puzzles.last', id);

/** Whether the clock beeps when time runs low (on unless switched off). */
export const clockSound = () => read('clock.sound', true) !== false;
export const setClockSound = (on) => write('clock.sound', !!on);

/**
 * Whether this browser logged in to an account last (the login's cookie is
 * out of the page's reach): only then is the server asked who is logged in,
 * so that a guest's pages make no request that fails.
 */
export const loginHint = () => read('login', false) === true;
export const setLoginHint = (on) => write('login', !!on);

/** Whether games against the computer start with the hint button (on unless switched off). */
export const hintsDefault = () => read('hints', true) !== false;
export const setHintsDefault = (on) => write('hints', !!on);
/** Whether game `id` offers hints (on unless it started with them off). */
export const hintsOn = (id) => read(`hints.off.${id}`, false) !== true;
export const setHintsOff = (id) => write(`hints.off.${id}`, true);
/** How many hints the player of game `id` asked for. */
export const hintsUsed = (id) => Number(read(`hints.used.${id}`, 0)) || 0;
export const countHint = (id) => write(`hints.used.${id}`, hintsUsed(id) + 1);

/** Whether moves, captures, mills and the game's end sound (on unless switched off). */
export const gameSound = () => read('sound', true) !== false;
export const setGameSound = (on) => write('sound', !!on);

/** The boards' theme: 'classic', 'wood' or 'contrast'. */
export const boardTheme = () => read('board.theme', 'classic');
export const setBoardTheme = (theme) => write('board.theme', theme);

/** Whether the boards show their coordinates (on unless switched off). */
export const boardCoords = () => read('board.coords', true) !== false;
export const setBoardCoords = (on) => write('board.coords', !!on);
