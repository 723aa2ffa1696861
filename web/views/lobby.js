// The lobby: open seeks live over the lobby socket (accept others', cancel
// one's own), a seek form, quick pairing for the common time controls of
// each game, challenges to a player by name (in and out), and the games
// being played now (to watch). Seeks and challenges need an account;
// guests see the lobby and are pointed to the login.

import { h, mount, toast, replacePart } from '../dom.js';
import { t, lang, colorName, errorText } from '../i18n.js';
import { api, GameSocket } from '../api.js';
import { navigate } from '../nav.js';
import { account, onAccountChange } from '../account.js';
import { gameNames, familyOf, presetsOf, titleOf } from '../catalogue.js';
import { rulesLabelOf } from '../games/index.js';
import { controlText } from '../clock.js';

/** The time controls a seek offers. */
const CONTROLS = ['1+0', '3+2', '5+3', '10+5', '15+10', '30+0', '1d', '3d', '7d', '-'];

/** Quick pairing: the common time controls of each game family. */
const QUICK = {
  muehle: ['3+2', '5+3', '10+5', '3d'],
  dame: ['5+3', '10+5', '15+10', '3d'],
};

/** The game-and-rules choices: [{value: 'game|rules', game, rules, label}]. */
function gameChoices() {
  const out = [];
  for (const game of gameNames()) {
    const presets = presetsOf(game);
    if (presets.length > 1) {
      for (const p of presets) {
        out.push({ value: `${game}|${p.name}`, game, rules: p.name, label: `${titleOf(game, lang())} · ${p.title[lang()] || p.title.en}` });
      }
    } else {
      out.push({ value: `${game}|`, game, rules: null, label: titleOf(game, lang()) });
    }
  }
  return out;
}

const tcText = (tc) => (tc === '-' ? t('tc.untimed') : controlText(tc));

export class LobbyView {
  constructor(root) {
    this.root = root;
    this.seeks = [];
    this.games = [];
    this.challenges = { in: [], out: [] };
    this.form = { choice: 'muehle|standard', tc: '5+3', rated: false, color: 'random', min: '', max: '' };
    this.challengeName = '';
    this.busy = false;
    this.socket = new GameSocket(null, {
      path: '/api/lobby/ws',
      onMessage: (m) => this.message(m),
      onOpen: () => this.loadGames(),
    });
    this.offAccount = onAccountChange(() => { this.socket.reconnectNow(); this.render(); });
    this.gamesTimer = setInterval(() => this.loadGames(), 15000);
    this.render();
  }

  destroy() {
    this.gone = true;
    this.socket.close();
    this.offAccount();
    clearInterval(this.gamesTimer);
  }

  relabel() { this.render(); }

  async loadGames() {
    try {
      const v = await api.lobby();
      this.games = v.games || [];
      this.drawLists();
    } catch { /* the list stays as it was */ }
  }

  message(m) {
    switch (m.type) {
      case 'lobby':
        this.seeks = m.seeks || [];
        this.challenges = m.challenges || { in: [], out: [] };
        break;
      case 'seek':
        if (!this.seeks.some((s) => s.id === m.seek.id)) this.seeks = [...this.seeks, m.seek];
        break;
      case 'seek_removed':
        this.seeks = this.seeks.filter((s) => s.id !== m.id);
        break;
      case 'challenge': {
        const mine = account() && m.challenge.player.name === account().name;
        const list = mine ? 'out' : 'in';
        this.challenges = { ...this.challenges, [list]: [...this.challenges[list].filter((c) => c.id !== m.challenge.id), m.challenge] };
        if (!mine) toast(t('lobby.challengeFrom', { name: m.challenge.player.name }));
        break;
      }
      case 'challenge_cancelled':
      case 'challenge_declined':
      case 'challenge_accepted': {
        const status = m.type.slice('challenge_'.length);
        const mark = (c) => (c.id === m.id ? { ...c, status, game_id: m.game ?? c.game_id } : c);
        this.challenges = { in: this.challenges.in.map(mark), out: this.challenges.out.map(mark) };
        break;
      }
      case 'started':
        navigate(`/game/${m.game}`);
        return;
      default:
        return;
    }
    this.drawLists();
  }

  /**
   * Redraws only the seeks, the challenges and the games being played: the
   * forms keep what is typed or chosen in them, their focus, an open list of
   * choices and their place under the pointer.
   */
  drawLists() {
    if (this.gone) return;
    for (const [id, make] of [['lobby-seeks', () => this.seeksSection()], ['challenges', () => this.challengesSection()], ['lobby-games', () => this.gamesSection()]]) {
      // A button of a listed seek or challenge that had the focus keeps it
      // (found again by its row's id and its class).
      const was = replacePart(this.root, `#${id}`, make());
      const row = was?.closest('li[data-id]');
      if (row) this.root.querySelector(`#${id} li[data-id="${CSS.escape(row.dataset.id)}"] .${[...was.classList].filter((c) => c !== 'btn').map((c) => CSS.escape(c)).join('.')}`)?.focus();
    }
  }

  /** Runs `fn` (a request) once at a time; its error goes to a toast. */
  async act(fn) {
    if (this.busy) return;
    this.busy = true;
    try {
      const v = await fn();
      if (v && v.game) navigate(`/game/${v.game}`);
    } catch (e) {
      toast(errorText(e), 'error');
    } finally {
      this.busy = false;
      this.render();
    }
  }

  terms() {
    const f = this.form;
    const choice = gameChoices().find((c) => c.value === f.choice) || gameChoices()[0];
    const body = { game: choice.game, time_control: f.tc, rated: f.rated, color: f.color };
    if (choice.rules) body.rules = choice.rules;
    if (f.min !== '') body.rating_min = Number(f.min);
    if (f.max !== '') body.rating_max = Number(f.max);
    return body;
  }

  seekRow(s) {
    const me = account();
    const mine = me && s.player.name === me.name;
    const r = s.player.rating;
    const range = s.rating_min != null || s.rating_max != null ? `${s.rating_min ?? '…'}–${s.rating_max ?? '…'}` : '';
    return h('li', { class: 'seek', 'data-id': s.id },
      h('span', { class: 'seek-player' }, h('strong', { text: s.player.name }), h('span', { class: 'muted', text: ` ${r.rating}${r.provisional ? '?' : ''}` })),
      h('span', { class: 'seek-game', text: rulesLabelOf(s.game, s.rules) }),
      h('span', { class: 'seek-tc', text: tcText(s.time_control) }),
      h('span', { class: 'seek-mode', text: s.rated ? t('lobby.rated') : t('lobby.casual') }),
      h('span', { class: 'seek-color muted', text: s.color === 'random' ? t('lobby.random') : colorName(s.color) }),
      h('span', { class: 'seek-range muted', text: range }),
      mine
        ? h('button', { class: 'btn cancel-seek', type: 'button', onclick: () => this.act(() => api.cancelSeek(s.id)), text: t('lobby.cancel') })
        : h('button', { class: 'btn primary accept-seek', type: 'button', disabled: !me || this.busy, onclick: () => this.act(() => api.acceptSeek(s.id)), text: t('lobby.accept') }));
  }

  challengeRow(c, incoming) {
    const who = incoming ? c.player.name : c.to;
    const open = c.status === 'open';
    const buttons = [];
    if (open && incoming) {
      buttons.push(h('button', { class: 'btn primary accept-challenge', type: 'button', onclick: () => this.act(() => api.settleChallenge(c.id, 'accept')), text: t('lobby.accept') }),
        h('button', { class: 'btn decline-challenge', type: 'button', onclick: () => this.act(() => api.settleChallenge(c.id, 'decline')), text: t('lobby.decline') }));
    } else if (open) {
      buttons.push(h('button', { class: 'btn cancel-challenge', type: 'button', onclick: () => this.act(() => api.settleChallenge(c.id, 'cancel')), text: t('lobby.cancel') }));
    } else if (c.status === 'accepted' && c.game_id) {
      buttons.push(h('a', { class: 'btn', href: `/game/${c.game_id}`, 'data-link': true, text: t('lobby.toGame') }));
    }
    return h('li', { class: 'challenge', 'data-id': c.id },
      h('strong', { text: who }),
      h('span', { text: ` · ${rulesLabelOf(c.game, c.rules)} · ${tcText(c.time_control)} · ${c.rated ? t('lobby.rated') : t('lobby.casual')}` }),
      open ? null : h('span', { class: 'muted challenge-status', text: ` · ${t(`lobby.status.${c.status}`)}` }),
      ...buttons);
  }

  seeksSection() {
    return h('section', { class: 'card', id: 'lobby-seeks' },
      h('h2', { text: t('lobby.seeks') }),
      this.seeks.length
        ? h('ul', { class: 'seek-list', id: 'seeks' }, ...this.seeks.map((s) => this.seekRow(s)))
        : h('p', { class: 'muted', id: 'seeks', text: t('lobby.noSeeks') }));
  }

  challengesSection() {
    return account() ? h('section', { class: 'card', id: 'challenges' },
      h('h2', { text: t('lobby.challenges') }),
      h('h3', { text: t('lobby.incoming') }),
      h('ul', { class: 'challenge-list', id: 'challenges-in' }, ...this.challenges.in.map((c) => this.challengeRow(c, true))),
      this.challenges.in.length ? null : h('p', { class: 'muted small', id: 'challenges-in-none', text: t('lobby.noChallenges') }),
      h('h3', { text: t('lobby.outgoing') }),
      h('ul', { class: 'challenge-list', id: 'challenges-out' }, ...this.challenges.out.map((c) => this.challengeRow(c, false))),
      this.challenges.out.length ? null : h('p', { class: 'muted small', id: 'challenges-out-none', text: t('lobby.noChallenges') })) : null;
  }

  gamesSection() {
    const rating = (r) => (r ? ` (${r.rating}${r.provisional ? '?' : ''})` : '');
    return h('section', { class: 'card', id: 'lobby-games' },
      h('h2', { text: t('lobby.playing') }),
      this.games.length
        ? h('ul', { class: 'live-games', id: 'live-games' }, ...this.games.map((g) => h('li', {},
          h('a', { href: `/game/${g.id}`, 'data-link': true },
            h('span', { text: `${g.white || colorName('white')}${rating(g.white_rating)} – ${g.black || colorName('black')}${rating(g.black_rating)}` }),
            h('span', { class: 'muted', text: ` · ${rulesLabelOf(g.game, g.rules)}${g.time_control ? ` · ${tcText(g.time_control)}` : ''} · ${t('lobby.ply', { n: g.ply })}` })))))
        : h('p', { class: 'muted', id: 'live-games', text: t('lobby.noGames') }));
  }

  render() {
    // A request that ends after the page was left draws nothing.
    if (this.gone) return;
    const me = account();
    const f = this.form;
    const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id, text: label }), input);
    const select = (id, value, options, set) => h('select', { id, onchange: (e) => { set(e.target.value); } },
      ...options.map(([v, label]) => h('option', { value: v, selected: v === value, text: label })));

    const loginNote = me ? null : h('p', { class: 'card notice', id: 'lobby-login-note' },
      h('span', { text: `${t('lobby.loginNeeded')} ` }),
      h('a', { href: '/login', 'data-link': true, text: t('account.login') }));

    const quick = h('section', { class: 'card', id: 'quick' },
      h('h2', { text: t('lobby.quick') }),
      ...gameNames().map((game) => h('div', { class: 'quick-row' },
        h('span', { class: 'quick-game', text: titleOf(game, lang()) }),
        h('div', { class: 'quick-tcs' }, ...(QUICK[familyOf(game)] || []).map((tc) => h('button', {
          class: 'btn quick-btn', type: 'button', 'data-game': game, 'data-tc': tc, disabled: !me || this.busy,
          onclick: () => this.act(() => api.quickPair({ game, time_control: tc })),
          text: tcText(tc),
        }))))));

    const form = h('form', { class: 'card seek-form', id: 'seek-form', onsubmit: (e) => { e.preventDefault(); this.act(() => api.postSeek(this.terms())); } },
      h('h2', { text: t('lobby.newSeek') }),
      field('seek-game', t('lobby.game'), select('seek-game', f.choice, gameChoices().map((c) => [c.value, c.label]), (v) => { f.choice = v; })),
      field('seek-tc', t('tc.label'), select('seek-tc', f.tc, CONTROLS.map((c) => [c, tcText(c)]), (v) => { f.tc = v; })),
      field('seek-color', t('lobby.color'), select('seek-color', f.color, [['random', t('lobby.random')], ['white', colorName('white')], ['black', colorName('black')]], (v) => { f.color = v; })),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'seek-rated', checked: f.rated, onchange: (e) => { f.rated = e.target.checked; } }), h('span', { text: t('lobby.rated') })),
      h('div', { class: 'row' },
        field('seek-min', t('lobby.ratingMin'), h('input', { type: 'number', id: 'seek-min', min: 0, max: 4000, step: 50, value: f.min, oninput: (e) => { f.min = e.target.value; } })),
        field('seek-max', t('lobby.ratingMax'), h('input', { type: 'number', id: 'seek-max', min: 0, max: 4000, step: 50, value: f.max, oninput: (e) => { f.max = e.target.value; } }))),
      h('div', { class: 'row' },
        h('button', { class: 'btn primary', type: 'submit', id: 'seek-submit', disabled: !me || this.busy, text: t('lobby.post') })),
      h('h3', { text: t('lobby.challenge') }),
      h('p', { class: 'small muted', text: t('lobby.challengeText') }),
      h('div', { class: 'row' },
        h('input', { type: 'text', id: 'challenge-name', maxlength: 20, 'aria-label': t('lobby.challengeName'), placeholder: t('lobby.challengeName'), value: this.challengeName, oninput: (e) => { this.challengeName = e.target.value; } }),
        h('button', {
          class: 'btn', type: 'button', id: 'challenge-submit', disabled: !me || this.busy,
          onclick: () => this.act(async () => { await api.challenge({ ...this.terms(), to: this.challengeName.trim() }); this.challengeName = ''; toast(t('lobby.challengeSent')); }),
          text: t('lobby.challengeSend'),
        })));

    const seeks = this.seeksSection();
    const challenges = this.challengesSection();
    const games = this.gamesSection();

    const focused = document.activeElement && this.root.contains(document.activeElement) ? document.activeElement.id : null;
    mount(this.root, h('div', { class: 'lobby-page' },
      h('div', { class: 'row spread' }, h('h1', { text: t('nav.lobby') }),
        h('a', { href: '/leaderboard', 'data-link': true, id: 'lobby-leaderboard', text: t('nav.leaderboard') })),
      loginNote,
      h('div', { class: 'lobby-grid' },
        h('div', {}, seeks, challenges, games),
        h('div', {}, quick, form))));
    if (focused) this.root.querySelector(`#${focused}`)?.focus();
  }
}
