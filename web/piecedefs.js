// The SVG <defs> both boards (board.js, dameboard.js) draw their pieces with:
// a radial gradient for each colour and a drop shadow.

import { s } from './dom.js';

/**
 * Defines `${prefix}-white`, `${prefix}-black` (gradients from the stops,
 * [offset, colour] each, lit from cx / 32 %) and `${prefix}-shadow`.
 */
export function pieceDefs(prefix, { cx, white, black, shadow }) {
  const gradient = (colour, stops) => s('radialGradient', { id: `${prefix}-${colour}`, cx, cy: '32%', r: '75%' },
    ...stops.map(([offset, c]) => s('stop', { offset, 'stop-color': c })));
  return s('defs', {},
    gradient('white', white),
    gradient('black', black),
    s('filter', { id: `${prefix}-shadow`, x: '-30%', y: '-30%', width: '160%', height: '160%' },
      s('feDropShadow', { dx: '0', dy: shadow.dy, stdDeviation: shadow.blur, 'flood-opacity': shadow.opacity })));
}
