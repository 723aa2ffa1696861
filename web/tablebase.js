// Mühle's perfect-play databases in the UI: whether they are installed for
// some rules (GET /api/tablebase), the database's verdict on a position and
// its moves (the `database` field of an analysis), and the words for the
// moves of a game that changed its value (GET /api/games/{id}/review).
// The "Perfect play" page (web/views/perfect.js) shows every rule set's
// databases and builds them. Every word is built here from codes and
// numbers, in the UI's language.

import { h } from './dom.js';
import { t, colorName, lang } from './i18n.js';
import { api } from './api.js';

const cache = new Map();
const FRESH_MS = 5000;

/** The databases' status for `rules` (cached a few seconds); null when it cannot be had. */
export async function tablebaseStatus(rules) {
  const key = rules || 'standard';
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.status;
  try {
    const status = await api.tablebase(key);
    cache.set(key, { at: Date.now(), status });
    return status;
  } catch {
    return null;
  }
}

/** "Weiß gewinnt in 23 Halbzügen (Datenbank)" / "Remis (Datenbank)" for the side to move `turn`. */
export function verdictText(turn, db) {
  if (db.result === 'draw') return t('tb.verdict.draw');
  const winner = db.result === 'win' ? turn : (turn === 'white' ? 'black' : 'white');
  return t(db.plies === 1 ? 'tb.verdict.win.1' : 'tb.verdict.win', { color: colorName(winner), n: db.plies });
}

/** A move's value for the player who makes it: "gewinnt in 7", "Remis", "verliert in 4". */
export function moveValueText(v) {
  if (v.result === 'win') return t(v.plies === 1 ? 'tb.move.win.1' : 'tb.move.win', { n: v.plies });
  if (v.result === 'loss') {
    if (v.plies === 0) return t('tb.move.lost');
    return t(v.plies === 1 ? 'tb.move.loss.1' : 'tb.move.loss', { n: v.plies });
  }
  return t('tb.move.draw');
}

/** What a move that changed the game's value did, in words ("hat den Gewinn verschenkt"). */
export function changeText(change) {
  const before = change.before_value?.result || String(change.before).split(' ')[0];
  const after = change.after_value?.result || String(change.after).split(' ')[0];
  if (before === 'win' && after === 'draw') return t('tb.change.winToDraw');
  if (before === 'win') return t('tb.change.winToLoss');
  return t('tb.change.drawToLoss');
}

/**
 * A box that says whether the databases are installed for the rules
 * (complete / partly: which sectors / none), with a link to the "Perfect
 * play" page where they are installed, or that the rules have none (a
 * board without databases).
 */
export function statusBox(status, { id = 'tb-status' } = {}) {
  if (!status) return null;
  // No databases exist for these rules (another board): said so, nothing to build.
  if (status.available === false) {
    return h('div', { class: ['tb-status', 'none'], id, 'data-state': 'unavailable', 'data-sectors': '0' },
      h('p', { class: 'tb-title' }, h('strong', { text: t('tb.title') })),
      h('p', { class: 'tb-state', text: t('tb.status.unavailable') }));
  }
  const n = status.sectors.length;
  let text;
  let cls;
  if (!status.enabled) { text = t('tb.status.off'); cls = 'none'; }
  else if (status.complete) { text = t('tb.status.complete'); cls = 'complete'; }
  else if (n > 0) { text = t('tb.status.partly', { n, total: status.total, sectors: status.sectors.join(', ') }); cls = 'partly'; }
  else { text = t('tb.status.none'); cls = 'none'; }
  const parts = [
    h('p', { class: 'tb-state', text }),
  ];
  if (!status.complete && status.enabled) {
    parts.push(h('p', { class: 'small' },
      h('a', { href: '/perfect', 'data-link': true, id: `${id}-link`, text: t('tb.link') })));
  }
  return h('div', { class: ['tb-status', cls], id, 'data-state': cls, 'data-sectors': String(n) },
    h('p', { class: 'tb-title' }, h('strong', { text: t('tb.title') }), h('span', { class: 'muted small', text: ` · ${t('tb.rules', { variant: variantName(status.variant) })}` })),
    ...parts);
}

/** A duration in seconds in words: "≈ 1 h 35 min", "≈ 12 min", "≈ 40 s". */
export function durationText(seconds) {
  const s = Math.max(1, Math.round(seconds));
  if (s >= 3600) return t('tb.time.h', { h: Math.floor(s / 3600), m: Math.round((s % 3600) / 60) });
  if (s >= 60) return t('tb.time.min', { m: Math.round(s / 60) });
  return t('tb.time.s', { s });
}

/** Bytes in words: "2,97 GB", "68,9 MB", "512 kB". */
export function bytesText(bytes) {
  const fmt = (x, unit) => `${new Intl.NumberFormat(lang(), { maximumSignificantDigits: 3 }).format(x)} ${unit}`;
  if (bytes >= 1e9) return fmt(bytes / 1e9, 'GB');
  if (bytes >= 1e6) return fmt(bytes / 1e6, 'MB');
  return fmt(Math.max(bytes, 1000) / 1e3, 'kB');
}

/** The name of a rule variant of the databases ("Standard", "Ravensburger", …). */
export function variantName(v) {
  const key = `tb.variant.${v}`;
  const text = t(key);
  return text === key ? v : text;
}
