// The account pages: log in, register, and the account itself (its games,
// filterable by game and result; change the password; log out; delete it).

import { h, mount, toast, confirmDialog, replacePart } from '../dom.js';
import { t, fmtDate, colorName, endText, LANGUAGES, setLang } from '../i18n.js';
import { api } from '../api.js';
import { navigate } from '../nav.js';
import { account, setAccount, loadAccount, accountErrorKey, onAccountChange } from '../account.js';
import { gameName } from '../rules.js';
import { rulesLabelOf, ruleOptionsOf } from '../games/index.js';
import { gameNames } from '../catalogue.js';

const NAME_RE = /^[\p{L}\p{N}_-]{3,20}$/u;
export const DELETED = '(deleted player)';

/** A player's name as shown: the computer and a deleted account in the page's language. */
export function playerLabel(n, c) {
  const m = /^Computer \(level (\d+)\)$/.exec(n || '');
  if (m) return t('game.computer', { n: m[1] });
  if (n === DELETED) return t('account.deletedPlayer');
  return n || colorName(c);
}

/** An error shown in a form: {key, params} or the server's own words. */
function errorLine(id, err) {
  if (!err) return null;
  return h('p', { class: 'error', id, role: 'alert', text: err.key ? t(err.key, err.params) : t('error.generic', { message: err.message }) });
}

function wordError(e) {
  const k = accountErrorKey(e);
  if (k) return k;
  if (e.code === 'bad_request') return { key: 'account.error.bad_request' };
  return { message: e.message };
}

function passwordField(id, label, autocomplete, value, oninput) {
  return h('div', { class: 'field' },
    h('label', { for: id, text: label }),
    h('input', { id, type: 'password', autocomplete, required: true, value, oninput: (e) => oninput(e.target.value) }));
}

/** Log in (`mode` 'login') or register ('register'). */
export class LoginView {
  constructor(root, { mode }) {
    this.root = root;
    this.mode = mode;
    this.name = '';
    this.password = '';
    this.error = null;
    this.busy = false;
    this.render();
  }

  relabel() { this.render(); }

  render() {
    const reg = this.mode === 'register';
    document.title = `${t(reg ? 'account.register' : 'account.login')} – brett`;
    const form = h('form', { class: 'card account-form', id: reg ? 'register-form' : 'login-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } },
      h('h1', { text: t(reg ? 'account.register' : 'account.login') }),
      h('p', { class: 'muted', text: t(reg ? 'account.register.text' : 'account.login.text') }),
      h('div', { class: 'field' },
        h('label', { for: 'account-name', text: t('account.name') }),
        h('input', {
          id: 'account-name', type: 'text', required: true, maxlength: 20, autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false',
          value: this.name, 'aria-describedby': reg ? 'name-rules' : null, oninput: (e) => { this.name = e.target.value; },
        }),
        reg ? h('p', { class: 'small muted', id: 'name-rules', text: t('account.name.rules') }) : null),
      passwordField('account-password', t('account.password'), reg ? 'new-password' : 'current-password', this.password, (v) => { this.password = v; }),
      reg ? h('p', { class: 'small muted', text: t('account.password.rules') }) : null,
      errorLine('account-error', this.error),
      h('div', { class: 'row' },
        h('button', { class: 'btn primary', type: 'submit', id: 'account-submit', disabled: this.busy, text: t(reg ? 'account.register' : 'account.login') })),
      h('p', { class: 'small' },
        h('a', { href: reg ? '/login' : '/register', 'data-link': true, text: t(reg ? 'account.haveAccount' : 'account.noAccount') })));
    mount(this.root, h('div', { class: 'account-page' }, form));
  }

  async submit() {
    if (this.busy) return;
    const reg = this.mode === 'register';
    const name = this.name.trim();
    if (reg && !NAME_RE.test(name)) this.error = { key: 'account.name.rules' };
    else if (reg && this.password.length < 8) this.error = { key: 'account.password.rules' };
    else this.error = null;
    if (this.error) {
      this.render();
      this.root.querySelector(this.error.key === 'account.name.rules' ? '#account-name' : '#account-password')?.focus();
      return;
    }
    this.busy = true;
    this.render();
    try {
      const res = reg ? await api.register(name, this.password) : await api.login(name, this.password);
      setAccount(res.account);
      toast(t(reg ? 'account.registered' : 'account.loggedIn', { name: res.account.name }));
      navigate('/account');
    } catch (e) {
      this.busy = false;
      this.error = wordError(e);
      this.render();
      this.root.querySelector('#account-password')?.focus();
    }
  }
}

const RESULTS = ['all', 'won', 'lost', 'drawn', 'ongoing'];

/** How a game of the account went for it: won, lost, drawn, ongoing (null: none of these, e.g. aborted). */
export function outcome(g) {
  if (g.status !== 'over') return 'ongoing';
  if (g.result === '1/2-1/2') return 'drawn';
  if (g.you !== 'white' && g.you !== 'black') return null;
  if (g.result === '1-0') return g.you === 'white' ? 'won' : 'lost';
  if (g.result === '0-1') return g.you === 'black' ? 'won' : 'lost';
  return null;
}

/** The account: its games, the password, log out, delete. */
export class AccountView {
  constructor(root) {
    this.root = root;
    this.games = null;
    this.total = 0;
    this.error = null;
    this.filterGame = 'all';
    this.filterResult = 'all';
    this.pw = { old: '', neu: '', error: null };
    this.del = { password: '', error: null };
    this.off = onAccountChange(() => { if (!account()) navigate('/login', { replace: true }); });
    this.start();
  }

  destroy() { this.off(); }

  relabel() { this.render(); }

  async start() {
    if (!account()) {
      this.render();
      if (!(await loadAccount())) {
        navigate('/login', { replace: true });
        return;
      }
    }
    this.render();
    this.loadBlocked();
    try {
      const res = await api.accountGames(200, 0);
      this.games = res.games;
      this.total = res.total;
      this.error = null;
    } catch (e) {
      if (e.code === 'not_logged_in') { setAccount(null); return; }
      this.error = e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message });
    }
    this.drawGames();
  }

  /** The players this account blocked (GET /api/account). */
  async loadBlocked() {
    try {
      const res = await api.account();
      this.blocked = res.blocked || [];
    } catch {
      this.blocked = null;
    }
    this.drawBlocked();
  }

  async unblock(name) {
    try {
      await api.unblock(name);
      this.blocked = (this.blocked || []).filter((n) => n !== name);
      toast(t('chat.unblocked', { name }));
    } catch (e) {
      if (e.code === 'not_logged_in') { setAccount(null); return; }
      toast(e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }), 'error');
    }
    this.drawBlocked();
  }

  /**
   * Redraws only the list of blocked players: the forms beside it keep what is
   * typed in them, their focus and their place under the pointer.
   */
  drawBlocked() {
    replacePart(this.root, '#account-blocked', this.blockedSection());
  }

  /** Redraws only the account's games and their filters (see drawBlocked). */
  drawGames() {
    replacePart(this.root, '#account-games', this.gamesSection());
  }

  blockedSection() {
    const names = this.blocked || [];
    return h('section', { class: 'card', id: 'account-blocked', 'aria-labelledby': 'account-blocked-h' },
      h('h2', { id: 'account-blocked-h', text: t('account.blocked') }),
      names.length
        ? h('ul', { class: 'blocked-list' }, ...names.map((name) => h('li', { class: 'row' },
          h('span', { class: 'blocked-name', text: name }),
          h('button', { class: 'btn small', type: 'button', onclick: () => this.unblock(name), text: t('account.unblock') }))))
        : h('p', { class: 'muted', text: t('account.blocked.none') }));
  }

  result(g) {
    if (g.status !== 'over') return t('archive.ongoing');
    return endText({ status: 'over', result: g.result, reason: g.reason, rule_options: ruleOptionsOf(g.game, g.rules) });
  }

  gamesTable() {
    if (this.error) return h('p', { class: 'error', text: this.error });
    if (!this.games) return h('p', { class: 'muted', text: '…' });
    const shown = this.games.filter((g) => (this.filterGame === 'all' || (g.game || 'muehle') === this.filterGame)
      && (this.filterResult === 'all' || outcome(g) === this.filterResult));
    if (shown.length === 0) return h('p', { class: 'muted', id: 'account-games-empty', text: t(this.games.length ? 'account.games.noneFiltered' : 'account.games.none') });
    return h('table', { class: 'archive-table account-games' },
      h('thead', {}, h('tr', {}, ...['game', 'players', 'rules', 'result', 'date'].map((k) => h('th', { scope: 'col', text: t(`archive.${k}`) })))),
      h('tbody', {}, ...shown.map((g) => {
        const oc = outcome(g);
        return h('tr', { 'data-id': g.id, 'data-outcome': oc || 'none' },
          h('td', { 'data-label': t('archive.game') },
            h('a', { href: `/game/${g.id}`, 'data-link': true, class: 'game-link', text: t('game.title', { id: g.id }) })),
          h('td', { 'data-label': t('archive.players'), class: 'players' },
            h('span', { text: playerLabel(g.white, 'white') }), h('span', { class: 'vs', text: ' – ' }), h('span', { text: playerLabel(g.black, 'black') }),
            h('span', { class: 'small muted', text: ` · ${g.you === 'both' ? t('kind.local.short') : t('account.games.as', { color: colorName(g.you) })}` })),
          h('td', { 'data-label': t('archive.rules'), text: rulesLabelOf(g.game || 'muehle', g.rules) }),
          h('td', { 'data-label': t('archive.result'), class: `result ${g.status}` },
            oc && oc !== 'ongoing' ? h('strong', { class: 'outcome', text: `${t(`account.outcome.${oc}`)} ` }) : null,
            h('span', { text: this.result(g) })),
          h('td', { 'data-label': t('archive.date'), text: fmtDate(g.created_at) }));
      })));
  }

  /** The account's games with their filters. */
  gamesSection() {
    const games = ['all', ...gameNames()];
    const filters = h('div', { class: 'filters' },
      h('div', { class: 'field' },
        h('label', { for: 'filter-game', text: t('account.filter.game') }),
        h('select', { id: 'filter-game', onchange: (e) => { this.filterGame = e.target.value; this.drawGames(); this.root.querySelector('#filter-game')?.focus(); } },
          ...games.map((g) => h('option', { value: g, selected: g === this.filterGame, text: g === 'all' ? t('account.filter.all') : gameName(g) })))),
      h('div', { class: 'field' },
        h('label', { for: 'filter-result', text: t('account.filter.result') }),
        h('select', { id: 'filter-result', onchange: (e) => { this.filterResult = e.target.value; this.drawGames(); this.root.querySelector('#filter-result')?.focus(); } },
          ...RESULTS.map((r) => h('option', { value: r, selected: r === this.filterResult, text: t(r === 'all' ? 'account.filter.all' : `account.outcome.${r}`) })))));

    return h('section', { class: 'card', id: 'account-games', 'aria-labelledby': 'account-games-h' },
      h('h2', { id: 'account-games-h', text: t('account.games') }),
      this.games && this.games.length ? filters : null,
      this.gamesTable());
  }

  render() {
    const a = account();
    document.title = `${t('account.title')} – brett`;
    if (!a) { mount(this.root, h('div', { class: 'card' }, h('p', { class: 'muted', text: '…' }))); return; }
    const pwForm = h('form', { class: 'card account-form', id: 'password-form', onsubmit: (e) => { e.preventDefault(); this.changePassword(); } },
      h('h2', { text: t('account.changePassword') }),
      h('input', { type: 'text', hidden: true, autocomplete: 'username', value: a.name, 'aria-hidden': 'true', tabindex: '-1' }),
      passwordField('old-password', t('account.password.old'), 'current-password', this.pw.old, (v) => { this.pw.old = v; }),
      passwordField('new-password', t('account.password.new'), 'new-password', this.pw.neu, (v) => { this.pw.neu = v; }),
      h('p', { class: 'small muted', text: t('account.password.rules') }),
      errorLine('password-error', this.pw.error),
      h('div', { class: 'row' }, h('button', { class: 'btn primary', type: 'submit', id: 'password-submit', text: t('account.changePassword') })));

    const delForm = h('form', { class: 'card account-form danger-zone', id: 'delete-form', onsubmit: (e) => { e.preventDefault(); this.deleteAccount(); } },
      h('h2', { text: t('account.delete') }),
      h('p', { text: t('account.delete.text') }),
      passwordField('delete-password', t('account.password'), 'current-password', this.del.password, (v) => { this.del.password = v; }),
      errorLine('delete-error', this.del.error),
      h('div', { class: 'row' }, h('button', { class: 'btn danger', type: 'submit', id: 'delete-submit', text: t('account.delete') })));

    mount(this.root, h('div', { class: 'account-page account' },
      h('section', { class: 'card', 'aria-labelledby': 'account-h' },
        h('h1', { id: 'account-h' }, t('account.title'), ': ', h('span', { class: 'account-name', text: a.name })),
        a.created_at ? h('p', { class: 'muted', text: t('account.since', { date: fmtDate(a.created_at) }) }) : null,
        h('p', {}, h('a', { href: `/players/${encodeURIComponent(a.name)}`, 'data-link': true, id: 'own-profile', text: t('account.profile') })),
        h('div', { class: 'field' },
          h('label', { for: 'account-language', text: t('account.language') }),
          h('select', { id: 'account-language', onchange: (e) => this.setLanguage(e.target.value) },
            h('option', { value: '', selected: !a.language, text: t('account.language.browser') }),
            ...LANGUAGES.map(({ code, name }) => h('option', { value: code, lang: code, selected: a.language === code, text: name })))),
        h('div', { class: 'row' }, h('button', { class: 'btn', type: 'button', id: 'logout-button', onclick: () => logout(), text: t('account.logout') }))),
      this.gamesSection(),
      this.blockedSection(),
      pwForm, delForm));
  }

  /** The account's language (kept on the server for every device); '' for the browser's. */
  async setLanguage(code) {
    try {
      const res = await api.setLanguage(code || null);
      account().language = res.account.language;
      if (code) setLang(code);
      else this.render();
      toast(t('account.language.saved'));
      this.root.querySelector('#account-language')?.focus();
    } catch (e) {
      if (e.code === 'not_logged_in') { setAccount(null); return; }
      toast(e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }), 'error');
    }
  }

  async changePassword() {
    const { old, neu } = this.pw;
    if (neu.length < 8) {
      this.pw.error = { key: 'account.password.rules' };
      this.render();
      this.root.querySelector('#new-password')?.focus();
      return;
    }
    try {
      await api.changePassword(old, neu);
      this.pw = { old: '', neu: '', error: null };
      this.render();
      toast(t('account.passwordChanged'));
    } catch (e) {
      if (e.code === 'not_logged_in') { setAccount(null); return; }
      this.pw.error = wordError(e);
      this.render();
      this.root.querySelector('#old-password')?.focus();
    }
  }

  async deleteAccount() {
    const ok = await confirmDialog({
      title: t('account.delete.confirm'), text: t('account.delete.text'),
      ok: t('account.delete'), cancel: t('game.cancel'),
    });
    if (!ok) return;
    try {
      await api.deleteAccount(this.del.password);
      toast(t('account.deleted'));
      setAccount(null);
      navigate('/');
    } catch (e) {
      if (e.code === 'not_logged_in') { setAccount(null); return; }
      this.del.error = wordError(e);
      this.render();
      this.root.querySelector('#delete-password')?.focus();
    }
  }
}

/** Logs out (this device) and goes home. */
export async function logout() {
  try {
    await api.logout();
  } catch (e) {
    toast(e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }), 'error');
    return;
  }
  setAccount(null);
  toast(t('account.loggedOut'));
  navigate('/');
}
