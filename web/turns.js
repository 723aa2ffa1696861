// "Your turn" while a page is open: for a logged-in player, the server is
// asked every 30 seconds (and when the tab comes back into view) which of
// the account's online games wait for their move (GET
// /api/account/your-turn). A game that newly waits makes a short sound
// (unless it is the game on the screen, or the sound is switched off) and
// the tab's title starts with the number of waiting games: "(2) brett".

import { api } from './api.js';
import { account, onAccountChange } from './account.js';
import { beep } from './clock.js';
import * as store from './store.js';

const EVERY_MS = 30_000;

let waiting = new Set();
let first = true;
let timer = null;
let observer = null;
const listeners = new Set();

/** The ids of the account's games waiting for its move, as last asked. */
export const turnsWaiting = () => [...waiting];

/** Calls `fn(ids)` after every answer; returns the unsubscribe. */
export function onTurns(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The game open on the screen, if any. */
function shownGame() {
  const m = location.pathname.match(/^\/game\/(\d+)/);
  return m ? Number(m[1]) : null;
}

/** The tab's title with the count in front (and without, at none). */
function retitle() {
  const plain = document.title.replace(/^\(\d+\) /, '');
  const want = waiting.size ? `(${waiting.size}) ${plain}` : plain;
  if (document.title !== want) document.title = want;
}

async function ask() {
  if (!account()) return;
  let games;
  try {
    games = (await api.yourTurn()).games;
  } catch {
    return;
  }
  const now = new Set(games.map((g) => g.id));
  const fresh = [...now].filter((id) => !waiting.has(id) && id !== shownGame());
  waiting = now;
  if (!first && fresh.length && store.clockSound()) {
    beep(660, 120);
    setTimeout(() => beep(880, 120), 160);
  }
  first = false;
  retitle();
  for (const fn of listeners) fn(turnsWaiting());
}

function stop() {
  clearInterval(timer);
  timer = null;
  waiting = new Set();
  first = true;
  retitle();
}

function start() {
  if (timer) return;
  timer = setInterval(ask, EVERY_MS);
  ask();
}

/** Starts watching (once, at the app's start). */
export function startTurnWatch() {
  onAccountChange((a) => (a ? start() : stop()));
  if (account()) start();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') ask();
  });
  // Views set the title as they like: keep the count in front of it.
  const title = document.querySelector('title');
  if (title && !observer) {
    observer = new MutationObserver(retitle);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
  }
}
