// Pointer, click and keyboard input shared by the Mühle board (board.js) and
// the Dame board (dameboard.js): dragging a piece (a ghost follows the
// pointer, `drag-source` / `drag-over` classes, no click after a drag),
// clicking a cell, the keyboard (arrows move the focus, Enter / Space choose,
// Escape, Home / End) and the one focusable cell (roving tabindex). What
// differs between the boards comes in as options.

const ARROW_KEYS = {
  ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};

/** How far (px) the pointer must move before a press becomes a drag. */
const DRAG_START = 6;

/** The point of an SVG's user space under a pointer (null while it is not laid out). */
export function svgPoint(svg, clientX, clientY) {
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const { x, y } = pt.matrixTransform(ctm.inverse());
  return { x, y };
}

export class BoardInput {
  /**
   * @param {{svg: SVGSVGElement, view: object, handlers: object, dragLayer: SVGGElement}} board
   *   read when an event comes (the Dame board replaces its layers on a new size)
   * @param {{selector: string, dataKey: string, chooseHandler: string,
   *          cells: () => Object<string, SVGGElement>,
   *          cellAt: (clientX: number, clientY: number) => ({cell: string|null, x: number, y: number}|null),
   *          neighbour: (cell: string, dir: [number, number]) => string|null,
   *          pos: (cell: string) => {gx: number, gy: number},
   *          ghost: (cell: string) => SVGElement}} opts
   *   selector / dataKey: a cell's element and the data attribute naming it;
   *   chooseHandler: the handler told of a chosen cell (onPoint, onSquare);
   *   cellAt: the cell under the pointer and the pointer in SVG units;
   *   pos: a cell's place on the screen (Home / End go to the first / last);
   *   ghost: the piece drawn under the pointer while dragging.
   */
  constructor(board, opts) {
    this.board = board;
    this.opts = opts;
    this.focused = null;
    this.bind();
  }

  /** Makes a cell the one reached by Tab. */
  setFocusable(cell) {
    const cells = this.opts.cells();
    if (cells[this.focused]) cells[this.focused].setAttribute('tabindex', '-1');
    this.focused = cell;
    if (cells[cell]) cells[cell].setAttribute('tabindex', '0');
  }

  focus(cell) {
    this.setFocusable(cell);
    this.opts.cells()[cell].focus();
  }

  cellOf(target) {
    const g = target.closest && target.closest(this.opts.selector);
    return g ? g.dataset[this.opts.dataKey] : null;
  }

  choose(cell) {
    this.board.handlers[this.opts.chooseHandler]?.(cell);
  }

  /** The first (Home) or last (End) cell on the screen, row by row. */
  edgeCell(last) {
    const { pos } = this.opts;
    const byScreen = Object.keys(this.opts.cells())
      .sort((a, b) => (pos(a).gy - pos(b).gy) || (pos(a).gx - pos(b).gx));
    return last ? byScreen[byScreen.length - 1] : byScreen[0];
  }

  bind() {
    const { board, opts } = this;
    const { svg } = board;
    const markDragOver = (cell) => {
      for (const [c, g] of Object.entries(opts.cells())) g.classList.toggle('drag-over', cell !== null && c === cell);
    };
    let drag = null;
    let suppressClick = false;
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      const cell = this.cellOf(ev.target);
      if (!cell || !board.view.interactive) return;
      if (!board.handlers.canDrag || !board.handlers.canDrag(cell)) return;
      drag = { cell, x0: ev.clientX, y0: ev.clientY, moved: false, id: ev.pointerId, ghost: null };
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      if (!drag.moved && Math.hypot(ev.clientX - drag.x0, ev.clientY - drag.y0) < DRAG_START) return;
      if (!drag.moved) {
        drag.moved = true;
        try { svg.setPointerCapture(ev.pointerId); } catch { /* ignore */ }
        drag.ghost = opts.ghost(drag.cell);
        board.dragLayer.append(drag.ghost);
        opts.cells()[drag.cell].classList.add('drag-source');
        board.handlers.onDragStart?.(drag.cell);
      }
      const n = opts.cellAt(ev.clientX, ev.clientY);
      if (n) drag.ghost.setAttribute('transform', `translate(${n.x},${n.y})`);
      markDragOver(n ? n.cell : null);
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
      opts.cells()[d.cell]?.classList.remove('drag-source');
      for (const g of Object.values(opts.cells())) g.classList.remove('drag-over');
      const n = cancel ? null : opts.cellAt(ev.clientX, ev.clientY);
      if (n && n.cell && n.cell !== d.cell) board.handlers.onDrag?.(d.cell, n.cell);
      else board.handlers.onDragCancel?.(d.cell);
    };
    svg.addEventListener('pointerup', (ev) => endDrag(ev, false));
    svg.addEventListener('pointercancel', (ev) => endDrag(ev, true));
    svg.addEventListener('click', (ev) => {
      if (suppressClick) return;
      const cell = this.cellOf(ev.target);
      if (!cell) return;
      this.setFocusable(cell);
      this.choose(cell);
    });
    svg.addEventListener('keydown', (ev) => {
      const cell = this.cellOf(ev.target);
      if (!cell) return;
      if (ARROW_KEYS[ev.key]) {
        ev.preventDefault();
        ev.stopPropagation();
        const q = opts.neighbour(cell, ARROW_KEYS[ev.key]);
        if (q) this.focus(q);
      } else if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        ev.stopPropagation();
        this.choose(cell);
      } else if (ev.key === 'Escape') {
        board.handlers.onEscape?.();
      } else if (ev.key === 'Home' || ev.key === 'End') {
        ev.preventDefault();
        ev.stopPropagation();
        this.focus(this.edgeCell(ev.key === 'End'));
      }
    });
    svg.addEventListener('focusin', (ev) => {
      const cell = this.cellOf(ev.target);
      if (cell) this.setFocusable(cell);
    });
  }
}
