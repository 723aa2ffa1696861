// The Dame board as SVG: 8×8 or 10×10 squares, men and kings, coordinates
// (a–h / 1–8 on 8×8, square numbers on 10×10), flip, the last move (its path
// and the pieces it took), selection, landing targets, pieces a capture in
// progress will take, huffable pieces, click / drag / keyboard input
// (boardinput.js). Like board.js it knows nothing about games: the owner
// passes what to draw and gets told which square was chosen.

import { s } from './dom.js';
import * as D from './dame.js';
import { t, colorName } from './i18n.js';
import { BoardInput, svgPoint } from './boardinput.js';
import { pieceDefs } from './piecedefs.js';

const SIZE = 800;

/** The crown of a king (piece units, centred on 0,0). */
const CROWN = 'M-15,7 L-17,-8 L-8,-1 L0,-12 L8,-1 L17,-8 L15,7 Z';

export class DameBoard {
  /**
   * @param {HTMLElement} host
   * @param {number} size 8 or 10
   * @param {{onSquare?: (sq: string) => void, onDrag?: (from: string, to: string) => void,
   *          canDrag?: (sq: string) => boolean, onDragStart?, onDragCancel?, onEscape?}} handlers
   */
  constructor(host, size, handlers = {}) {
    this.handlers = handlers;
    this.flipped = false;
    this.view = { board: {} };
    this.prevLast = null;
    this.svg = s('svg', {
      class: 'board dame-board', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'group',
      // One tab stop: the focused square (boardinput.js), not the board too.
      tabindex: '-1',
      'aria-roledescription': 'board', 'aria-label': t('dame.board.label'),
    });
    this.input = new BoardInput(this, {
      selector: '.sq',
      dataKey: 'square',
      chooseHandler: 'onSquare',
      cells: () => this.squares,
      cellAt: (x, y) => this.squareAtPoint(x, y),
      neighbour: (sq, dir) => this.neighbourInDirection(sq, dir),
      pos: (sq) => this.pos(sq),
      ghost: (sq) => this.dragGhost(sq),
    });
    this.setSize(size);
    host.append(this.svg);
  }

  /** Builds the squares for a board size (8 or 10). */
  setSize(size) {
    if (this.size === size) return;
    this.size = size;
    this.cell = SIZE / size;
    this.svg.replaceChildren();
    this.svg.dataset.size = String(size);
    const defs = pieceDefs('piece', {
      cx: '40%',
      white: [['0%', '#ffffff'], ['75%', '#ebe5d9'], ['100%', '#c8bfae']],
      black: [['0%', '#6a5247'], ['60%', '#3a2a23'], ['100%', '#1c1310']],
      shadow: { dy: '2.5', blur: '2', opacity: '0.4' },
    });
    this.svg.append(defs);
    const light = s('g', { class: 'light-squares', 'aria-hidden': 'true' });
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        if (!D.squareAt(size, c, r)) light.append(s('rect', { class: 'light', x: c * this.cell, y: r * this.cell, width: this.cell, height: this.cell }));
      }
    }
    this.svg.append(light);
    this.squareLayer = s('g', { class: 'squares' });
    this.svg.append(this.squareLayer);
    this.labels = s('g', { class: 'labels dame-labels', 'aria-hidden': 'true' });
    this.svg.append(this.labels);
    this.pathLayer = s('g', { class: 'path-layer', 'aria-hidden': 'true' });
    this.svg.append(this.pathLayer);
    this.pieceLayer = s('g', { class: 'marks-layer', 'aria-hidden': 'true' });
    this.svg.append(this.pieceLayer);
    this.dragLayer = s('g', { class: 'drag-layer', 'aria-hidden': 'true' });
    this.svg.append(this.dragLayer);
    this.squares = {};
    const cell = this.cell;
    const r = cell * 0.4;
    for (const sq of D.squares(size)) {
      const g = s('g', { class: 'sq', tabindex: '-1', role: 'button', 'data-square': sq },
        s('rect', { class: 'cell', width: cell, height: cell }),
        s('rect', { class: 'mark', width: cell, height: cell }),
        size === 10 ? s('text', { class: 'num', x: 4, y: 15 }, sq) : null,
        s('g', { class: 'piece', transform: `translate(${cell / 2},${cell / 2})` },
          s('circle', { class: 'body', r }),
          s('circle', { class: 'inner', r: r * 0.72 }),
          s('path', { class: 'crown', d: CROWN, transform: `scale(${r / 30})` })),
        s('circle', { class: 'target', cx: cell / 2, cy: cell / 2, r: cell * 0.16 }),
        s('path', { class: 'cross', d: `M${cell * 0.3},${cell * 0.3} L${cell * 0.7},${cell * 0.7} M${cell * 0.7},${cell * 0.3} L${cell * 0.3},${cell * 0.7}` }),
        s('rect', { class: 'ring', x: 4, y: 4, width: cell - 8, height: cell - 8, rx: 6 }));
      this.squares[sq] = g;
      this.squareLayer.append(g);
    }
    this.input.setFocusable(D.squares(size)[0]);
    this.prevLast = null;
    this.layout();
  }

  /** Top-left corner of a square on the screen (flip applied). */
  pos(sq) {
    let { col, row } = D.coords(this.size, sq);
    if (this.flipped) { col = this.size - 1 - col; row = this.size - 1 - row; }
    return { x: col * this.cell, y: row * this.cell, gx: col, gy: row };
  }

  center(sq) {
    const p = this.pos(sq);
    return { x: p.x + this.cell / 2, y: p.y + this.cell / 2 };
  }

  layout() {
    for (const sq of D.squares(this.size)) {
      const { x, y } = this.pos(sq);
      this.squares[sq].setAttribute('transform', `translate(${x},${y})`);
    }
    // Light squares are symmetric under the flip (a1 stays dark in the corner).
    this.labels.replaceChildren();
    if (this.size === 8) {
      for (let i = 0; i < 8; i++) {
        const file = String.fromCharCode(97 + (this.flipped ? 7 - i : i));
        const rank = String(this.flipped ? i + 1 : 8 - i);
        this.labels.append(s('text', { x: i * this.cell + this.cell - 6, y: SIZE - 6, 'text-anchor': 'end', class: i % 2 === 0 ? 'on-dark' : 'on-light' }, file));
        this.labels.append(s('text', { x: 5, y: i * this.cell + 20, class: i % 2 === 0 ? 'on-light' : 'on-dark' }, rank));
      }
    }
  }

  setFlipped(flipped) {
    if (this.flipped === !!flipped) return;
    this.flipped = !!flipped;
    this.prevLast = null;
    this.layout();
    this.render(this.view);
  }

  /**
   * Draws a state of the board.
   * view: {board: {sq: {color, king}}, selected, targets: Set, movable: Set,
   *        huffable: Set, capturing: Set, path: [squares] (the capture being entered),
   *        last: {path: [squares], captured: [squares]}, interactive, animate, ply}
   */
  render(view) {
    if (!view || !view.board) return;
    this.view = view;
    const targets = view.targets || new Set();
    const movable = view.movable || new Set();
    const huffable = view.huffable || new Set();
    const capturing = view.capturing || new Set();
    const last = view.last || null;
    const lastPath = last && last.path ? last.path : [];
    const lastCaptured = new Set(last && last.captured ? last.captured : []);
    const path = view.path || [];
    for (const sq of D.squares(this.size)) {
      const g = this.squares[sq];
      const p = view.board[sq];
      const cls = ['sq'];
      if (p) cls.push('has-piece', p.color, p.king ? 'king' : 'man');
      if (view.selected === sq) cls.push('selected');
      if (targets.has(sq)) cls.push('is-target');
      if (movable.has(sq)) cls.push('movable');
      if (huffable.has(sq)) cls.push('is-huffable');
      if (capturing.has(sq)) cls.push('is-capturing');
      if (path.includes(sq) && sq !== view.selected) cls.push('on-path');
      if (lastPath.length && (lastPath[0] === sq || lastPath[lastPath.length - 1] === sq)) cls.push('last');
      if (lastCaptured.has(sq) && !p) cls.push('last-captured');
      if (view.interactive && (targets.has(sq) || movable.has(sq) || huffable.has(sq))) cls.push('active');
      g.setAttribute('class', cls.join(' '));
      const bits = [p ? t(p.king ? 'dame.board.king' : 'dame.board.man', { sq, color: colorName(p.color) }) : t('board.point.empty', { p: sq })];
      if (view.selected === sq) bits.push(t('board.point.selected'));
      if (targets.has(sq)) bits.push(t('board.point.target'));
      if (huffable.has(sq)) bits.push(t('dame.board.huffable'));
      if (capturing.has(sq)) bits.push(t('dame.board.capturing'));
      if (lastPath.includes(sq)) bits.push(t('board.point.last'));
      if (lastCaptured.has(sq) && !p) bits.push(t('dame.board.taken'));
      g.setAttribute('aria-label', bits.join(', '));
      if (view.interactive) g.removeAttribute('aria-disabled');
      else g.setAttribute('aria-disabled', 'true');
    }
    // The path of the last move, and of the capture being entered.
    this.pathLayer.replaceChildren();
    const line = (sqs, cls) => {
      if (sqs.length < 2) return;
      const pts = sqs.map((sq) => { const c = this.center(sq); return `${c.x},${c.y}`; }).join(' ');
      this.pathLayer.append(s('polyline', { class: cls, points: pts }));
    };
    if (lastPath.length > 2 || (lastPath.length === 2 && lastCaptured.size)) line(lastPath, 'last-path');
    line(path, 'entry-path');
    this.svg.setAttribute('aria-label', `${t('dame.board.label')}. ${t('board.help')}`);
    this.svg.classList.toggle('interactive', !!view.interactive);
    // Animate the piece of a new last move along its path.
    const to = lastPath[lastPath.length - 1];
    const key = to ? `${lastPath.join('-')}@${view.ply ?? ''}` : null;
    if (view.animate && key && key !== this.prevLast && view.board[to] && this.prevLast !== null) {
      const piece = this.squares[to].querySelector('.piece');
      if (piece.animate) {
        const b = this.pos(to);
        const frames = lastPath.map((sq) => {
          const a = this.pos(sq);
          return { transform: `translate(${a.x - b.x + this.cell / 2}px, ${a.y - b.y + this.cell / 2}px)` };
        });
        piece.animate(frames, { duration: Math.min(600, 180 * (lastPath.length - 1)), easing: 'ease-in-out' });
      }
    }
    this.prevLast = key || '';
  }

  /** The square under the pointer (null on a light square) and the pointer in SVG units. */
  squareAtPoint(clientX, clientY) {
    const at = svgPoint(this.svg, clientX, clientY);
    if (!at) return null;
    const { x, y } = at;
    let col = Math.floor(x / this.cell);
    let row = Math.floor(y / this.cell);
    if (this.flipped) { col = this.size - 1 - col; row = this.size - 1 - row; }
    return { cell: D.squareAt(this.size, col, row), x, y };
  }

  /** The ghost piece that follows the pointer while a piece is dragged. */
  dragGhost(sq) {
    const p = this.view.board[sq] || { color: 'white' };
    const r = this.cell * 0.42;
    return s('g', { class: `sq has-piece dragging ${p.color} ${p.king ? 'king' : 'man'}` },
      s('g', { class: 'piece' },
        s('circle', { class: 'body', r }),
        s('circle', { class: 'inner', r: r * 0.72 }),
        s('path', { class: 'crown', d: CROWN, transform: `scale(${r / 30})` })));
  }

  /**
   * The square an arrow key leads to, as seen on the screen: Left/Right the
   * next dark square in the same row, Up/Down the diagonal neighbour one row
   * up (preferring up-right) or down (preferring down-left).
   */
  neighbourInDirection(sq, [dx, dy]) {
    const a = this.pos(sq);
    const at = (gx, gy) => D.squares(this.size).find((q) => { const b = this.pos(q); return b.gx === gx && b.gy === gy; }) || null;
    if (dy === 0) return at(a.gx + 2 * dx, a.gy);
    const pref = dy < 0 ? 1 : -1;
    return at(a.gx + pref, a.gy + dy) || at(a.gx - pref, a.gy + dy);
  }
}

/** A small piece for the player bars (lost pieces, kings). */
export function miniPiece(colour, { king = false, cls = '' } = {}) {
  return s('svg', { class: `mini-piece ${colour} ${king ? 'king' : ''} ${cls}`, viewBox: '-12 -12 24 24', 'aria-hidden': 'true' },
    s('circle', { r: 10.5 }),
    king ? s('path', { class: 'crown', d: CROWN, transform: 'scale(0.36)' }) : null);
}
