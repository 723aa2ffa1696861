// One adapter a game behind the one game view (views/game.js): the view
// keeps the seats, the server's state, replay, the socket and the panels;
// what differs between Mühle (games/muehle.js) and Dame (games/dame.js) it
// asks the adapter. Both have
//   name, reviews (the server reviews the moves by its databases),
//   createBoard(host) → the board, in `host`,
//   pos (the position input works on), legal(), huffable(), clearSelection(),
//   stateChanged(cur, st), parsePosition(st), positionsAlong(st), afterMove(pos, text),
//   typedMove(raw, clear) → true (played) / false (not legal) / null (told why not),
//   moveInputPlaceholder(),
//   renderBoard(pos, canMove, legal, replay) → the text of the move marked as last,
//   playerDetails(c, pos) → the facts and pieces of a player bar,
//   hint(canMove, legal) → {text, mill, compulsory} or null, mobileStatus(status, canMove, legal),
//   moveClass(mv), analysisParams(pos, st, shown), rules(st) → {label, items, summary},
//   exportName(id);
// and as static methods rulesLabel(text, game) and ruleOptions(text, game).
// The view gives them state, id, viewPly, optimistic, positions,
// currentPosition(), inputPosition() (the position moves are entered in:
// with the player to move while a premove is entered), canMoveNow(),
// canEnter() (a move or a premove), premoveAllowed(), inputAllowed(),
// play(text), sendTurn(preview, request), announce(text) and update().

import { familyOf, gameOfRules } from '../catalogue.js';
import { MuehleGame } from './muehle.js';
import { DameGame } from './dame.js';

/** The adapter of each family of the catalogue. */
const ADAPTERS = { muehle: MuehleGame, dame: DameGame };

/**
 * The adapter of the game of state `st` by its family in the catalogue
 * (none yet: Mühle, whose board shows while the game loads); null for a
 * game the catalogue does not list, which the view refuses.
 */
export function gameAdapter(view, st) {
  if (!st) return new MuehleGame(view, null);
  const Adapter = ADAPTERS[familyOf(st.game)];
  return Adapter ? new Adapter(view, st) : null;
}

/**
 * The adapter class of game `game` (the one of rules text `text` when the
 * game is not named, as in records of old); Mühle's for one the catalogue
 * does not list.
 */
function adapterOf(game, text) {
  return ADAPTERS[familyOf(game || gameOfRules(text))] || MuehleGame;
}

/** The short label of rules text `text` of game `game`: "Standard", "Dame 8×8 (angepasst)", … */
export const rulesLabelOf = (game, text) => adapterOf(game, text).rulesLabel(text, game || gameOfRules(text));

/** The rule options of rules text `text` of game `game`. */
export const ruleOptionsOf = (game, text) => adapterOf(game, text).ruleOptions(text, game || gameOfRules(text));
