// Archive: the finished games (or those being played, or all), by game;
// number, players (accounts' names link to their pages), rules, result
// with reason, date; paging, open to replay, export the record, import a
// record.

import { h, mount, toast, replacePart } from '../dom.js';
import { t, fmtDate, endText, colorName, errorText } from '../i18n.js';
import { api } from '../api.js';
import { navigate } from '../nav.js';
import { gameName } from '../rules.js';
import { controlText, clockIcon } from '../clock.js';
import { rulesLabelOf, ruleOptionsOf } from '../games/index.js';
import { recordFileName, gameNames } from '../catalogue.js';
import { playerLink } from './profile.js';
import { copyRecordOf } from '../record.js';

const STATUSES = ['finished', 'ongoing', 'all'];
const RESULTS = ['all', '1-0', '0-1', '1/2-1/2'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const PAGE = 20;

export class ArchiveView {
  constructor(root) {
    this.root = root;
    const q = new URLSearchParams(location.search);
    this.offset = Math.max(0, Number(q.get('offset')) || 0);
    this.status = STATUSES.includes(q.get('status')) ? q.get('status') : 'finished';
    this.game = gameNames().includes(q.get('game')) ? q.get('game') : 'all';
    this.outcome = RESULTS.includes(q.get('result')) ? q.get('result') : 'all';
    this.player = (q.get('player') || '').slice(0, 40);
    this.from = DAY.test(q.get('from') || '') ? q.get('from') : '';
    this.to = DAY.test(q.get('to') || '') ? q.get('to') : '';
    this.data = null;
    this.error = null;
    this.importText = '';
    // Why the import did not happen: {key} of a text, or {error} of the server.
    this.importError = null;
    this.render();
    this.load();
  }

  destroy() {}

  relabel() { this.render(); }

  /** Loads the page the filters ask for; an answer to an older request (the filters changed while it came) is dropped. */
  async load() {
    const asked = (this.asked = (this.asked || 0) + 1);
    let data = null;
    let error = null;
    try {
      data = await api.archive(PAGE, this.offset, this.query(false));
    } catch (e) {
      error = e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message });
    }
    if (asked !== this.asked) return;
    if (data) this.data = data;
    this.error = error;
    this.drawList();
  }

  /**
   * Redraws only the list of games and its pager: the filters and the import
   * form keep what is typed in them and their focus while the list arrives.
   */
  drawList() {
    // The pager's button that was used keeps the focus; at the first or last
    // page, where it is disabled, the other one takes it.
    const focused = replacePart(this.root, '#archive-list', this.list())?.id;
    if (!focused) return;
    const other = { 'archive-prev': 'archive-next', 'archive-next': 'archive-prev' }[focused];
    const target = [focused, other].map((id) => id && this.root.querySelector(`#${id}`)).find((el) => el && !el.disabled);
    target?.focus();
  }

  /** The filters as query parameters (`&status=…&game=…`); for the page's address, with the offset and without the defaults. */
  query(address) {
    const q = new URLSearchParams();
    if (!address || this.status !== 'finished') q.set('status', this.status);
    if (this.game !== 'all') q.set('game', this.game);
    if (this.outcome !== 'all') q.set('result', this.outcome);
    if (this.player.trim()) q.set('player', this.player.trim());
    if (this.from) q.set('from', this.from);
    if (this.to) q.set('to', this.to);
    if (address && this.offset) q.set('offset', this.offset);
    const text = q.toString();
    return address ? text : (text ? `&${text}` : '');
  }

  page(offset) {
    this.offset = Math.max(0, offset);
    const q = this.query(true);
    history.replaceState(null, '', q ? `/archive?${q}` : '/archive');
    this.load();
  }

  filter(which, value) {
    this[which] = value;
    this.page(0);
  }

  filters() {
    return h('div', { class: 'filters' },
      h('div', { class: 'field' },
        h('label', { for: 'archive-status', text: t('archive.show') }),
        h('select', { id: 'archive-status', onchange: (e) => this.filter('status', e.target.value) },
          ...STATUSES.map((x) => h('option', { value: x, selected: x === this.status, text: t(`archive.status.${x}`) })))),
      h('div', { class: 'field' },
        h('label', { for: 'archive-game', text: t('account.filter.game') }),
        h('select', { id: 'archive-game', onchange: (e) => this.filter('game', e.target.value) },
          ...['all', ...gameNames()].map((x) => h('option', { value: x, selected: x === this.game, text: x === 'all' ? t('account.filter.all') : gameName(x) })))),
      h('div', { class: 'field' },
        h('label', { for: 'archive-result', text: t('account.filter.result') }),
        h('select', { id: 'archive-result', onchange: (e) => this.filter('outcome', e.target.value) },
          ...RESULTS.map((x) => h('option', { value: x, selected: x === this.outcome, text: x === 'all' ? t('account.filter.all') : t(`result.${x}`) })))),
      h('form', { class: 'field', role: 'search', onsubmit: (e) => { e.preventDefault(); this.filter('player', this.root.querySelector('#archive-player').value); } },
        h('label', { for: 'archive-player', text: t('archive.player') }),
        h('input', { id: 'archive-player', type: 'search', maxlength: 40, value: this.player, placeholder: t('archive.player.placeholder'), onchange: (e) => this.filter('player', e.target.value) })),
      h('div', { class: 'field' },
        h('label', { for: 'archive-from', text: t('archive.from') }),
        h('input', { id: 'archive-from', type: 'date', value: this.from, onchange: (e) => this.filter('from', e.target.value) })),
      h('div', { class: 'field' },
        h('label', { for: 'archive-to', text: t('archive.to') }),
        h('input', { id: 'archive-to', type: 'date', value: this.to, onchange: (e) => this.filter('to', e.target.value) })));
  }

  result(g) {
    if (g.status !== 'over') return t('archive.ongoing');
    const options = ruleOptionsOf(g.game, g.rules);
    const text = endText({ status: 'over', result: g.result, reason: g.reason, rule_options: options });
    return text;
  }

  /**
   * The rules cell: the game's name and its rules' label ("Mühle ·
   * Standard"), or the label alone where it names the game ("Dame 8×8").
   */
  rulesCell(g) {
    const game = g.game || 'muehle';
    const label = rulesLabelOf(game, g.rules);
    const name = gameName(game);
    if (label.startsWith(name)) return [h('strong', { class: 'game-name', text: label })];
    return [h('strong', { class: 'game-name', text: name }), h('span', { text: ` · ${label}` })];
  }

  players(g) {
    const name = (n, c) => {
      const m = /^Computer \(level (\d+)\)$/.exec(n || '');
      if (m) return t('game.computer', { n: m[1] });
      if (n === '(deleted player)') return t('account.deletedPlayer');
      return n || colorName(c);
    };
    const side = (c) => (g[`${c}_account`] && g[c] ? playerLink(g[c]) : h('span', { text: name(g[c], c) }));
    return [h('span', { class: 'pw' }, h('span', { class: 'swatch white', 'aria-hidden': 'true' }), side('white')),
      h('span', { class: 'vs', text: ' – ' }),
      h('span', { class: 'pb' }, h('span', { class: 'swatch black', 'aria-hidden': 'true' }), side('black'))];
  }

  /** The games the filters ask for (a page of them) and the pager. */
  list() {
    let body;
    if (this.error) body = h('p', { class: 'error', text: this.error });
    else if (!this.data) body = h('p', { class: 'muted', text: '…' });
    else if (this.data.games.length === 0) body = h('p', { class: 'muted', id: 'archive-empty', text: t(this.query(true) ? 'account.games.noneFiltered' : 'archive.empty') });
    else {
      body = h('table', { class: 'archive-table' },
        h('thead', {}, h('tr', {},
          ...['game', 'players', 'rules', 'result', 'moves', 'date'].map((k) => h('th', { scope: 'col', text: t(`archive.${k}`) })),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden', text: t('archive.export') })))),
        h('tbody', {}, ...this.data.games.map((g) => h('tr', { 'data-id': g.id },
          h('td', { 'data-label': t('archive.game') },
            h('a', { href: `/game/${g.id}`, 'data-link': true, class: 'game-link', text: t('game.title', { id: g.id }) }),
            h('span', { class: 'kind muted small', text: t(`kind.${g.kind}.short`) === `kind.${g.kind}.short` ? t(`kind.${g.kind}`) : t(`kind.${g.kind}.short`) })),
          h('td', { 'data-label': t('archive.players'), class: 'players' }, ...this.players(g)),
          h('td', { 'data-label': t('archive.rules'), class: 'rules-cell', 'data-game': g.game || 'muehle' },
            ...this.rulesCell(g),
            g.time_control && g.time_control !== '-' ? h('span', { class: 'tc small', title: t('tc.label') }, ' · ', clockIcon(), controlText(g.time_control)) : null),
          h('td', { 'data-label': t('archive.result'), class: `result ${g.status}` },
            g.status === 'over' && g.result ? h('strong', { class: 'score', text: g.result.replace('1/2-1/2', '½–½') }) : null,
            h('span', { text: ` ${this.result(g)}` })),
          h('td', { 'data-label': t('archive.moves'), class: 'num', text: String(g.ply ?? '') }),
          h('td', { 'data-label': t('archive.date'), text: fmtDate(g.created_at) }),
          h('td', { class: 'actions' },
            h('a', { class: 'btn small', href: `/api/games/${g.id}/record`, download: recordFileName(g.game || 'muehle', g.id), text: t('archive.export') }),
            h('button', {
              class: 'btn small', type: 'button', 'data-copy-record': g.id, text: t('game.copyRecord'),
              onclick: () => copyRecordOf(g.id).catch((e) => toast(errorText(e), 'error')),
            }))))));
    }
    const total = this.data ? this.data.total : 0;
    const pager = this.data && total > 0 ? h('div', { class: 'pager' },
      h('button', { class: 'btn', type: 'button', id: 'archive-prev', disabled: this.offset === 0, onclick: () => this.page(this.offset - PAGE), text: `← ${t('archive.prev')}` }),
      h('span', { class: 'muted', text: t('archive.range', { from: this.offset + 1, to: Math.min(total, this.offset + PAGE), total }) }),
      h('button', { class: 'btn', type: 'button', id: 'archive-next', disabled: this.offset + PAGE >= total, onclick: () => this.page(this.offset + PAGE), text: `${t('archive.next')} →` })) : null;

    return h('div', { id: 'archive-list' }, body, pager);
  }

  render() {
    document.title = `${t('archive.title')} – brett`;
    const ta = h('textarea', {
      id: 'import-text', rows: 8, spellcheck: 'false',
      placeholder: '[White "Anna"]\n[Black "Ben"]\n[Rules "standard"]\n\n1. d6 f4 2. d2 b4 …\n\n(PDN: [GameType "20"] 1. 32-28 19-23 …)',
      oninput: (e) => {
        this.importText = e.target.value;
        if (this.importError) { this.importError = null; this.root.querySelector('#import-error')?.remove(); }
      },
    });
    ta.value = this.importText;
    const importForm = h('form', { class: 'card import', onsubmit: (e) => { e.preventDefault(); this.doImport(); } },
      h('h2', { text: t('archive.import') }),
      h('label', { for: 'import-text', text: t('archive.import.label') }),
      ta,
      this.importError ? h('p', { class: 'error', id: 'import-error', role: 'alert', text: this.importErrorText() }) : null,
      h('div', { class: 'row spread' },
        h('label', { class: 'btn file-pick', for: 'import-file' }, t('archive.import.file'),
          h('input', { id: 'import-file', type: 'file', accept: '.txt,.pdn,.pgn,text/plain', class: 'visually-hidden', onchange: (e) => this.readFile(e.target) })),
        h('button', { class: 'btn primary', type: 'submit', id: 'import-btn', text: t('archive.import.button') })));

    mount(this.root, h('div', { class: 'archive' },
      h('div', { class: 'card' },
        h('div', { class: 'row spread' }, h('h1', { text: t('archive.title') }),
          h('a', { href: '/leaderboard', 'data-link': true, id: 'archive-leaderboard', text: t('nav.leaderboard') })),
        this.filters(), this.list()),
      importForm));
  }

  /** The import's failure in words: the server's error (a bad record: which move, tag or line, and why) in the player's language. */
  importErrorText() {
    const { key, error } = this.importError;
    return key ? t(key) : t('archive.import.failed', { error: errorText(error) });
  }

  /** A record from a file: into the box, then imported. */
  async readFile(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > 4 * 1024 * 1024) {
      this.importError = { key: 'archive.import.tooBig' };
      this.render();
      return;
    }
    this.importText = await file.text();
    input.value = '';
    this.importError = null;
    await this.doImport();
  }

  async doImport() {
    const text = this.importText.trim();
    if (!text) {
      // Say why nothing happens, and where to put the record.
      this.importError = { key: 'archive.import.empty' };
      this.render();
      this.root.querySelector('#import-text')?.focus();
      return;
    }
    try {
      const res = await api.importRecord(text);
      toast(t('archive.import.done', { id: res.id }));
      this.importText = '';
      navigate(`/game/${res.id}`);
    } catch (e) {
      if (e.code === 'network') {
        toast(t('error.network'), 'error');
        return;
      }
      this.importError = { error: e };
      this.render();
      this.root.querySelector('#import-text')?.focus();
    }
  }
}
