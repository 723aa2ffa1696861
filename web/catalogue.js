// The games brett plays, as the server's catalogue lists them (GET
// /api/catalogue, docs/API.md): their names, families, boards, presets and
// titles in the four languages. The page keeps no list of games of its own;
// app.js loads the catalogue before the first view shows.

let games = [];

/** Loads the catalogue from the server (once, before the first view). */
export async function loadCatalogue() {
  const res = await fetch('/api/catalogue');
  if (!res.ok) throw new Error(`GET /api/catalogue: ${res.status}`);
  useCatalogue(await res.json());
}

/** Takes `catalogue` (the answer of GET /api/catalogue) as the games. */
export function useCatalogue(catalogue) {
  games = catalogue.games || [];
}

/** The names of every game, in the catalogue's order ("muehle", "dame", …). */
export const gameNames = () => games.map((g) => g.name);

/** The catalogue's entry of game `name`, or null for a game it does not list. */
export const entryOf = (name) => games.find((g) => g.name === name) || null;

/** Whether the catalogue lists game `name`. */
export const isKnownGame = (name) => entryOf(name) !== null;

/** The family of game `name` ("muehle" or "dame"), or null if unknown. */
export const familyOf = (name) => entryOf(name)?.family ?? null;

/** Board of game `name`: 24 points (Mühle), or the squares of a side (Dame). */
export const boardOf = (name) => entryOf(name)?.board ?? null;

/** The names of the games of `family`. */
export const gamesOf = (family) => games.filter((g) => g.family === family).map((g) => g.name);

/** The title of game `name` in language `lang` (English where it has none). */
export function titleOf(name, lang) {
  const e = entryOf(name);
  return e ? (e.title[lang] || e.title.en) : name;
}

/** The subtitle of game `name` in language `lang`. */
export function subtitleOf(name, lang) {
  const e = entryOf(name);
  return e ? (e.subtitle[lang] || e.subtitle.en) : '';
}

/** The rule presets of game `name`: [{name, title, board}] (board: Mühle's). */
export const presetsOf = (name) => entryOf(name)?.presets ?? [];

/** The title of preset `preset` of game `game` in language `lang`, or null. */
export function presetTitleOf(game, preset, lang) {
  const p = presetsOf(game).find((x) => x.name === preset);
  return p ? (p.title[lang] || p.title.en) : null;
}

/**
 * The game whose rules text `text` is ("standard,flying=off" → "muehle",
 * "dame-100" → "dame-100"): the game that lists its first word as a preset
 * or has it as its default rules; null when none does.
 */
export function gameOfRules(text) {
  const first = String(text || '').split(',')[0].trim();
  const g = games.find((e) => e.default_rules === first) || games.find((e) => (e.presets || []).some((p) => p.name === first));
  return g ? g.name : null;
}

/**
 * The description of Mühle board `name` ("nine", "twelve", "lasker"): its
 * points ({name, x, y} on a 7×7 grid, y from the top), its lines (three
 * points each, in order along the line; they make the mills and join the
 * neighbours), the stones a side brings and the stones at which a side
 * flies; null when the catalogue describes no such board.
 */
export function boardGeometry(name) {
  for (const g of games) if (g.boards && g.boards[name]) return g.boards[name];
  return null;
}

/** The name of the board preset `preset` of game `game` plays on ("nine", …), or null. */
export const presetBoardOf = (game, preset) => presetsOf(game).find((p) => p.name === preset)?.board ?? null;

/** The file name of game `id`'s record: "muehle-12.txt", "dame-7.pdn" (the catalogue's family and extension). */
export function recordFileName(game, id) {
  const e = entryOf(game);
  return `${e?.family ?? game}-${id}.${e?.record_extension ?? 'txt'}`;
}
