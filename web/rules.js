// Rule presets and options (docs/RULES.md, docs/DAME.md) and their description in words.
import { t, lang } from './i18n.js';
import { PRESETS as DAME_PRESETS } from './dame.js';
import { titleOf, presetsOf, presetTitleOf, gameOfRules } from './catalogue.js';
import { geometryOf } from './muehle.js';

/** The options of the Mühle rules where a preset does not say otherwise (docs/RULES.md). */
const MUEHLE_DEFAULTS = { removal: 'tournament', flying: true, no_mill: 100, repetition: 3, board: 'nine', move_in_placing: false };

/**
 * What each Mühle preset changes of the defaults besides its board (the
 * catalogue names the presets and their boards; a preset it lists that is
 * not here has the defaults on its board).
 */
const PRESET_CHANGES = {
  ravensburger: { removal: 'strict' },
  'seed-000': { no_mill: 20 },
  'no-flying': { flying: false },
  'lasker-morris': { move_in_placing: true },
};

/** The Mühle presets, in the catalogue's order: {name: options}. */
export function muehlePresets() {
  const out = {};
  for (const p of presetsOf('muehle')) out[p.name] = { ...MUEHLE_DEFAULTS, ...PRESET_CHANGES[p.name], board: p.board || 'nine' };
  if (!out.standard) out.standard = { ...MUEHLE_DEFAULTS };
  return out;
}

/** The options of Mühle preset `preset` (the standard ones for a preset the catalogue does not list). */
export function presetOptions(preset) {
  const all = muehlePresets();
  return { ...(all[preset] || all.standard) };
}

const onOff = (v) => v === 'on' || v === 'true';

/** "standard,flying=off,no-mill=40" → {preset, options}. */
export function parseRules(text) {
  const [preset = 'standard', ...rest] = String(text || 'standard').split(',').map((x) => x.trim());
  const options = presetOptions(preset);
  for (const kv of rest) {
    const [k, v] = kv.split('=');
    if (k === 'removal') options.removal = v;
    else if (k === 'flying') options.flying = onOff(v);
    else if (k === 'no-mill' || k === 'no_mill') options.no_mill = v === 'off' ? null : Number(v);
    else if (k === 'repetition') options.repetition = v === 'off' ? null : Number(v);
    else if (k === 'board') options.board = v;
    else if (k === 'move-in-placing' || k === 'move_in_placing') options.move_in_placing = onOff(v);
  }
  return { preset, options };
}

/** Options that differ from the preset (what to send when creating a game). */
export function overrides(preset, options) {
  const base = presetOptions(preset);
  const out = {};
  for (const k of Object.keys(base)) if (options[k] !== undefined && options[k] !== base[k]) out[k] = options[k];
  return out;
}

/** The short name of a Mühle preset: the page's words, else the catalogue's title, else its name. */
export const presetName = (p) => {
  const key = `preset.${p}`;
  const text = t(key);
  return text === key ? (presetTitleOf('muehle', p, lang()) || p) : text;
};

/** The catalogue's title of a Mühle preset (what it is, in a few words), else its short name. */
export const presetTitle = (p) => presetTitleOf('muehle', p, lang()) || presetName(p);

/** Words for each option: ["Schlagen: Turnierregel", "Springen: an", …]. */
export function describeOptions(o) {
  const board = o.board || 'nine';
  return [
    board === 'nine' ? null : t(`rules.board.${board}`, { n: geometryOf(board).stones }),
    t(`rules.removal.${o.removal === 'strict' ? 'strict' : 'tournament'}`),
    t(`rules.flying.${o.flying === false ? 'off' : 'on'}`),
    o.move_in_placing ? t('rules.move_in_placing.on') : null,
    o.no_mill ? t('rules.no_mill', { n: o.no_mill }) : t('rules.no_mill.off'),
    o.repetition ? t('rules.repetition', { n: o.repetition }) : t('rules.repetition.off'),
  ].filter(Boolean);
}

/**
 * The rules of a Mühle game on another board than the standard one, or
 * with moves while placing, in a few sentences (Twelve Men's Morris, Lasker
 * Morris; docs/RULES.md); empty for the standard game.
 */
export function muehleRulesSummary(o) {
  const board = o.board || 'nine';
  if (board === 'nine' && !o.move_in_placing) return [];
  const g = geometryOf(board);
  return [
    t('sum.stones', { n: g.stones }),
    board === 'twelve' ? t('sum.diagonals') : null,
    o.move_in_placing ? t('sum.move_in_placing') : null,
    o.move_in_placing ? t('sum.hands') : null,
    t('sum.mills'),
    g.stones * 2 >= g.points.length ? t('sum.board_full') : null,
    t('sum.end'),
  ].filter(Boolean);
}

/** The name of a game: "Mühle", "Dame 8×8", "Internationale Dame", … (the catalogue's title). */
export const gameName = (game) => titleOf(game, lang());

/** "dame,huffing=on,king-moves=off,king-vs-two=10" → {preset, options} (docs/DAME.md). */
export function parseDameRules(text, game = 'dame') {
  const [first, ...rest] = String(text || game).split(',').map((x) => x.trim());
  const preset = DAME_PRESETS[first] ? first : game;
  const options = { ...DAME_PRESETS[preset] };
  const bool = (v) => v === 'on' || v === 'true';
  for (const kv of rest) {
    const [k, v] = kv.split('=');
    const key = k.replace(/-/g, '_');
    if (key === 'board') options.board = Number(v);
    else if (['huffing', 'men_capture_backward', 'majority'].includes(key)) options[key] = bool(v);
    else if (key === 'king_landing' || key === 'king_capture' || key === 'promotion') options[key] = v;
    else if (['king_moves', 'repetition', 'king_vs_three', 'king_vs_two'].includes(key)) options[key] = v === 'off' ? null : Number(v);
    else if (key === 'one_king_each') options.one_king_each = bool(v);
  }
  return { preset, options };
}

/** Dame options that differ from the preset (what to send when creating a game). */
export function dameOverrides(preset, options) {
  const base = DAME_PRESETS[preset] || DAME_PRESETS.dame;
  const out = {};
  for (const k of Object.keys(base)) if (k !== 'board' && options[k] !== undefined && options[k] !== base[k]) out[k] = options[k];
  return out;
}

/** Words for each Dame option. */
export function describeDameOptions(o) {
  return [
    t('dame.rules.board', { n: o.board || 8 }),
    t(o.men_capture_backward ? 'dame.rules.backward.on' : 'dame.rules.backward.off'),
    t(o.majority ? 'dame.rules.majority.on' : 'dame.rules.majority.off'),
    t(o.king_landing === 'anywhere' ? 'dame.rules.landing.anywhere' : 'dame.rules.landing.behind'),
    t(o.king_capture === 'short' ? 'dame.rules.capture.short' : 'dame.rules.capture.long'),
    t(o.promotion === 'end-of-move' ? 'dame.rules.promotion.end' : 'dame.rules.promotion.immediate'),
    t(o.huffing ? 'dame.rules.huffing.on' : 'dame.rules.huffing.off'),
    o.king_moves ? t('dame.rules.kingMoves', { n: o.king_moves }) : t('dame.rules.kingMoves.off'),
    o.repetition ? t('rules.repetition', { n: o.repetition }) : t('rules.repetition.off'),
    t(o.one_king_each === false ? 'dame.rules.oneKingEach.off' : 'dame.rules.oneKingEach.on'),
    o.king_vs_three ? t('dame.rules.kingVsThree', { n: o.king_vs_three }) : t('dame.rules.kingVsThree.off'),
    o.king_vs_two ? t('dame.rules.kingVsTwo', { n: o.king_vs_two }) : t('dame.rules.kingVsTwo.off'),
  ];
}

/** The rules of Dame in a few sentences (docs/DAME.md), for the options in force. */
export function dameRulesSummary(o) {
  return [
    t('dame.sum.board', { n: o.board || 8, men: (o.board || 8) === 8 ? 12 : 20 }),
    t('dame.sum.men'),
    t(o.men_capture_backward ? 'dame.sum.capture.backward' : 'dame.sum.capture'),
    t('dame.sum.multi'),
    t(o.majority ? 'dame.sum.compulsory.majority' : 'dame.sum.compulsory'),
    o.huffing ? t('dame.sum.huffing') : null,
    t(o.promotion === 'end-of-move' ? 'dame.sum.crown.end' : 'dame.sum.crown'),
    t(`dame.sum.king${o.king_capture === 'short' ? '.short' : ''}${o.king_landing === 'anywhere' ? '.anywhere' : ''}`),
    t('dame.sum.end'),
    t(o.one_king_each === false ? 'dame.sum.draw.noOneKing' : 'dame.sum.draw', { n: o.king_moves || 50 }),
    o.king_vs_three ? t('dame.sum.kingVsThree', { n: o.king_vs_three }) : null,
    o.king_vs_two ? t('dame.sum.kingVsTwo', { n: o.king_vs_two }) : null,
  ].filter(Boolean);
}

/** Short label of a Mühle rules string: "Standard" or "Standard (angepasst)". */
export function muehleRulesLabel(text) {
  const { preset } = parseRules(text);
  const custom = String(text || '').includes(',');
  return custom ? `${presetName(preset)} (${t('preset.custom')})` : presetName(preset);
}

/** Short label of a Dame rules string: the game's name, "(angepasst)" when options differ. */
export function dameRulesLabel(text, game = null) {
  const { preset } = parseDameRules(text, game || gameOfRules(text) || 'dame');
  const custom = String(text || '').includes(',');
  return custom ? `${gameName(preset)} (${t('preset.custom')})` : gameName(preset);
}
