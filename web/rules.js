// Rule presets and options (docs/RULES.md) and their description in words.
import { t } from './i18n.js';

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

/** Short label of a rules string: "Standard" or "Standard (angepasst)". */
export function rulesLabel(text) {
  const { preset } = parseRules(text);
  const custom = String(text || '').includes(',');
  return custom ? `${presetName(preset)} (${t('preset.custom')})` : presetName(preset);
}
