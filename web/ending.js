// The end of a game in words for the person looking at it: "You won on
// time", "You resigned – Anna wins" for a player; with the players' names
// ("Ben resigns – Anna wins") for spectators of online games and games with
// the computer; with the colours in games at one screen (i18n.js endText).
// And the rating change of a rated game.

import { t, endText, colorName, fmtNumber } from './i18n.js';

const DELETED = '(deleted player)';

/** What a side's player is called in the end's words. */
export function sideName(st, c) {
  const p = st.players?.[c];
  if (!p) return colorName(c);
  if (p.type === 'computer') return t('game.computer', { n: p.level ?? '?' });
  if (p.name === DELETED) return t('account.deletedPlayer');
  return p.name || colorName(c);
}

// Reasons that name the loser (and the winner): their own sentence for the
// winner and for the loser.
const DECISIVE = ['blocked', 'two-stones', 'resignation', 'no-pieces', 'time', 'claimed'];

/**
 * The end of game `st` in words; `you` is the seat of the person looking
 * ('white' or 'black'; null: a spectator, or both seats at one screen).
 */
export function endTextFor(st, you) {
  if (!st || st.status !== 'over') return '';
  if (st.kind === 'local' || st.kind === 'imported') return endText(st);
  const winner = st.result === '1-0' ? 'white' : st.result === '0-1' ? 'black' : null;
  const loser = winner === 'white' ? 'black' : winner === 'black' ? 'white' : null;
  const named = { winner: winner && sideName(st, winner), loser: loser && sideName(st, loser) };
  if (you && winner) {
    const won = you === winner;
    if (DECISIVE.includes(st.reason)) return t(`end.${won ? 'won' : 'lost'}.${st.reason}`, named);
    return t(won ? 'end.won' : 'end.lost');
  }
  if (winner && DECISIVE.includes(st.reason)) return t(`reason.${st.reason}`, named);
  return endText(st);
}

/** A rated game's rating change for side `c`: "1500 → 1662 (+162)", or null. */
export function ratingChangeText(st, c) {
  const r = st.players?.[c]?.rating;
  if (!r) return null;
  const diff = Math.round(r.after) - Math.round(r.before);
  const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
  return t('rating.change', {
    before: fmtNumber(Math.round(r.before)),
    after: `${fmtNumber(Math.round(r.after))}${r.provisional ? '?' : ''}`,
    diff: `${sign}${fmtNumber(Math.abs(diff))}`,
  });
}
