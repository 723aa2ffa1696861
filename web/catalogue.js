// The games brett plays, as the server's catalogue lists them (GET
// /api/catalogue, docs/API.md): their names, families, boards, presets and
// titles in the four languages. The page keeps no list of games of its own;
// app.js loads the catalogue before the first view shows.

let games = [];

/** Loads the catalogue from the server (once, before the first view). */
export async function loadCatalogue() {
  const res = await fetch('/api/catalogue');
  if (!res.ok) throw new Error(`GET /api/catalogue: ${res.status}`);
  games = (await res.json()).games;
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
