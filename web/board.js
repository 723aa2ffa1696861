// The Mühle board as SVG: 24 points on three squares, coordinates a–g / 1–7,
// stones, highlights (selected stone, legal targets, removable stones, last
// move), flip, click / drag / keyboard input. It knows nothing about games:
// the owner passes what to draw and gets told which point was chosen.

import { s } from './dom.js';
import { POINTS, coords } from './muehle.js';
import { t, colorName } from './i18n.js';

const SIZE = 720;
const MARGIN = 60;
const STEP = 100;
const STONE_R = 31;

/** Outline of the board: three squares and the four joining lines (grid units). */
const LINES = [
  [[0, 0], [6, 0], [6, 6], [0, 6], [0, 0]],
  [[1, 1], [5, 1], [5, 5], [1, 5], [1, 1]],
  [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]],
  [[3, 0], [3, 2]], [[3, 4], [3, 6]], [[0, 3], [2, 3]], [[4, 3], [6, 3]],
];

const KEYS = {
  ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {{onPoint?: (p: string) => void, onDrag?: (from: string, to: string) => void,
   *          canDrag?: (p: string) => boolean}} handlers
   */
  constructor(host, handlers = {}) {
    this.handlers = handlers;
    this.flipped = false;
    this.view = { board: {} };
    this.focusPoint = 'd7';
    this.prevLast = null;
    this.svg = s('svg', {
      class: 'board', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group',
      'aria-roledescription': 'board', 'aria-label': t('board.label'),
    });
    const defs = s('defs', {},
      s('radialGradient', { id: 'stone-white', cx: '38%', cy: '32%', r: '75%' },
        s('stop', { offset: '0%', 'stop-color': '#ffffff' }),
        s('stop', { offset: '70%', 'stop-color': '#e9e4da' }),
        s('stop', { offset: '100%', 'stop-color': '#c9c1b3' })),
      s('radialGradient', { id: 'stone-black', cx: '38%', cy: '32%', r: '75%' },
        s('stop', { offset: '0%', 'stop-color': '#5b5652' }),
        s('stop', { offset: '60%', 'stop-color': '#2b2826' }),
        s('stop', { offset: '100%', 'stop-color': '#131211' })),
      s('filter', { id: 'stone-shadow', x: '-30%', y: '-30%', width: '160%', height: '160%' },
        s('feDropShadow', { dx: '0', dy: '3', stdDeviation: '2.5', 'flood-opacity': '0.35' })));
    this.svg.append(defs);
    this.svg.append(s('rect', { class: 'board-bg', x: 4, y: 4, width: SIZE - 8, height: SIZE - 8, rx: 18 }));
    const lines = s('g', { class: 'lines', 'aria-hidden': 'true' });
    for (const l of LINES) {
      lines.append(s('polyline', {
        points: l.map(([x, y]) => `${MARGIN + x * STEP},${MARGIN + y * STEP}`).join(' '),
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
    for (const p of POINTS) {
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
    this.setFocusable(this.focusPoint);
    this.layout();
    this.bindEvents();
    host.append(this.svg);
  }

  pos(p) {
    let { x, y } = coords(p);
    y = 6 - y;
    if (this.flipped) { x = 6 - x; y = 6 - y; }
    return { x: MARGIN + x * STEP, y: MARGIN + y * STEP, gx: x, gy: y };
  }

  layout() {
    for (const p of POINTS) {
      const { x, y } = this.pos(p);
      this.points[p].setAttribute('transform', `translate(${x},${y})`);
    }
    while (this.labels.firstChild) this.labels.firstChild.remove();
    for (let i = 0; i < 7; i++) {
      const file = String.fromCharCode(97 + (this.flipped ? 6 - i : i));
      const rank = String(this.flipped ? i + 1 : 7 - i);
      this.labels.append(s('text', { x: MARGIN + i * STEP, y: SIZE - 14, 'text-anchor': 'middle' }, file));
      this.labels.append(s('text', { x: 20, y: MARGIN + i * STEP + 8, 'text-anchor': 'middle' }, rank));
    }
  }

  setFlipped(flipped) {
    if (this.flipped === !!flipped) return;
    this.flipped = !!flipped;
    this.layout();
  }

  setFocusable(p) {
    if (this.points[this.focusPoint]) this.points[this.focusPoint].setAttribute('tabindex', '-1');
    this.focusPoint = p;
    this.points[p].setAttribute('tabindex', '0');
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
    for (const p of POINTS) {
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

  nearestPoint(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const { x, y } = pt.matrixTransform(ctm.inverse());
    let best = null;
    let bestD = 50 * 50;
    for (const p of POINTS) {
      const q = this.pos(p);
      const d = (q.x - x) ** 2 + (q.y - y) ** 2;
      if (d < bestD) { bestD = d; best = p; }
    }
    return { point: best, x, y };
  }

  bindEvents() {
    let drag = null;
    let suppressClick = false;
    this.svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      const g = ev.target.closest('.pt');
      if (!g || !this.view.interactive) return;
      const p = g.dataset.point;
      if (!this.handlers.canDrag || !this.handlers.canDrag(p)) return;
      drag = { p, x0: ev.clientX, y0: ev.clientY, moved: false, id: ev.pointerId, ghost: null };
    });
    this.svg.addEventListener('pointermove', (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      if (!drag.moved && Math.hypot(ev.clientX - drag.x0, ev.clientY - drag.y0) < 6) return;
      if (!drag.moved) {
        drag.moved = true;
        try { this.svg.setPointerCapture(ev.pointerId); } catch { /* ignore */ }
        const colour = this.view.board[drag.p];
        drag.ghost = s('g', { class: `pt has-stone dragging ${colour}` },
          s('g', { class: 'stone' },
            s('circle', { class: 'body', r: STONE_R + 3 }),
            s('circle', { class: 'inner', r: STONE_R - 7 })));
        this.dragLayer.append(drag.ghost);
        this.points[drag.p].classList.add('drag-source');
        this.handlers.onDragStart?.(drag.p);
      }
      const n = this.nearestPoint(ev.clientX, ev.clientY);
      if (n) drag.ghost.setAttribute('transform', `translate(${n.x},${n.y})`);
      for (const p of POINTS) this.points[p].classList.toggle('drag-over', !!n && n.point === p);
      ev.preventDefault();
    });
    const endDrag = (ev, cancel) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const d = drag;
      drag = null;
      if (!d.moved) return;
      suppressClick = true;
      setTimeout(() => { suppressClick = false; }, 0);
      d.ghost.remove();
      this.points[d.p].classList.remove('drag-source');
      for (const p of POINTS) this.points[p].classList.remove('drag-over');
      const n = cancel ? null : this.nearestPoint(ev.clientX, ev.clientY);
      if (n && n.point && n.point !== d.p) this.handlers.onDrag?.(d.p, n.point);
      else this.handlers.onDragCancel?.(d.p);
    };
    this.svg.addEventListener('pointerup', (ev) => endDrag(ev, false));
    this.svg.addEventListener('pointercancel', (ev) => endDrag(ev, true));
    this.svg.addEventListener('click', (ev) => {
      if (suppressClick) return;
      const g = ev.target.closest('.pt');
      if (!g) return;
      this.setFocusable(g.dataset.point);
      this.handlers.onPoint?.(g.dataset.point);
    });
    this.svg.addEventListener('keydown', (ev) => {
      const g = ev.target.closest && ev.target.closest('.pt');
      if (!g) return;
      const p = g.dataset.point;
      if (KEYS[ev.key]) {
        ev.preventDefault();
        ev.stopPropagation();
        const q = this.neighbourInDirection(p, KEYS[ev.key]);
        if (q) this.focus(q);
      } else if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        ev.stopPropagation();
        this.handlers.onPoint?.(p);
      } else if (ev.key === 'Escape') {
        this.handlers.onEscape?.();
      } else if (ev.key === 'Home' || ev.key === 'End') {
        ev.preventDefault();
        ev.stopPropagation();
        this.focus(ev.key === 'Home' ? (this.flipped ? 'g1' : 'a7') : (this.flipped ? 'a7' : 'g1'));
      }
    });
    this.svg.addEventListener('focusin', (ev) => {
      const g = ev.target.closest && ev.target.closest('.pt');
      if (g) this.setFocusable(g.dataset.point);
    });
  }

  focus(p) {
    this.setFocusable(p);
    this.points[p].focus();
  }

  neighbourInDirection(p, [dx, dy]) {
    const a = this.pos(p);
    let best = null;
    let bestScore = Infinity;
    for (const q of POINTS) {
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
