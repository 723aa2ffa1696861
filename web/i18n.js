// Texts of the UI in German, English, French and Italian (the four languages
// of the box leaflet), one module a language in i18n/. t(key, params) looks
// up the current language and falls back to English.

import de from './i18n/de.js';
import en from './i18n/en.js';
import fr from './i18n/fr.js';
import it from './i18n/it.js';

export const LANGUAGES = [
  { code: 'de', name: 'Deutsch' },
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
  { code: 'it', name: 'Italiano' },
];

const TABLES = { de, en, fr, it };
const KEY = 'brett.lang';

function initial() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && TABLES[saved]) return saved;
  } catch { /* storage may be off */ }
  // The first of the browser's languages (its Accept-Language, in order)
  // that brett speaks; English if none.
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];
  for (const l of wanted) {
    const code = String(l).toLowerCase().split('-')[0];
    if (TABLES[code]) return code;
  }
  return 'en';
}

let current = initial();
const listeners = new Set();

export const lang = () => current;

export function setLang(code) {
  if (!TABLES[code] || code === current) return;
  current = code;
  try { localStorage.setItem(KEY, code); } catch { /* ignore */ }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function t(key, params = {}) {
  let text = TABLES[current][key] ?? en[key] ?? key;
  for (const [k, v] of Object.entries(params)) {
    // A colour in the form the sentence needs: `{color.pl}` (les Noirs),
    // `{color.f}` (pedina nera), `{color.m}` (pion noir).
    if (text.includes(`{${k}.`)) {
      for (const form of ['pl', 'f', 'm']) text = text.split(`{${k}.${form}}`).join(colorForm(String(v), form));
    }
    text = text.split(`{${k}}`).join(String(v));
  }
  return text;
}

/** A colour's name `v` (as colorName gives it) in form `form` of the language, if it has one. */
function colorForm(v, form) {
  for (const c of ['white', 'black']) {
    if (v === (TABLES[current][`color.${c}`] ?? en[`color.${c}`])) return TABLES[current][`color.${c}.${form}`] ?? v;
  }
  return v;
}

export const colorName = (c) => t(`color.${c}`);

/**
 * An error's detail — {code, params, cause}: what the server sends with the
 * errors of game records and position strings (docs/API.md, "Error
 * details"), and what the position parsers of muehle.js and dame.js throw —
 * in the player's language; null when this page has no words for one of its
 * codes (the caller then shows the error's own message).
 */
export function detailText(detail) {
  if (!detail || typeof detail.code !== 'string' || !(`detail.${detail.code}` in en)) return null;
  const params = { ...(detail.params || {}) };
  for (const k of ['color', 'turn']) {
    if (params[k] === 'white' || params[k] === 'black') params[k] = colorName(params[k]);
  }
  if (params.field !== undefined && `detail.field.${params.field}` in en) params.field = t(`detail.field.${params.field}`);
  let key = `detail.${detail.code}`;
  if (detail.cause) {
    // A text that names the cause (`….because`) when there is one this page can word.
    const cause = detailText(detail.cause);
    if (cause !== null) {
      params.cause = cause;
      if (`${key}.because` in en) key = `${key}.because`;
    } else if (!(`${key}.because` in en)) return null;
  }
  // A parameter the text names but the detail lacks: better the message.
  if ([...t(key).matchAll(/\{(\w+)\}/g)].some((m) => params[m[1]] === undefined)) return null;
  return t(key, params);
}

/** An error (of the API or a parser) in the player's language, else in the words it came with. */
export function errorText(e) {
  if (e && SERVER_STATE_CODES.includes(e.code)) return t(`error.${e.code}`);
  return detailText(e && e.detail) ?? (e && e.message ? e.message : String(e));
}

/**
 * API error codes about the server's state rather than the request: their
 * message carries nothing more than the code, so the player's language
 * says it.
 */
const SERVER_STATE_CODES = ['network', 'storage_unavailable', 'too_many_connections', 'unavailable', 'internal'];

/** The game's end in words, e.g. "Schwarz kann nicht mehr ziehen – Weiß gewinnt". */
export function endText(state) {
  if (!state || state.status !== 'over') return '';
  const { result, reason } = state;
  const winner = result === '1-0' ? 'white' : result === '0-1' ? 'black' : null;
  const loser = winner === 'white' ? 'black' : winner === 'black' ? 'white' : null;
  const opts = state.rule_options || {};
  if (reason && winner && ['blocked', 'two-stones', 'resignation', 'no-pieces'].includes(reason)) {
    return t(`reason.${reason}`, { winner: colorName(winner), loser: colorName(loser) });
  }
  if (reason && winner && ['time', 'claimed'].includes(reason)) {
    return t(`reason.${reason}`, { winner: colorName(winner), loser: colorName(loser) });
  }
  if (reason === 'claimed') return t('reason.claimed.draw');
  if (reason === 'aborted') return t('reason.aborted');
  if (reason === 'repetition') {
    const n = opts.repetition || 3;
    const times = TABLES[current][`times.${n}`] ? t(`times.${n}`) : t('times.n', { n });
    return t('reason.repetition', { times });
  }
  if (reason === 'no-mill') return t('reason.no-mill', { n: opts.no_mill || 100 });
  if (reason === 'king-moves') return t('reason.king-moves', { n: opts.king_moves || 50 });
  if (reason === 'one-king-each') return t('reason.one-king-each');
  if (reason === 'king-vs-three') return t('reason.king-vs-three', { n: opts.king_vs_three || 32 });
  if (reason === 'king-vs-two') return t('reason.king-vs-two', { n: opts.king_vs_two || 10 });
  if (reason === 'agreement') return t('reason.agreement');
  if (reason === 'board-full') return t('reason.board-full');
  if (result) return t(`result.${result}`);
  return state.reason_text || '';
}

/** Numbers in the language's way (12 345 / 12,345; 0,3 / 0.3); `opts`: Intl.NumberFormat's. */
export const fmtNumber = (n, opts = {}) => new Intl.NumberFormat(current, opts).format(n);

/**
 * t() for a count n: the key's form for n's plural category in the language
 * (`key.one`, `key.few`, … as Intl.PluralRules tells; French counts 0 as
 * one) when the language has it, else the key itself. {n} is the number in
 * the language's way.
 */
export function tn(key, n, params = {}) {
  const form = `${key}.${new Intl.PluralRules(current).select(n)}`;
  return t(TABLES[current][form] !== undefined ? form : key, { ...params, n: fmtNumber(n) });
}

export function fmtDate(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
