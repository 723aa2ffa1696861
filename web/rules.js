// Rule presets and options (docs/RULES.md, docs/DAME.md) and their description in words.
import { t, lang } from './i18n.js';
import { PRESETS as DAME_PRESETS, isDame } from './dame.js';
import { titleOf } from './catalogue.js';

export const PRESETS = {
  standard: { removal: 'tournament', flying: true, no_mill: 100, repetition: 3 },
  ravensburger: { removal: 'strict', flying: true, no_mill: 100, repetition: 3 },
  'seed-000': { removal: 'tournament', flying: true, no_mill: 20, repetition: 3 },
  'no-flying': { removal: 'tournament', flying: false, no_mill: 100, repetition: 3 },
};

/** "standard,flying=off,no-mill=40" → {preset, options}. */
export function parseRules(text) {
  const [preset = 'standard', ...rest] = String(text || 'standard').split(',').map((x) => x.trim());
  const options = { ...(PRESETS[preset] || PRESETS.standard) };
  for (const kv of rest) {
    const [k, v] = kv.split('=');
    if (k === 'removal') options.removal = v;
    else if (k === 'flying') options.flying = v === 'on' || v === 'true';
    else if (k === 'no-mill' || k === 'no_mill') options.no_mill = v === 'off' ? null : Number(v);
    else if (k === 'repetition') options.repetition = v === 'off' ? null : Number(v);
  }
  return { preset, options };
}

/** Options that differ from the preset (what to send when creating a game). */
export function overrides(preset, options) {
  const base = PRESETS[preset] || PRESETS.standard;
  const out = {};
  for (const k of Object.keys(base)) if (options[k] !== base[k]) out[k] = options[k];
  return out;
}

export const presetName = (p) => {
  const key = `preset.${p}`;
  const text = t(key);
  return text === key ? p : text;
};

/** Words for each option: ["Schlagen: Turnierregel", "Springen: an", …]. */
export function describeOptions(o) {
  return [
    t(`rules.removal.${o.removal === 'strict' ? 'strict' : 'tournament'}`),
    t(`rules.flying.${o.flying === false ? 'off' : 'on'}`),
    o.no_mill ? t('rules.no_mill', { n: o.no_mill }) : t('rules.no_mill.off'),
    o.repetition ? t('rules.repetition', { n: o.repetition }) : t('rules.repetition.off'),
  ];
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

/** Short label of a rules string: "Standard" or "Standard (angepasst)". */
export function rulesLabel(text, game = null) {
  const first = String(text || '').split(',')[0].trim();
  if (isDame(first) || isDame(game)) {
    const { preset } = parseDameRules(text, isDame(game) ? game : first);
    const custom = String(text || '').includes(',');
    return custom ? `${gameName(preset)} (${t('preset.custom')})` : gameName(preset);
  }
  const { preset } = parseRules(text);
  const custom = String(text || '').includes(',');
  return custom ? `${presetName(preset)} (${t('preset.custom')})` : presetName(preset);
}
