// The analysis of a whole game on the game page of a finished (or
// imported) game: a button starts it on the server (POST
// /api/games/{id}/analysis), a progress bar follows it, then an
// evaluation graph (White's expected score over the plies; a click shows
// that position), the marked moves with the better move, and a summary per
// player.

import { h, s, mount, toast } from '../dom.js';
import { t, colorName, errorText, fmtNumber } from '../i18n.js';
import { api } from '../api.js';

const POLL_MS = 700;
const W = 600;
const H = 120;
const MARK_SIGNS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export class WholeAnalysis {
  /**
   * `view`: the game page — `id`, `setView(ply)`, `moveNumber(ply)`,
   * `shownPly()`.
   */
  constructor(view) {
    this.view = view;
    this.data = null;
    this.timer = null;
    this.loadedFor = '';
    this.el = h('div', { class: 'card whole-analysis', id: 'whole-analysis', hidden: true });
  }

  /** Called on every update of the page with the game's state. */
  render(st) {
    const show = !!st && (st.status === 'over' || st.kind === 'imported');
    this.el.hidden = !show;
    if (!show) return;
    const key = `${this.view.id}|${st.moves.length}`;
    if (this.loadedFor !== key) {
      this.loadedFor = key;
      this.poll(false);
    }
    this.draw();
  }

  async start() {
    try {
      this.data = await api.startGameAnalysis(this.view.id);
      this.draw();
      this.schedule();
    } catch (e) {
      toast(errorText(e), 'error');
    }
  }

  schedule() {
    clearTimeout(this.timer);
    if (this.data && this.data.status === 'running' && this.el.isConnected) {
      this.timer = setTimeout(() => this.poll(true), POLL_MS);
    }
  }

  async poll(again) {
    try {
      this.data = await api.gameAnalysis(this.view.id);
      this.draw();
      if (again || this.data.status === 'running') this.schedule();
    } catch {
      // Shown again at the next update.
    }
  }

  draw() {
    const d = this.data;
    const shown = this.view.shownPly();
    const key = JSON.stringify([d && d.status, d && d.done, shown, document.documentElement.lang]);
    if (this.el.dataset.key === key) return;
    this.el.dataset.key = key;
    const title = h('h2', { class: 'section-title', text: t('whole.title') });
    if (!d || d.status === 'none' || d.status === 'stopped') {
      mount(this.el, title,
        d && d.status === 'stopped' ? h('p', { class: 'small muted', text: t('whole.stopped', { done: d.done, total: d.total }) }) : null,
        h('button', { type: 'button', class: 'btn primary', id: 'whole-start', text: t('whole.start'), onclick: () => this.start() }));
      return;
    }
    const parts = [title];
    if (d.status === 'running') {
      const pct = Math.round((100 * d.done) / Math.max(1, d.total));
      parts.push(h('div', { class: 'whole-progress', id: 'whole-progress' },
        h('progress', { max: d.total, value: d.done, 'aria-label': t('whole.progress', { done: d.done, total: d.total }) }),
        h('span', { class: 'small', text: t('whole.progress', { done: d.done, total: d.total }) + ` (${pct} %)` })));
    }
    if (d.positions.length > 1) parts.push(this.graph(d, shown));
    if (d.status === 'done') parts.push(this.summary(d), this.marks(d));
    mount(this.el, ...parts);
  }

  /** The evaluation graph: one point per position, White's expected score (0–100). */
  graph(d, shown) {
    const n = Math.max(1, d.total - 1);
    const x = (ply) => (ply / n) * W;
    const y = (e) => H - (e / 100) * H;
    const pts = d.positions.map((p) => `${x(p.ply).toFixed(1)},${y(p.white_expected).toFixed(1)}`);
    const area = `0,${H} ${pts.join(' ')} ${x(d.positions[d.positions.length - 1].ply).toFixed(1)},${H}`;
    const marked = d.moves.filter((m) => m.mark);
    const svg = s('svg', {
      viewBox: `0 0 ${W} ${H}`, class: 'whole-graph', id: 'whole-graph', role: 'img',
      'aria-label': t('whole.graph'), preserveAspectRatio: 'none',
    },
    s('rect', { x: 0, y: 0, width: W, height: H, class: 'whole-bg' }),
    s('polygon', { points: area, class: 'whole-area' }),
    s('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'whole-mid' }),
    s('polyline', { points: pts.join(' '), class: 'whole-line' }),
    s('line', { x1: x(shown), y1: 0, x2: x(shown), y2: H, class: 'whole-cursor', id: 'whole-cursor' }),
    ...marked.map((m) => s('circle', {
      cx: x(m.ply + 1), cy: y(d.positions[m.ply + 1].white_expected), r: 4,
      class: `whole-dot ${m.mark}`, 'data-ply': m.ply + 1,
    })),
    ...d.positions.map((p) => s('rect', {
      x: x(p.ply) - W / n / 2, y: 0, width: W / n, height: H, class: 'whole-hit',
      'data-ply': p.ply, onclick: () => this.view.setView(p.ply),
    })));
    svg.dataset.points = String(d.positions.length);
    return svg;
  }

  summary(d) {
    const row = (c) => {
      const m = d.summary[c];
      return h('tr', {},
        h('th', { scope: 'row', text: colorName(c) }),
        h('td', { text: String(m.inaccuracies) }),
        h('td', { text: String(m.mistakes) }),
        h('td', { text: String(m.blunders) }),
        h('td', { text: fmtNumber(m.average_loss, { maximumFractionDigits: 1 }) }));
    };
    return h('table', { class: 'whole-summary', id: 'whole-summary' },
      h('thead', {}, h('tr', {},
        h('th', {}),
        h('th', { scope: 'col', text: t('whole.inaccuracies') }),
        h('th', { scope: 'col', text: t('whole.mistakes') }),
        h('th', { scope: 'col', text: t('whole.blunders') }),
        h('th', { scope: 'col', text: t('whole.averageLoss') }))),
      h('tbody', {}, row('white'), row('black')));
  }

  marks(d) {
    const marked = d.moves.filter((m) => m.mark);
    if (!marked.length) return h('p', { class: 'small', id: 'whole-none', text: t('whole.none') });
    return h('ul', { class: 'whole-marks', id: 'whole-marks' }, ...marked.map((m) => h('li', { class: m.mark, 'data-ply': m.ply },
      h('button', {
        type: 'button', class: `move ${m.mark}`, onclick: () => this.view.setView(m.ply + 1),
        text: `${this.view.moveNumber(m.ply)} ${m.move}${MARK_SIGNS[m.mark]}`,
      }),
      h('span', { text: ` ${t(`whole.mark.${m.mark}`, { color: colorName(m.mover) })}` }),
      m.best ? h('span', { class: 'whole-best', text: ` ${t('whole.better', { move: m.best })}` }) : null)));
  }
}
