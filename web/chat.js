// The chat of an online game (docs/API.md, "Chat"): the players talk in
// their room, everyone else in the spectators' room; after the game the
// players also read the spectators'. Every name and message goes in as
// text (dom.js), never as markup.

import { api } from './api.js';
import { account, accountKnown } from './account.js';
import { h, mount, toast, confirmDialog } from './dom.js';
import { t } from './i18n.js';

/** The longest message (characters). */
const MAX_CHARS = 140;

const REASONS = ['insult', 'spam', 'other'];

const chars = (text) => [...text].length;

export class ChatPanel {
  constructor(id) {
    this.id = id;
    // What the panel shows: the room, the seat (a colour) and its token.
    this.room = null;
    this.seat = null;
    this.token = null;
    this.over = false;
    // The room a player chose by its tab after the game.
    this.chosen = 'players';
    this.key = '';
    this.messages = [];
    this.error = null;
    this.list = h('ol', { class: 'chat-list', 'aria-live': 'polite' });
    this.input = h('input', {
      type: 'text', id: 'chat-input', autocomplete: 'off',
      oninput: () => this.renderCount(),
    });
    this.count = h('span', { class: 'small muted chat-count' });
    this.errorLine = h('p', { class: 'error small chat-error', role: 'alert', hidden: true });
    this.form = h('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input,
      h('button', { class: 'btn', type: 'submit', id: 'chat-send' }));
    this.title = h('h2', { class: 'section-title' });
    this.tabs = h('div', { class: 'chat-tabs row', hidden: true });
    this.note = h('p', { class: 'small muted chat-note', hidden: true });
    this.el = h('section', { class: 'card chat-card', id: 'chat', hidden: true },
      this.title, this.tabs, this.list, this.note, this.form, this.count, this.errorLine);
  }

  /**
   * Follows the game: `state` (its kind and status) and the seats this page
   * holds (colour → token; ACCOUNT_SEAT for the login's seat).
   */
  sync(state, seats, confirmed) {
    // Until the login is known, the seats its cookie holds are not.
    if (!state || state.kind !== 'online' || !confirmed || !accountKnown()) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    const held = Object.entries(seats);
    const [seat, token] = held.length === 1 ? held[0] : [null, null];
    const over = state.status === 'over';
    const me = account()?.name || '';
    const room = seat ? (over ? this.chosen : 'players') : 'spectators';
    const key = `${room}|${seat}|${token}|${over}|${me}`;
    this.seat = seat;
    this.token = token;
    this.over = over;
    if (key !== this.key) {
      this.key = key;
      this.room = room;
      this.load();
    }
    this.render();
  }

  /** Relabels after a change of language. */
  relabel() { this.render(); }

  async load() {
    const key = this.key;
    if (!this.room) return;
    try {
      const res = await api.chat(this.id, this.room, this.room === 'players' ? this.token : undefined);
      if (key !== this.key) return;
      this.messages = res.messages;
      this.error = null;
    } catch (e) {
      if (key !== this.key) return;
      this.messages = [];
      this.error = e.code === 'network' ? t('error.network') : null;
    }
    this.render();
  }

  /** A message from the game's socket. */
  add(m) {
    if (!m || m.room !== this.room || this.messages.some((x) => x.id === m.id)) return;
    this.messages = [...this.messages, m];
    this.render();
  }

  /** Whether this page wrote `m`. */
  mine(m) {
    if (m.room === 'players') return !!this.seat && m.seat === this.seat;
    const a = account();
    return !!a && m.account && m.name === a.name;
  }

  author(m) {
    if (m.name) return m.name === '(deleted player)' ? t('account.deletedPlayer') : m.name;
    return m.seat ? t(`color.${m.seat}`) : '?';
  }

  canWrite() {
    if (this.room === 'players') return !!this.seat;
    return !this.seat && !!account();
  }

  render() {
    const players = this.room === 'players';
    this.title.textContent = players ? t('chat.title') : t('chat.spectators');
    this.tabs.hidden = !(this.seat && this.over);
    mount(this.tabs, ...['players', 'spectators'].map((room) => h('button', {
      class: ['btn small', room === this.room ? 'primary' : null], type: 'button', 'aria-pressed': String(room === this.room),
      onclick: () => { if (room !== this.room) { this.chosen = room; this.room = room; this.sync2(); } },
      text: room === 'players' ? t('chat.title') : t('chat.spectators'),
    })));
    const items = this.messages.map((m) => this.line(m));
    mount(this.list, ...(items.length ? items : [h('li', { class: 'muted small chat-empty', text: t('chat.empty') })]));
    this.list.scrollTop = this.list.scrollHeight;
    const writable = this.canWrite();
    this.form.hidden = !writable;
    this.count.hidden = !writable;
    this.note.hidden = writable;
    this.note.textContent = !this.seat && !account() ? t('chat.loginToWrite') : '';
    if (!this.note.textContent) this.note.hidden = true;
    this.input.setAttribute('aria-label', t('chat.placeholder'));
    this.input.placeholder = t('chat.placeholder');
    this.form.querySelector('button').textContent = t('chat.send');
    this.renderCount();
    this.errorLine.hidden = !this.error;
    this.errorLine.textContent = this.error || '';
  }

  /** Shows the room chosen by a tab (after the game). */
  sync2() {
    this.key = `${this.room}|${this.seat}|${this.token}|${this.over}|${account()?.name || ''}`;
    this.load();
    this.render();
  }

  renderCount() {
    const n = chars(this.input.value.trim());
    this.count.textContent = `${n}/${MAX_CHARS}`;
    this.count.classList.toggle('error', n > MAX_CHARS);
  }

  line(m) {
    const mine = this.mine(m);
    const tools = [];
    if (!mine && account()) {
      tools.push(h('button', { class: 'btn link small chat-report', type: 'button', onclick: () => this.report(m), text: t('chat.report') }));
      if (m.account && m.name) {
        tools.push(h('button', { class: 'btn link small chat-block', type: 'button', onclick: () => this.block(m.name), text: t('chat.block') }));
      }
    }
    return h('li', { class: ['chat-line', mine ? 'mine' : null], dataset: { id: String(m.id) } },
      h('span', { class: 'chat-author', text: this.author(m) }),
      h('span', { class: 'chat-text', text: m.text }),
      tools.length ? h('span', { class: 'chat-tools' }, ...tools) : null);
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    if (chars(text) > MAX_CHARS) {
      this.error = t('chat.tooLong', { n: MAX_CHARS });
      this.render();
      return;
    }
    try {
      const res = await api.say(this.id, this.room, text, this.room === 'players' ? this.token : undefined);
      this.input.value = '';
      this.error = null;
      this.add(res.message);
    } catch (e) {
      this.error = wordError(e);
    }
    this.render();
    this.input.focus();
  }

  async block(name) {
    const ok = await confirmDialog({
      title: t('chat.blockConfirm', { name }), text: t('chat.blockText'),
      ok: t('chat.block'), cancel: t('game.cancel'),
    });
    if (!ok) return;
    try {
      await api.block(name);
      toast(t('chat.blocked', { name }));
      this.messages = this.messages.filter((m) => !(m.account && m.name === name));
      this.render();
    } catch (e) {
      toast(wordError(e), 'error');
    }
  }

  async report(m) {
    const reason = await reasonDialog(this.author(m), m.text);
    if (!reason) return;
    try {
      await api.report(m.id, reason);
      toast(t('chat.reported'));
    } catch (e) {
      toast(wordError(e), 'error');
    }
  }
}

/** An error of the chat in words. */
function wordError(e) {
  switch (e.code) {
    case 'rate_limited': return t('chat.tooFast', { n: e.retryAfter || 5 });
    case 'bad_request': return t('chat.badText', { n: MAX_CHARS });
    case 'account_closed': return t('account.error.account_closed');
    case 'not_logged_in': return t('chat.loginToWrite');
    case 'network': return t('error.network');
    default: return t('error.generic', { message: e.message });
  }
}

/** Asks why a message is reported; resolves the reason or null. */
function reasonDialog(author, text) {
  return new Promise((resolve) => {
    const select = h('select', { id: 'report-reason' },
      ...REASONS.map((r) => h('option', { value: r, text: t(`chat.reason.${r}`) })));
    const dlg = h('dialog', { class: 'dialog', 'aria-labelledby': 'report-title' },
      h('h2', { id: 'report-title', text: t('chat.reportTitle') }),
      h('blockquote', { class: 'chat-quote' }, h('strong', { text: author }), ': ', h('span', { text })),
      h('label', { for: 'report-reason', text: t('chat.reason') }), select,
      h('div', { class: 'row end' },
        h('button', { class: 'btn', type: 'button', onclick: () => dlg.close('cancel'), text: t('game.cancel') }),
        h('button', { class: 'btn primary', type: 'button', onclick: () => dlg.close('ok'), text: t('chat.report') })));
    dlg.addEventListener('close', () => { dlg.remove(); resolve(dlg.returnValue === 'ok' ? select.value : null); });
    document.body.append(dlg);
    dlg.showModal();
    select.focus();
  });
}
