// Who is logged in: the account ({name, created_at, language}) or null
// (a guest). Asked of the server once at start (GET /api/account, when
// this browser has logged in) and set
// by the account pages after a login, registration, logout or deletion.

import { api } from './api.js';
import { loginHint, setLoginHint } from './store.js';

let current = null;
let known = false;
const listeners = new Set();

export const account = () => current;
/** Whether the server has answered (before: not known whether anyone is logged in). */
export const accountKnown = () => known;

export function setAccount(a) {
  current = a || null;
  known = true;
  setLoginHint(!!current);
  for (const fn of listeners) fn(current);
}

export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Asks the server who is logged in, if this browser has logged in (store.js
 * loginHint); a guest is not asked. A network error counts as a guest for
 * now and keeps the hint, so the next page asks again.
 */
export async function loadAccount() {
  if (!loginHint()) {
    setAccount(null);
    return null;
  }
  try {
    const res = await api.account();
    setAccount(res.account);
  } catch (e) {
    current = null;
    known = true;
    if (e.code !== 'network') setLoginHint(false);
    for (const fn of listeners) fn(current);
  }
  return current;
}

/**
 * An account error's code in words ({key, params} of a text): the form's
 * message. rate_limited says how long to wait.
 */
export function accountErrorKey(e) {
  switch (e.code) {
    case 'bad_login': return { key: 'account.error.bad_login' };
    case 'name_taken': return { key: 'account.error.name_taken' };
    case 'wrong_password': return { key: 'account.error.wrong_password' };
    case 'account_closed': return { key: 'account.error.account_closed' };
    case 'not_logged_in': return { key: 'account.error.not_logged_in' };
    case 'rate_limited': return { key: 'account.error.rate_limited', params: { n: e.retryAfter || 60 } };
    case 'network': return { key: 'error.network' };
    default: return null;
  }
}
