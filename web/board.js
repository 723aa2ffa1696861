// The Mühle board as SVG: the points and lines of a board description
// (muehle.js geometryOf: the catalogue's; three squares, their joins and on
// the twelve board the diagonals), coordinates a–g / 1–7, stones, highlights (selected stone, legal targets, removable stones, last
// move), flip, click / drag / keyboard input (boardinput.js). It knows
// nothing about games: the owner passes what to draw and gets told which
// point was chosen.

import { s } from './dom.js';
import { geometryOf } from './muehle.js';
import { t, colorName } from './i18n.js';
import { BoardInput, svgPoint } from './boardinput.js';
import { pieceDefs } from './piecedefs.js';

// The margin keeps the coordinate labels clear of the stones on the edge points.
const SIZE = 740;
const MARGIN = 70;
const STEP = 100;
const STONE_R = 31;

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {{onPoint?: (p: string) => void, onDrag?: (from: string, to: string) => void,
   *          canDrag?: (p: string) => boolean}} handlers
   * @param {object|string|null} rules the rule options (or the board's name) whose board is drawn
   */
  constructor(host, handlers = {}, rules = null) {
    this.handlers = handlers;
    this.geometry = geometryOf(rules);
    this.grid = Object.fromEntries(this.geometry.points.map((p) => [p.name, p]));
    this.flipped = false;
    this.view = { board: {} };
    this.prevLast = null;
    this.svg = s('svg', {
      class: 'board', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group',
      // One tab stop: the focused point (boardinput.js), not the board too.
      tabindex: '-1',
      'aria-roledescription': 'board', 'aria-label': t('board.label'),
    });
    const defs = pieceDefs('stone', {
      cx: '38%',
      white: [['0%', '#ffffff'], ['70%', '#e9e4da'], ['100%', '#c9c1b3']],
      black: [['0%', '#5b5652'], ['60%', '#2b2826'], ['100%', '#131211']],
      shadow: { dy: '3', blur: '2.5', opacity: '0.35' },
    });
    this.svg.append(defs);
    this.svg.append(s('rect', { class: 'board-bg', x: 4, y: 4, width: SIZE - 8, height: SIZE - 8, rx: 18 }));
    // One stroke a line of the board.
    const lines = s('g', { class: 'lines', 'aria-hidden': 'true', 'data-board': this.geometry.name });
    for (const l of this.geometry.lines) {
      lines.append(s('polyline', {
        'data-line': l.join('-'),
        points: l.map((p) => `${MARGIN + this.grid[p].x * STEP},${MARGIN + this.grid[p].y * STEP}`).join(' '),
      }));
    }
    this.svg.append(lines);
    this.labels = s('g', { class: 'labels', 'aria-hidden': 'true' });
    this.svg.append(this.labels);
    this.pointLayer = s('g', { class: 'points' });
    this.svg.append(this.pointLayer);
    this.dragLayer = s('g', { class: 'drag-layer', 'aria-hidden': 'true' });
    this.svg.append(this.dragLayer);

    this.points = {};
    for (const { name: p } of this.geometry.points) {
      const g = s('g', { class: 'pt', tabindex: '-1', role: 'button', 'data-point': p },
        s('circle', { class: 'hit', r: 47 }),
        s('circle', { class: 'mark', r: 42 }),
        s('circle', { class: 'dot', r: 8 }),
        s('g', { class: 'stone' },
          s('circle', { class: 'body', r: STONE_R }),
          s('circle', { class: 'inner', r: STONE_R - 10 })),
        s('circle', { class: 'target', r: 13 }),
        s('path', { class: 'cross', d: 'M-14,-14 L14,14 M14,-14 L-14,14' }),
        s('circle', { class: 'ring', r: 44 }));
      this.points[p] = g;
      this.pointLayer.append(g);
    }
    this.input = new BoardInput(this, {
      selector: '.pt',
      dataKey: 'point',
      chooseHandler: 'onPoint',
      cells: () => this.points,
      cellAt: (x, y) => this.nearestPoint(x, y),
      neighbour: (p, dir) => this.neighbourInDirection(p, dir),
      pos: (p) => this.pos(p),
      ghost: (p) => this.dragGhost(p),
    });
    this.input.setFocusable('d7');
    this.layout();
    host.append(this.svg);
  }

  pos(p) {
    let { x, y } = this.grid[p];
    if (this.flipped) { x = 6 - x; y = 6 - y; }
    return { x: MARGIN + x * STEP, y: MARGIN + y * STEP, gx: x, gy: y };
  }

  layout() {
    for (const p of Object.keys(this.points)) {
      const { x, y } = this.pos(p);
      this.points[p].setAttribute('transform', `translate(${x},${y})`);
    }
    while (this.labels.firstChild) this.labels.firstChild.remove();
    for (let i = 0; i < 7; i++) {
      const file = String.fromCharCode(97 + (this.flipped ? 6 - i : i));
      const rank = String(this.flipped ? i + 1 : 7 - i);
      this.labels.append(s('text', { x: MARGIN + i * STEP, y: SIZE - 12, 'text-anchor': 'middle' }, file));
      this.labels.append(s('text', { x: 20, y: MARGIN + i * STEP + 8, 'text-anchor': 'middle' }, rank));
    }
  }

  setFlipped(flipped) {
    if (this.flipped === !!flipped) return;
    this.flipped = !!flipped;
    this.layout();
  }

  /**
   * Draws a state of the board.
   * view: {board: {point: colour}, selected, targets: Set, removable: Set,
   *        last: {from, to, remove}, interactive, movable: Set, animate}
   */
  render(view) {
    this.view = view;
    const targets = view.targets || new Set();
    const removable = view.removable || new Set();
    const movable = view.movable || new Set();
    const last = view.last || {};
    for (const p of Object.keys(this.points)) {
      const g = this.points[p];
      const c = view.board[p];
      const cls = ['pt'];
      if (c) cls.push('has-stone', c);
      if (view.selected === p) cls.push('selected');
      if (targets.has(p)) cls.push('is-target');
      if (removable.has(p)) cls.push('is-removable');
      if (movable.has(p)) cls.push('movable');
      if (last.to === p || last.from === p) cls.push('last');
      if (last.remove === p && !c) cls.push('last-removed');
      if (view.ghost === p) cls.push('ghost');
      if (view.interactive && (targets.has(p) || removable.has(p) || movable.has(p))) cls.push('active');
      g.setAttribute('class', cls.join(' '));
      const bits = [c ? t('board.point.stone', { p, color: colorName(c) }) : t('board.point.empty', { p })];
      if (view.selected === p) bits.push(t('board.point.selected'));
      if (targets.has(p)) bits.push(t('board.point.target'));
      if (removable.has(p)) bits.push(t('board.point.removable'));
      if (last.to === p || last.from === p) bits.push(t('board.point.last'));
      g.setAttribute('aria-label', bits.join(', '));
      if (view.interactive) g.removeAttribute('aria-disabled');
      else g.setAttribute('aria-disabled', 'true');
    }
    this.svg.setAttribute('aria-label', `${t('board.label')}. ${t('board.help')}`);
    this.svg.classList.toggle('interactive', !!view.interactive);
    // Animate the stone of a new last move.
    const key = last.to ? `${last.from || ''}-${last.to}-${view.ply ?? ''}` : null;
    if (view.animate && key && key !== this.prevLast && view.board[last.to]) {
      const stone = this.points[last.to].querySelector('.stone');
      if (last.from && stone.animate) {
        const a = this.pos(last.from);
        const b = this.pos(last.to);
        stone.animate([
          { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` },
          { transform: 'translate(0, 0)' },
        ], { duration: 220, easing: 'ease-out' });
      } else if (stone.animate) {
        stone.animate([{ transform: 'scale(1.25)', opacity: 0.2 }, { transform: 'scale(1)', opacity: 1 }],
          { duration: 180, easing: 'ease-out' });
      }
    }
    this.prevLast = key;
  }

  /** The point nearest to the pointer (null when none is near) and the pointer in SVG units. */
  nearestPoint(clientX, clientY) {
    const at = svgPoint(this.svg, clientX, clientY);
    if (!at) return null;
    const { x, y } = at;
    let best = null;
    let bestD = 50 * 50;
    for (const p of Object.keys(this.points)) {
      const q = this.pos(p);
      const d = (q.x - x) ** 2 + (q.y - y) ** 2;
      if (d < bestD) { bestD = d; best = p; }
    }
    return { cell: best, x, y };
  }

  /** The ghost stone that follows the pointer while a stone is dragged. */
  dragGhost(p) {
    return s('g', { class: `pt has-stone dragging ${this.view.board[p]}` },
      s('g', { class: 'stone' },
        s('circle', { class: 'body', r: STONE_R + 3 }),
        s('circle', { class: 'inner', r: STONE_R - 7 })));
  }

  neighbourInDirection(p, [dx, dy]) {
    const a = this.pos(p);
    let best = null;
    let bestScore = Infinity;
    for (const q of Object.keys(this.points)) {
      if (q === p) continue;
      const b = this.pos(q);
      const along = (b.gx - a.gx) * dx + (b.gy - a.gy) * dy;
      if (along <= 0) continue;
      const perp = Math.abs((b.gx - a.gx) * dy - (b.gy - a.gy) * dx);
      const score = along + 3 * perp;
      if (score < bestScore) { bestScore = score; best = q; }
    }
    return best;
  }
}

/** A small stone for player bars (stones in hand, lost stones). */
export function miniStone(colour, cls = '') {
  return s('svg', { class: `mini-stone ${colour} ${cls}`, viewBox: '-12 -12 24 24', 'aria-hidden': 'true' },
    s('circle', { r: 10.5 }));
}
