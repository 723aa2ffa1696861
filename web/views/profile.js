// A player's public page (/players/NAME): the ratings in each pool with a
// graph of their history (SVG drawn here), and the player's finished games,
// filterable by game and result, with paging. And the leaderboards
// (/leaderboard?pool=POOL): the best players of each rating pool.

import { h, s, mount } from '../dom.js';
import { t, tn, fmtDate, fmtNumber, endText } from '../i18n.js';
import { api } from '../api.js';
import { account } from '../account.js';
import { gameName } from '../rules.js';
import { gameNames } from '../catalogue.js';
import { rulesLabelOf, ruleOptionsOf } from '../games/index.js';
import { playerLabel, outcome } from './account.js';

const PAGE = 20;
const RESULTS = ['all', 'win', 'loss', 'draw'];
const OUTCOME_OF = { win: 'won', loss: 'lost', draw: 'drawn' };

/** A rating pool's name in words: "Mühle", "Mühle · Lasker", "Dame 100". */
export function poolLabel(pool) {
  const [game, preset] = pool.split(':');
  if (!preset) return gameName(game);
  const label = rulesLabelOf(game, preset);
  const name = gameName(game);
  return label.startsWith(name) ? label : `${name} · ${label}`;
}

/** A rating as shown: rounded, with "?" while provisional (as on lichess). */
export function ratingText(r) {
  return `${fmtNumber(Math.round(r.rating))}${r.provisional ? '?' : ''}`;
}

/** The link to a player's page (for names that are accounts'). */
export function playerLink(name, attrs = {}) {
  return h('a', { href: `/players/${encodeURIComponent(name)}`, 'data-link': true, class: 'player-link', ...attrs, text: name });
}

/**
 * The rating graph of one pool: `points` [{at, rating, rd}] oldest first,
 * as an SVG line over time with the deviation as a band; every game a dot
 * with its rating as a tooltip.
 */
export function ratingGraph(points, label) {
  const W = 640, H = 220, L = 48, R = 12, T = 12, B = 28;
  const times = points.map((p) => Date.parse(p.at));
  const lo = Math.min(...points.map((p) => p.rating - p.rd / 2));
  const hi = Math.max(...points.map((p) => p.rating + p.rd / 2));
  const yMin = Math.floor(lo / 50) * 50, yMax = Math.max(Math.ceil(hi / 50) * 50, yMin + 100);
  const t0 = Math.min(...times), t1 = Math.max(...times);
  const x = (i) => (t1 > t0 ? L + ((times[i] - t0) / (t1 - t0)) * (W - L - R) : L + (points.length > 1 ? (i / (points.length - 1)) : 0.5) * (W - L - R));
  const y = (v) => T + (1 - (v - yMin) / (yMax - yMin)) * (H - T - B);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  const band = [...points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating + p.rd / 2).toFixed(1)}`),
    ...points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating - p.rd / 2).toFixed(1)}`).reverse()].join(' ');
  const ticks = [];
  const step = Math.max(50, Math.ceil((yMax - yMin) / 4 / 50) * 50);
  for (let v = yMin; v <= yMax; v += step) {
    ticks.push(s('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }),
      s('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis', text: fmtNumber(v) }));
  }
  const last = points[points.length - 1];
  return s('svg', { class: 'rating-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('profile.graph', { pool: label, rating: fmtNumber(Math.round(last.rating)), n: points.length }) },
    ...ticks,
    points.length > 1 ? s('polygon', { points: band, class: 'band' }) : null,
    s('polyline', { points: line, class: 'line', fill: 'none' }),
    ...points.map((p, i) => s('circle', { cx: x(i), cy: y(p.rating), r: 3.5, class: 'dot', 'data-game': p.game },
      s('title', { text: `${fmtNumber(Math.round(p.rating))} · ${fmtDate(p.at)} · ${t('game.title', { id: p.game })}` }))),
    s('text', { x: L, y: H - 8, class: 'axis', text: fmtDate(points[0].at) }),
    points.length > 1 ? s('text', { x: W - R, y: H - 8, 'text-anchor': 'end', class: 'axis', text: fmtDate(last.at) }) : null);
}

export class ProfileView {
  constructor(root, { name }) {
    this.root = root;
    this.name = name;
    this.data = null;
    this.games = null;
    this.error = null;
    const q = new URLSearchParams(location.search);
    this.filterGame = q.get('game') || 'all';
    this.filterResult = RESULTS.includes(q.get('result')) ? q.get('result') : 'all';
    this.offset = Math.max(0, Number(q.get('offset')) || 0);
    this.pool = null;
    this.render();
    this.load();
  }

  destroy() {}

  relabel() { this.render(); }

  async load() {
    try {
      this.data = await api.playerRatings(this.name);
      const pools = Object.keys(this.data.ratings);
      if (!this.pool || !pools.includes(this.pool)) {
        this.pool = pools.sort((a, b) => this.data.ratings[b].games - this.data.ratings[a].games)[0] || null;
      }
      this.error = null;
    } catch (e) {
      this.error = e.code === 'not_found' ? t('profile.notFound', { name: this.name })
        : e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message });
      this.render();
      return;
    }
    await this.loadGames();
  }

  async loadGames() {
    const q = new URLSearchParams({ limit: PAGE, offset: this.offset });
    if (this.filterGame !== 'all') q.set('game', this.filterGame);
    if (this.filterResult !== 'all') q.set('result', this.filterResult);
    // An answer to an older request (the filters changed while it came) is dropped.
    const asked = (this.asked = (this.asked || 0) + 1);
    let games;
    try {
      games = await api.playerGames(this.name, q.toString());
    } catch (e) {
      games = { games: [], total: 0, error: e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }) };
    }
    if (asked !== this.asked) return;
    this.games = games;
    const url = new URLSearchParams();
    if (this.filterGame !== 'all') url.set('game', this.filterGame);
    if (this.filterResult !== 'all') url.set('result', this.filterResult);
    if (this.offset) url.set('offset', this.offset);
    const search = url.toString();
    history.replaceState(null, '', `/players/${encodeURIComponent(this.name)}${search ? `?${search}` : ''}`);
    this.render();
  }

  filter(which, value) {
    this[which] = value;
    this.offset = 0;
    this.loadGames().then(() => this.root.querySelector(which === 'filterGame' ? '#profile-filter-game' : '#profile-filter-result')?.focus());
  }

  ratingsCard() {
    const ratings = this.data.ratings;
    const pools = Object.keys(ratings);
    if (!pools.length) {
      return h('section', { class: 'card', id: 'profile-ratings', 'aria-labelledby': 'profile-ratings-h' },
        h('h2', { id: 'profile-ratings-h', text: t('profile.ratings') }),
        h('p', { class: 'muted', id: 'profile-no-ratings', text: t('profile.noRatings') }));
    }
    const points = this.data.history.filter((p) => p.pool === this.pool);
    return h('section', { class: 'card', id: 'profile-ratings', 'aria-labelledby': 'profile-ratings-h' },
      h('h2', { id: 'profile-ratings-h', text: t('profile.ratings') }),
      h('table', { class: 'archive-table ratings-table' },
        h('thead', {}, h('tr', {}, ...['pool', 'rating', 'rd', 'games'].map((k) => h('th', { scope: 'col', text: t(`profile.col.${k}`) })))),
        h('tbody', {}, ...pools.map((p) => {
          const r = ratings[p];
          return h('tr', { 'data-pool': p, class: p === this.pool ? 'current' : null },
            h('td', { 'data-label': t('profile.col.pool') },
              h('button', { type: 'button', class: 'linkish', 'aria-pressed': String(p === this.pool), onclick: () => { this.pool = p; this.render(); }, text: poolLabel(p) })),
            h('td', { 'data-label': t('profile.col.rating'), class: 'rating', title: r.provisional ? t('rating.provisional') : null, text: ratingText(r) }),
            h('td', { 'data-label': t('profile.col.rd'), text: fmtNumber(r.rd) }),
            h('td', { 'data-label': t('profile.col.games'), text: fmtNumber(r.games) }),
            h('td', {}, h('a', { href: `/leaderboard?pool=${encodeURIComponent(p)}`, 'data-link': true, class: 'small', text: t('leaderboard.title') })));
        }))),
      points.length ? h('figure', { class: 'rating-figure' },
        ratingGraph(points, poolLabel(this.pool)),
        h('figcaption', { class: 'small muted', text: t('profile.graphCaption', { pool: poolLabel(this.pool) }) })) : null);
  }

  gamesCard() {
    const games = ['all', ...gameNames()];
    const g = this.games;
    const filters = h('div', { class: 'filters' },
      h('div', { class: 'field' },
        h('label', { for: 'profile-filter-game', text: t('account.filter.game') }),
        h('select', { id: 'profile-filter-game', onchange: (e) => this.filter('filterGame', e.target.value) },
          ...games.map((x) => h('option', { value: x, selected: x === this.filterGame, text: x === 'all' ? t('account.filter.all') : gameName(x) })))),
      h('div', { class: 'field' },
        h('label', { for: 'profile-filter-result', text: t('account.filter.result') }),
        h('select', { id: 'profile-filter-result', onchange: (e) => this.filter('filterResult', e.target.value) },
          ...RESULTS.map((r) => h('option', { value: r, selected: r === this.filterResult, text: t(r === 'all' ? 'account.filter.all' : `account.outcome.${OUTCOME_OF[r]}`) })))));
    let body;
    if (!g) body = h('p', { class: 'muted', text: '…' });
    else if (g.error) body = h('p', { class: 'error', text: g.error });
    else if (!g.games.length) body = h('p', { class: 'muted', id: 'profile-games-empty', text: t('account.games.noneFiltered') });
    else {
      body = h('table', { class: 'archive-table profile-games' },
        h('thead', {}, h('tr', {}, ...['game', 'players', 'rules', 'result', 'date'].map((k) => h('th', { scope: 'col', text: t(`archive.${k}`) })))),
        h('tbody', {}, ...g.games.map((x) => {
          const oc = outcome(x);
          const side = (c) => (x[`${c}_account`] && x[c] ? playerLink(x[c]) : h('span', { text: playerLabel(x[c], c) }));
          return h('tr', { 'data-id': x.id, 'data-outcome': oc || 'none' },
            h('td', { 'data-label': t('archive.game') },
              h('a', { href: `/game/${x.id}`, 'data-link': true, class: 'game-link', text: t('game.title', { id: x.id }) })),
            h('td', { 'data-label': t('archive.players'), class: 'players' }, side('white'), h('span', { class: 'vs', text: ' – ' }), side('black'),
              x.rated ? h('span', { class: 'badge rated', text: t('rating.rated') }) : null),
            h('td', { 'data-label': t('archive.rules'), text: rulesLabelOf(x.game || 'muehle', x.rules) }),
            h('td', { 'data-label': t('archive.result'), class: 'result over' },
              oc ? h('strong', { class: 'outcome', text: `${t(`account.outcome.${oc}`)} ` }) : null,
              h('span', { text: endText({ status: 'over', result: x.result, reason: x.reason, rule_options: ruleOptionsOf(x.game, x.rules) }) })),
            h('td', { 'data-label': t('archive.date'), text: fmtDate(x.created_at) }));
        })));
    }
    const pager = g && g.total > PAGE ? h('div', { class: 'row pager' },
      h('button', { class: 'btn', type: 'button', id: 'profile-prev', disabled: this.offset === 0, onclick: () => { this.offset = Math.max(0, this.offset - PAGE); this.loadGames(); }, text: t('archive.prev') }),
      h('span', { class: 'muted', text: t('archive.range', { from: this.offset + 1, to: Math.min(this.offset + PAGE, g.total), total: g.total }) }),
      h('button', { class: 'btn', type: 'button', id: 'profile-next', disabled: this.offset + PAGE >= g.total, onclick: () => { this.offset += PAGE; this.loadGames(); }, text: t('archive.next') })) : null;
    return h('section', { class: 'card', id: 'profile-games', 'aria-labelledby': 'profile-games-h' },
      h('h2', { id: 'profile-games-h', text: t('profile.games') }),
      g && g.total !== undefined ? h('p', { class: 'muted small', text: tnGames(g.total) }) : null,
      filters, body, pager);
  }

  render() {
    document.title = `${this.data ? this.data.name : this.name} – brett`;
    if (this.error) {
      mount(this.root, h('div', { class: 'card' }, h('h1', { text: this.name }), h('p', { class: 'error', id: 'profile-error', text: this.error })));
      return;
    }
    if (!this.data) { mount(this.root, h('div', { class: 'card' }, h('p', { class: 'muted', text: '…' }))); return; }
    const me = account();
    const own = me && me.name.toLowerCase() === this.data.name.toLowerCase();
    mount(this.root, h('div', { class: 'profile-page' },
      h('section', { class: 'card profile-head', 'aria-labelledby': 'profile-h' },
        h('h1', { id: 'profile-h', text: this.data.name }),
        own ? h('p', {}, h('a', { href: '/account', 'data-link': true, id: 'profile-settings', text: t('profile.settings') })) : null),
      this.ratingsCard(),
      this.gamesCard()));
  }
}

function tnGames(n) {
  return tn('profile.gamesCount', n);
}

/** The leaderboard of one pool, with a choice of pool. */
export class LeaderboardView {
  constructor(root) {
    this.root = root;
    const q = new URLSearchParams(location.search);
    this.pool = q.get('pool') || 'muehle';
    this.data = null;
    this.error = null;
    this.pools = null;
    this.render();
    this.load();
  }

  destroy() {}

  relabel() { this.render(); }

  async load() {
    // An answer to an older request (another pool was chosen while it came) is dropped.
    const asked = (this.asked = (this.asked || 0) + 1);
    if (!this.pools) this.pools = await api.ratingPools().then((r) => r.pools, () => null);
    let data = null;
    let error = null;
    try {
      data = await api.leaderboard(this.pool);
    } catch (e) {
      error = e.code === 'not_found' ? t('leaderboard.noPool') : e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message });
    }
    if (asked !== this.asked) return;
    this.data = data;
    this.error = error;
    this.render();
  }

  choose(pool) {
    this.pool = pool;
    history.replaceState(null, '', `/leaderboard?pool=${encodeURIComponent(pool)}`);
    this.load().then(() => this.root.querySelector('#leaderboard-pool')?.focus());
  }

  render() {
    document.title = `${t('leaderboard.title')} – brett`;
    const pools = this.pools && this.pools.includes(this.pool) ? this.pools : [...(this.pools || []), this.pool];
    const pick = h('div', { class: 'field' },
      h('label', { for: 'leaderboard-pool', text: t('leaderboard.pool') }),
      h('select', { id: 'leaderboard-pool', onchange: (e) => this.choose(e.target.value) },
        ...pools.map((p) => h('option', { value: p, selected: p === this.pool, text: poolLabel(p) }))));
    let body;
    if (this.error) body = h('p', { class: 'error', text: this.error });
    else if (!this.data) body = h('p', { class: 'muted', text: '…' });
    else if (!this.data.players.length) body = h('p', { class: 'muted', id: 'leaderboard-empty', text: t('leaderboard.empty') });
    else {
      body = h('table', { class: 'archive-table leaderboard' },
        h('thead', {}, h('tr', {}, ...['rank', 'player', 'rating', 'games'].map((k) => h('th', { scope: 'col', text: t(`leaderboard.col.${k}`) })))),
        h('tbody', {}, ...this.data.players.map((p) => h('tr', { 'data-name': p.name },
          h('td', { 'data-label': t('leaderboard.col.rank'), text: fmtNumber(p.rank) }),
          h('td', { 'data-label': t('leaderboard.col.player') }, playerLink(p.name)),
          h('td', { 'data-label': t('leaderboard.col.rating'), class: 'rating', title: p.provisional ? t('rating.provisional') : null, text: ratingText(p) }),
          h('td', { 'data-label': t('leaderboard.col.games'), text: fmtNumber(p.games) })))));
    }
    mount(this.root, h('div', { class: 'leaderboard-page' },
      h('section', { class: 'card', 'aria-labelledby': 'leaderboard-h' },
        h('h1', { id: 'leaderboard-h', text: t('leaderboard.title') }),
        h('p', { class: 'muted', text: t('leaderboard.text') }),
        pick, body)));
  }
}

