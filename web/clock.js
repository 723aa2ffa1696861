// Game clocks in the browser: the time controls offered when a game is
// created, how a time control and a clock's time are written, the time a
// clock shows now (always computed from the server's last state, never
// counted down on its own), and the low-time beep.

import { t, tn } from './i18n.js';
import { s } from './dom.js';

/** The live presets offered (minutes + seconds per move). */
export const LIVE_PRESETS = ['1+0', '3+2', '5+3', '10+5', '15+10', '30+0'];
/** The days per move of correspondence games. */
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 14];
/** Live clocks under this show red and beep. */
export const LOW_TIME_MS = 20000;

const DAY = 86400000;

/** Whether `minutes`+`increment` is a live control the server takes. */
export function validCustom(minutes, increment) {
  const m = Number(minutes);
  const i = Number(increment);
  return Number.isFinite(m) && Number.isFinite(i) && m >= 0.25 && m <= 180 && Number.isInteger(m * 4)
    && Number.isInteger(i) && i >= 0 && i <= 180;
}

/** A time control's words: "5+3", "3 days per move", "Untimed". */
export function controlText(control) {
  if (!control || control === '-') return t('tc.untimed');
  const m = /^(\d+)d$/.exec(control);
  if (m) return tn('tc.perMove', Number(m[1]));
  return control;
}

const pad = (n) => String(n).padStart(2, '0');

/**
 * A clock's time: `0:09.4` under 10 s, `4:58` under an hour, `1:02:03`
 * above; a correspondence clock with a day or more `2 d 03:10`.
 */
export function fmtClock(ms, kind = 'live') {
  const left = Math.max(0, Math.floor(ms));
  if (kind === 'correspondence' && left >= DAY) {
    const d = Math.floor(left / DAY);
    const rest = left - d * DAY;
    return `${t('clock.days', { n: d })} ${pad(Math.floor(rest / 3600000))}:${pad(Math.floor((rest % 3600000) / 60000))}`;
  }
  if (left < 10000) return `0:0${Math.floor(left / 1000)}.${Math.floor((left % 1000) / 100)}`;
  const s = Math.floor(left / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/**
 * The times of `clock` (a state's clock, received at `receivedAt` by
 * performance.now()) at `now`: {white, black} in ms. Only the running
 * side's time goes down, from the server's figure.
 */
export function clockTimes(clock, receivedAt, now = performance.now()) {
  const gone = Math.max(0, now - receivedAt);
  const times = { white: clock.white_ms, black: clock.black_ms };
  if (clock.running) times[clock.running] = Math.max(0, times[clock.running] - gone);
  return times;
}

/** A small clock drawn as SVG (the font may lack a clock sign). */
export function clockIcon() {
  return s('svg', { class: 'clock-icon', viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    s('circle', { cx: 12, cy: 13, r: 8, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    s('path', { d: 'M12 9v4.5l3 2M9.5 3h5', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' }));
}

let audio = null;

/** A short beep (WebAudio), `delay` ms from now; silent where the browser has none or refuses. */
export function beep(freq = 880, ms = 90, delay = 0) {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    const at = audio.currentTime + delay / 1000;
    osc.start(at);
    osc.stop(at + ms / 1000);
  } catch { /* no sound */ }
}
