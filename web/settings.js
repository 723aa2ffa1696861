// The player's settings, kept in this browser: the game sounds, the
// boards' theme and their coordinates; the panel that changes them (a gear
// button) and the sounds themselves (tones made by Web Audio, no files).

import { h, s } from './dom.js';
import { t } from './i18n.js';
import { beep } from './clock.js';
import * as store from './store.js';

/** The boards' themes (CSS variables of the boards, style.css). */
export const THEMES = ['classic', 'wood', 'contrast'];

/** Puts the theme and the coordinates switch on the page's root, where the boards' styles read them. */
export function applyBoardSettings(root = document.documentElement) {
  const theme = store.boardTheme();
  root.dataset.boardTheme = THEMES.includes(theme) ? theme : 'classic';
  root.dataset.coords = store.boardCoords() ? 'on' : 'off';
}

/** The tones of each sound: [frequency Hz, length ms, start ms]. */
const SOUNDS = {
  move: [[520, 55, 0]],
  capture: [[440, 60, 0], [330, 90, 70]],
  mill: [[523, 80, 0], [659, 80, 90], [784, 130, 180]],
  end: [[392, 150, 0], [523, 150, 170], [659, 280, 340]],
};

/**
 * Plays the sound of `kind` (move, capture, mill, end) unless sounds are
 * off; tells the page by a `brett:sound` event on window.
 */
export function playSound(kind) {
  const tones = SOUNDS[kind];
  if (!tones || !store.gameSound()) return;
  for (const [freq, ms, delay] of tones) beep(freq, ms, delay);
  window.dispatchEvent(new CustomEvent('brett:sound', { detail: kind }));
}

const GEAR = 'M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.6 7.6 0 0 0-1.7-1L15 3.2h-4l-.4 2.7a7.6 7.6 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.6 7.6 0 0 0 1.7 1l.4 2.7h4l.4-2.7a7.6 7.6 0 0 0 1.7-1l2.5 1 2-3.5zM12 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z';

/** The settings panel: a gear button that opens the sounds, theme and coordinates switches. */
export class SettingsPanel {
  constructor() {
    this.sound = h('input', {
      type: 'checkbox', id: 'setting-sound', checked: store.gameSound(),
      onchange: (ev) => { store.setGameSound(ev.target.checked); if (ev.target.checked) playSound('move'); },
    });
    this.coords = h('input', {
      type: 'checkbox', id: 'setting-coords', checked: store.boardCoords(),
      onchange: (ev) => { store.setBoardCoords(ev.target.checked); applyBoardSettings(); },
    });
    this.theme = h('select', {
      id: 'setting-theme',
      onchange: (ev) => { store.setBoardTheme(ev.target.value); applyBoardSettings(); },
    }, ...THEMES.map((x) => h('option', { value: x })));
    this.theme.value = THEMES.includes(store.boardTheme()) ? store.boardTheme() : 'classic';
    this.soundLabel = h('span');
    this.coordsLabel = h('span');
    this.themeLabel = h('label', { for: 'setting-theme' });
    this.title = h('h2', { class: 'section-title' });
    this.summary = h('summary', { class: 'btn icon', id: 'settings-button' },
      s('svg', { viewBox: '0 0 24 24', class: 'icon', 'aria-hidden': 'true' }, s('path', { d: GEAR })));
    this.el = h('details', { class: 'settings', id: 'settings' }, this.summary,
      h('div', { class: 'settings-panel', id: 'settings-panel' },
        this.title,
        h('label', { class: 'check' }, this.sound, this.soundLabel),
        h('div', { class: 'field' }, this.themeLabel, this.theme),
        h('label', { class: 'check' }, this.coords, this.coordsLabel)));
    // A click elsewhere or Escape closes the panel.
    this.onOutside = (ev) => { if (this.el.open && !this.el.contains(ev.target)) this.el.open = false; };
    this.onKey = (ev) => { if (ev.key === 'Escape' && this.el.open) { this.el.open = false; this.summary.focus(); } };
    document.addEventListener('click', this.onOutside);
    this.el.addEventListener('keydown', this.onKey);
    applyBoardSettings();
    this.relabel();
  }

  destroy() {
    document.removeEventListener('click', this.onOutside);
  }

  relabel() {
    this.summary.setAttribute('aria-label', t('settings.title'));
    this.summary.title = t('settings.title');
    this.title.textContent = t('settings.title');
    this.soundLabel.textContent = t('settings.sound');
    this.coordsLabel.textContent = t('settings.coords');
    this.themeLabel.textContent = t('settings.theme');
    for (const o of this.theme.options) o.textContent = t(`settings.theme.${o.value}`);
  }
}
