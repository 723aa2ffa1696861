// Home: create a game (kind, rules and every option, level, colour, name),
// the games this browser plays in, links to archive and analysis.

import { h, mount, toast, replacePart } from '../dom.js';
import { t, fmtDate, colorName, endText } from '../i18n.js';
import { api } from '../api.js';
import { navigate } from '../nav.js';
import { muehlePresets, presetOptions, presetName, presetTitle, overrides, gameName, dameOverrides, muehleRulesSummary } from '../rules.js';
import { rulesLabelOf } from '../games/index.js';
import * as D from '../dame.js';
import { gameNames, subtitleOf, familyOf } from '../catalogue.js';
import { lang } from '../i18n.js';
import * as store from '../store.js';
import { account, accountKnown, onAccountChange } from '../account.js';
import { LIVE_PRESETS, CORRESPONDENCE_DAYS, validCustom, controlText, fmtClock } from '../clock.js';

export class HomeView {
  constructor(root) {
    this.root = root;
    const saved = store.lastSettings() || {};
    this.form = {
      kind: saved.kind || 'computer',
      level: saved.level || 3,
      hints: store.hintsDefault(),
      color: saved.color || 'white',
      preset: saved.preset || 'standard',
      options: { ...presetOptions(saved.preset), ...(saved.options || {}) },
      name: store.playerName() || '',
      game: gameNames().includes(saved.game) ? saved.game : gameNames()[0],
      // '-' (untimed), a live preset, 'custom' or a correspondence control ('3d').
      tc: typeof saved.tc === 'string' ? saved.tc : '-',
      tcMinutes: saved.tcMinutes ?? 5,
      tcIncrement: saved.tcIncrement ?? 3,
    };
    // The options of the Dame game chosen last (Dame 8×8's while a Mühle game is chosen).
    this.form.dame = { ...(D.PRESETS[this.form.game] || D.PRESETS.dame), ...(saved.dameOptions || {}) };
    this.busy = false;
    this.states = {};
    // The logged-in account's games (from the server: they follow the account across devices).
    this.accountGames = [];
    this.render();
    this.loadStates();
    // The form names the account (or asks for a name): drawn anew when it changes.
    this.offAccount = onAccountChange(() => { if (!this.dead) this.render(); this.loadAccountGames(); });
    if (accountKnown()) this.loadAccountGames();
  }

  destroy() {
    this.dead = true;
    this.offAccount();
  }

  async loadAccountGames() {
    if (!account()) {
      this.accountGames = [];
      this.drawSide();
      return;
    }
    try {
      const res = await api.accountGames(30, 0);
      this.accountGames = res.games.map((g) => ({
        id: g.id, kind: g.kind, colors: g.you === 'both' ? ['white', 'black'] : [g.you],
        rules: g.rules, game: g.game || 'muehle', created: g.created_at,
      }));
    } catch {
      this.accountGames = [];
    }
    if (this.dead) return;
    this.drawSide();
    this.loadStates(this.accountGames.filter((g) => !(g.id in this.states)));
  }

  /** The seats held in game `id`: this browser's tokens and the account's seats. */
  seatsOf(id) {
    const mine = { ...store.seats(id) };
    const acc = this.accountGames.find((a) => a.id === id);
    for (const c of acc ? acc.colors : []) mine[c] = mine[c] || true;
    return mine;
  }

  /** This browser's games and the account's, newest first, each once. */
  myGames() {
    const local = store.myGames();
    const ids = new Set(local.map((g) => g.id));
    const merged = [...local, ...this.accountGames.filter((g) => !ids.has(g.id))];
    return merged.sort((a, b) => String(b.created || '').localeCompare(String(a.created || '')) || b.id - a.id);
  }

  /** The state of each remembered game: whose turn, or the result. */
  async loadStates(games = this.myGames()) {
    await Promise.all(games.map(async (g) => {
      try {
        const st = await api.state(g.id);
        st.receivedAt = performance.now();
        this.states[g.id] = st;
      } catch (e) {
        if (e.code === 'not_found') this.states[g.id] = null;
      }
    }));
    this.drawSide();
  }

  /**
   * Redraws only the side of the page (the games waiting for a move, this
   * browser's games): the form beside it keeps its focus, an open list of
   * choices and its place under the pointer while those answers come in.
   */
  drawSide() {
    if (this.dead) return;
    replacePart(this.root, '.home-side', this.side());
  }

  relabel() { this.render(); }

  /**
   * The games of this browser where it is its player's move (not games at
   * one screen), those on a clock first, least time left first: [{g, st, left}].
   */
  yourTurn() {
    const list = [];
    for (const g of this.myGames()) {
      const st = this.states[g.id];
      if (!st || st.status !== 'ongoing') continue;
      const mine = this.seatsOf(g.id);
      if (!mine[st.turn] || (mine.white && mine.black)) continue;
      if (st.kind === 'online' && Object.values(st.players).some((p) => p.type !== 'computer' && !p.joined)) continue;
      let left = null;
      if (st.clock) left = Math.max(0, st.clock[`${st.turn}_ms`] - (st.clock.running === st.turn ? performance.now() - st.receivedAt : 0));
      list.push({ g, st, left });
    }
    return list.sort((a, b) => (a.left ?? Infinity) - (b.left ?? Infinity));
  }

  /** The "your turn" card (none when no game waits for this browser). */
  yourTurnCard() {
    const list = this.yourTurn();
    if (!list.length) return null;
    return h('section', { class: 'card your-turn', id: 'your-turn', 'aria-labelledby': 'your-turn-h' },
      h('h2', { id: 'your-turn-h', text: t('home.yourTurn') }),
      h('ul', { class: 'game-links' }, ...list.map(({ g, st, left }) => h('li', { 'data-id': g.id },
        h('a', { href: `/game/${g.id}`, 'data-link': true },
          h('strong', { text: t('game.title', { id: g.id }) }),
          h('span', { class: 'muted', text: ` · ${t(`kind.${st.kind}.short`)} · ${rulesLabelOf(st.game, st.rules)} · ${st.clock ? controlText(st.clock.control) : t('home.untimed')}` }),
          left !== null ? h('span', { class: `badge turn${st.clock.kind === 'live' && left < 20000 ? ' low' : ''}`, text: t('clock.timeLeft', { time: fmtClock(left, st.clock.kind) }) }) : null)))));
  }


  gameStatus(g) {
    const st = this.states[g.id];
    if (!st) return null;
    if (st.status === 'over') return h('span', { class: 'badge', text: endText(st) });
    const mine = this.seatsOf(g.id);
    if (mine[st.turn] && !(mine.white && mine.black)) return h('span', { class: 'badge turn', text: t('game.yourMove') });
    return h('span', { class: 'badge', text: t('game.toMove', { color: colorName(st.turn) }) });
  }

  render() {
    document.title = `brett – ${t('home.title')}`;
    const f = this.form;
    const radio = (name, value, label, checked, onchange, extra = {}) => h('label', { class: 'choice' },
      h('input', { type: 'radio', name, value, checked, onchange, ...extra }),
      h('span', { class: 'choice-body' }, label));

    const kinds = h('fieldset', { class: 'kinds' },
      h('legend', { text: t('home.kind') }),
      ...['computer', 'local', 'online'].map((k) => radio('kind', k,
        [h('span', { class: `kind-icon kind-${k}`, 'aria-hidden': 'true' }), h('span', { text: t(`kind.${k}`) })],
        f.kind === k, () => { f.kind = k; this.render(); this.root.querySelector(`input[name=kind][value=${k}]`)?.focus(); })));

    const levelOut = h('output', { id: 'level-out', for: 'level', text: t('home.level.value', { n: f.level }) });
    // What the level plays like (as the README's table of levels says).
    const levelDesc = h('p', { class: 'small muted level-desc', id: 'level-desc', text: t(`level.desc.${f.level}`) });
    const level = f.kind === 'computer' ? h('div', { class: 'field' },
      h('label', { for: 'level', text: t('home.level') }),
      h('div', { class: 'range-row' },
        h('input', {
          id: 'level', type: 'range', min: 1, max: 10, step: 1, value: f.level,
          'aria-describedby': 'level-desc',
          oninput: (e) => {
            f.level = Number(e.target.value);
            levelOut.textContent = t('home.level.value', { n: f.level });
            levelDesc.textContent = t(`level.desc.${f.level}`);
          },
        }),
        levelOut),
      levelDesc) : null;
    // The hint button of the game against the computer (on unless switched off).
    const hints = f.kind === 'computer' ? h('label', { class: 'check', id: 'hints-choice' },
      h('input', { id: 'hints', type: 'checkbox', checked: f.hints, onchange: (e) => { f.hints = e.target.checked; } }),
      h('span', { text: t('home.hints') }),
      h('span', { class: 'small muted block', text: t('home.hints.note') })) : null;

    const colour = f.kind !== 'local' ? h('fieldset', { class: 'colours' },
      h('legend', { text: t('home.color') }),
      ...['white', 'black', 'random'].map((c) => radio('color', c,
        [h('span', { class: `swatch ${c}`, 'aria-hidden': 'true' }), h('span', { text: t(`color.${c}`) })],
        f.color === c, () => { f.color = c; }))) : null;

    // Rated games: online, between accounts.
    const rated = f.kind !== 'online' ? null : account()
      ? h('label', { class: 'check', id: 'rated-choice' },
        h('input', { id: 'rated', type: 'checkbox', checked: !!f.rated, onchange: (e) => { f.rated = e.target.checked; } }),
        h('span', { text: t('home.rated') }),
        h('span', { class: 'small muted block', text: t('home.rated.note') }))
      : h('p', { class: 'small muted', id: 'rated-login' }, t('home.rated.guest'), ' ',
        h('a', { href: '/login', 'data-link': true, text: t('account.login') }));

    // A player with an account plays under its name.
    const name = account() ? h('p', { class: 'small muted', id: 'playing-as', text: t('home.playingAs', { name: account().name }) }) : h('div', { class: 'field' },
      h('label', { for: 'name', text: t('home.name') }),
      h('input', {
        id: 'name', type: 'text', maxlength: 40, autocomplete: 'nickname', value: f.name,
        placeholder: t('home.name.placeholder'), oninput: (e) => { f.name = e.target.value; },
      }));

    const o = f.options;
    const presetSel = h('select', {
      id: 'preset',
      onchange: (e) => { f.preset = e.target.value; f.options = presetOptions(f.preset); this.render(); this.root.querySelector('#preset').focus(); },
    }, ...Object.keys(muehlePresets()).map((p) => h('option', { value: p, selected: p === f.preset, text: presetTitle(p) })));
    const summary = muehleRulesSummary(o);

    const rules = h('fieldset', { class: 'rules' },
      h('legend', { text: t('home.rules') }),
      h('div', { class: 'field' }, h('label', { for: 'preset', text: t('home.preset') }), presetSel),
      summary.length ? h('ul', { class: 'rule-list small muted', id: 'preset-summary' }, ...summary.map((x) => h('li', { text: x }))) : null,
      h('div', { class: 'field' },
        h('label', { for: 'board', text: t('opt.board') }),
        h('select', { id: 'board', onchange: (e) => { o.board = e.target.value; this.render(); this.root.querySelector('#board').focus(); } },
          ...['nine', 'twelve', 'lasker'].map((b) => h('option', { value: b, selected: (o.board || 'nine') === b, text: t(`opt.board.${b}`) })))),
      h('label', { class: 'check' },
        h('input', { id: 'move-in-placing', type: 'checkbox', checked: !!o.move_in_placing, onchange: (e) => { o.move_in_placing = e.target.checked; this.render(); this.root.querySelector('#move-in-placing').focus(); } }),
        h('span', { text: t('opt.move_in_placing') })),
      h('div', { class: 'field' },
        h('label', { for: 'removal', text: t('opt.removal') }),
        h('select', { id: 'removal', onchange: (e) => { o.removal = e.target.value; } },
          h('option', { value: 'tournament', selected: o.removal === 'tournament', text: t('opt.removal.tournament') }),
          h('option', { value: 'strict', selected: o.removal === 'strict', text: t('opt.removal.strict') }))),
      h('label', { class: 'check' },
        h('input', { id: 'flying', type: 'checkbox', checked: o.flying, onchange: (e) => { o.flying = e.target.checked; } }),
        h('span', { text: t('opt.flying') })),
      optionalNumber(o, 'no_mill', { id: 'no-mill', label: t('opt.no_mill'), unit: t('opt.plies'), min: 1, max: 65535, fallback: 100 }),
      optionalNumber(o, 'repetition', { id: 'repetition', label: t('opt.repetition'), unit: t('opt.times'), min: 2, max: 255, fallback: 3 }));

    const game = h('fieldset', { class: 'game-choice', id: 'game-choice' },
      h('legend', { text: t('home.game') }),
      ...gameNames().map((g) => radio('game', g,
        [h('strong', { text: gameName(g) }), h('span', { class: 'sub', text: subtitleOf(g, lang()) })],
        f.game === g, () => {
          const huffing = f.dame.huffing;
          f.game = g;
          if (D.PRESETS[g]) f.dame = { ...D.PRESETS[g], huffing };
          this.render();
          this.root.querySelector(`input[name=game][value=${g}]`)?.focus();
        })));

    // The options of the chosen game's family (the catalogue's).
    const family = familyOf(f.game);
    const dame = family === 'dame' ? this.dameRules() : null;

    const timeControl = this.timeControl();

    const start = h('button', { type: 'submit', class: 'btn primary big', id: 'start', disabled: this.busy },
      this.busy ? t('home.starting') : t('home.start'));

    const form = h('form', { class: 'card create', onsubmit: (e) => { e.preventDefault(); this.create(); } },
      h('h1', { text: family === 'dame' ? t('home.title.dame') : t('home.title') }),
      h('p', { class: 'muted', text: t('app.tagline') }),
      game, kinds, level, hints, colour, timeControl, rated, name,
      dame || h('details', { class: 'rules-details', open: f.preset !== 'standard' || Object.keys(overrides(f.preset, o)).length > 0 },
        h('summary', {}, h('span', { text: t('home.rules') }), h('span', { class: 'muted', text: ` – ${presetName(f.preset)}` })),
        rules),
      start);

    // Drawn anew (the account known, the language changed): the focus stays where it was.
    const focused = document.activeElement && this.root.contains(document.activeElement) ? document.activeElement.id : null;
    mount(this.root, h('div', { class: 'home' }, form, this.side()));
    if (focused) this.root.querySelector(`#${CSS.escape(focused)}`)?.focus();
  }

  /** The side of the page: the games waiting for a move, this browser's games, more. */
  side() {
    const games = this.myGames().slice(0, 8);
    const mine = h('section', { class: 'card my-games', 'aria-labelledby': 'my-games-h' },
      h('h2', { id: 'my-games-h', text: t('home.yourGames') }),
      games.length === 0 ? h('p', { class: 'muted', text: t('home.noGames') })
        : h('ul', { class: 'game-links' }, ...games.map((g) => h('li', {},
          h('a', { href: `/game/${g.id}`, 'data-link': true },
            h('strong', { text: t('game.title', { id: g.id }) }),
            h('span', { class: 'muted', text: ` · ${t(`kind.${g.kind}.short`)}${g.colors && g.colors.length === 1 ? ` · ${colorName(g.colors[0])}` : ''} · ${rulesLabelOf(g.game, g.rules)}${this.states[g.id]?.clock ? ` · ${controlText(this.states[g.id].clock.control)}` : ''} · ${fmtDate(g.created)}` }),
            this.gameStatus(g))))));

    const more = h('section', { class: 'card more', 'aria-labelledby': 'more-h' },
      h('h2', { id: 'more-h', text: t('home.more') }),
      h('a', { class: 'more-link', href: '/archive', 'data-link': true },
        h('strong', { text: t('nav.archive') }), h('span', { class: 'muted', text: t('home.archive.text') })),
      h('a', { class: 'more-link', href: '/analysis', 'data-link': true },
        h('strong', { text: t('nav.analysis') }), h('span', { class: 'muted', text: t('home.analysis.text') })));

    return h('div', { class: 'home-side' }, this.yourTurnCard(), mine, more);
  }

  /**
   * The time control: untimed, a live preset, custom minutes and seconds
   * per move, or (online) days per move in a correspondence game.
   */
  timeControl() {
    const f = this.form;
    const corr = f.kind === 'online';
    if (!corr && /^\d+d$/.test(f.tc)) f.tc = '-';
    const opt = (value, text) => h('option', { value, selected: f.tc === value, text });
    const select = h('select', {
      id: 'time-control',
      onchange: (e) => { f.tc = e.target.value; this.render(); this.root.querySelector('#time-control').focus(); },
    },
    opt('-', t('tc.untimed')),
    ...LIVE_PRESETS.map((p) => opt(p, p)),
    opt('custom', t('tc.custom')),
    corr ? h('optgroup', { label: t('tc.correspondence') }, ...CORRESPONDENCE_DAYS.map((d) => opt(`${d}d`, controlText(`${d}d`)))) : null);
    const num = (id, key, label, attrs) => h('div', { class: 'field' },
      h('label', { for: id, text: label }),
      h('input', {
        id, type: 'number', value: f[key], required: true, ...attrs,
        oninput: (e) => { f[key] = e.target.value; this.root.querySelector('#tc-bad').hidden = validCustom(f.tcMinutes, f.tcIncrement); },
      }));
    const custom = f.tc === 'custom' ? h('div', { class: 'tc-custom' },
      num('tc-minutes', 'tcMinutes', t('tc.minutes'), { min: 0.25, max: 180, step: 0.25 }),
      num('tc-increment', 'tcIncrement', t('tc.increment'), { min: 0, max: 180, step: 1 }),
      h('p', { class: 'small error', id: 'tc-bad', hidden: validCustom(f.tcMinutes, f.tcIncrement), text: t('tc.bad') })) : null;
    return h('div', { class: 'field time-control' },
      h('label', { for: 'time-control', text: t('tc.label') }),
      select, custom,
      f.kind === 'local' && f.tc !== '-' ? h('p', { class: 'small muted', text: t('tc.hotSeat') }) : null);
  }

  /** The chosen time control as the server takes it (null: untimed; false: a bad custom one). */
  chosenControl() {
    const f = this.form;
    if (f.tc === '-') return null;
    if (f.tc === 'custom') return validCustom(f.tcMinutes, f.tcIncrement) ? `${Number(f.tcMinutes)}+${Number(f.tcIncrement)}` : false;
    return f.tc;
  }

  /** The Dame options: huffing in sight, the others under "more rules". */
  dameRules() {
    const f = this.form;
    const o = f.dame;
    const check = (id, key, label) => h('label', { class: 'check' },
      h('input', { id, type: 'checkbox', checked: !!o[key], onchange: (e) => { o[key] = e.target.checked; } }),
      h('span', { text: label }));
    const select = (id, key, label, values) => h('div', { class: 'field' },
      h('label', { for: id, text: label }),
      h('select', { id, onchange: (e) => { o[key] = e.target.value; } },
        ...values.map(([v, text]) => h('option', { value: v, selected: o[key] === v, text }))));
    const custom = Object.keys(dameOverrides(f.game, o)).filter((k) => k !== 'huffing').length > 0;
    return h('div', { class: 'dame-options' },
      h('fieldset', { class: 'rules' },
        h('legend', { text: t('home.rules') }),
        check('huffing', 'huffing', t('dame.opt.huffing'))),
      h('details', { class: 'rules-details', id: 'dame-advanced', open: custom },
        h('summary', {}, h('span', { text: t('home.advanced') }), h('span', { class: 'muted', text: ` – ${gameName(f.game)}` })),
        h('fieldset', { class: 'rules' },
          h('legend', { class: 'visually-hidden', text: t('home.advanced') }),
          check('men-capture-backward', 'men_capture_backward', t('dame.opt.backward')),
          check('majority', 'majority', t('dame.opt.majority')),
          select('king-landing', 'king_landing', t('dame.opt.landing'), [['behind', t('dame.opt.landing.behind')], ['anywhere', t('dame.opt.landing.anywhere')]]),
          select('king-capture', 'king_capture', t('dame.opt.capture'), [['long', t('dame.opt.capture.long')], ['short', t('dame.opt.capture.short')]]),
          select('promotion', 'promotion', t('dame.opt.promotion'), [['immediate', t('dame.opt.promotion.immediate')], ['end-of-move', t('dame.opt.promotion.end')]]),
          optionalNumber(o, 'king_moves', { id: 'king-moves', label: t('dame.opt.kingMoves'), unit: t('opt.plies'), min: 1, max: 65535, fallback: 50 }),
          optionalNumber(o, 'repetition', { id: 'dame-repetition', label: t('opt.repetition'), unit: t('opt.times'), min: 2, max: 255, fallback: 3 }),
          check('one-king-each', 'one_king_each', t('dame.opt.oneKingEach')),
          optionalNumber(o, 'king_vs_three', { id: 'king-vs-three', label: t('dame.opt.kingVsThree'), unit: t('opt.plies'), min: 1, max: 65535, fallback: 32 }),
          optionalNumber(o, 'king_vs_two', { id: 'king-vs-two', label: t('dame.opt.kingVsTwo'), unit: t('opt.plies'), min: 1, max: 65535, fallback: 10 }))));
  }

  async create() {
    if (this.busy) return;
    const f = this.form;
    const name = f.name.trim().slice(0, 40);
    store.setPlayerName(name);
    const dame = familyOf(f.game) === 'dame';
    const dameOpts = dame ? dameOverrides(f.game, f.dame) : {};
    const control = this.chosenControl();
    if (control === false) {
      toast(t('tc.bad'), 'error');
      this.root.querySelector('#tc-minutes')?.focus();
      return;
    }
    store.setLastSettings({
      tc: f.tc, tcMinutes: f.tcMinutes, tcIncrement: f.tcIncrement,
      kind: f.kind, level: f.level, color: f.color, preset: f.preset, options: overrides(f.preset, f.options),
      game: f.game, dameOptions: dame ? dameOpts : undefined,
    });
    // Mühle's board and moves while placing go in the rules text (the
    // create request's options do not take them).
    const { board, move_in_placing: moveInPlacing, ...muehleOpts } = dame ? {} : overrides(f.preset, f.options);
    const textOptions = [board && `board=${board}`, moveInPlacing !== undefined && `move-in-placing=${moveInPlacing ? 'on' : 'off'}`].filter(Boolean);
    const body = dame ? { game: f.game, kind: f.kind, rules: f.game } : { game: 'muehle', kind: f.kind, rules: [f.preset, ...textOptions].join(',') };
    const opts = dame ? dameOpts : muehleOpts;
    if (Object.keys(opts).length) body.options = opts;
    if (f.kind === 'computer') { body.level = f.level; store.setHintsDefault(f.hints); }
    if (f.kind !== 'local') body.color = f.color;
    if (name) body.name = name;
    if (control) body.time_control = control;
    if (f.kind === 'online' && f.rated && account()) body.rated = true;
    this.busy = true;
    this.render();
    try {
      const res = await api.createGame(body);
      for (const [c, tok] of Object.entries(res.tokens || {})) store.addSeat(res.id, c, tok);
      if (res.invite) store.setInvite(res.id, res.invite);
      if (f.kind === 'computer' && !f.hints) store.setHintsOff(res.id);
      const ruleText = [body.rules, ...Object.entries(opts).map(([k, v]) => `${k.replace(/_/g, '-')}=${v === null ? 'off' : v === true ? 'on' : v === false ? 'off' : v}`)].join(',');
      store.rememberGame({ id: res.id, kind: f.kind, colors: Object.keys(res.tokens || {}), rules: (res.state && res.state.rules) || ruleText, game: f.game });
      navigate(`/game/${res.id}`);
    } catch (e) {
      this.busy = false;
      this.render();
      toast(e.code === 'network' ? t('error.network') : t('error.generic', { message: e.message }), 'error');
    }
  }
}

/**
 * A rule that can be off (null) or a number, as a check box and a number
 * field (o: the options; key: the option; id: the number field's id, the
 * box's is id-on; a typed number below min is not taken; fallback: the
 * number when the box is ticked with none).
 */
function optionalNumber(o, key, { id, label, unit, min, max, fallback }) {
  const num = h('input', {
    id, type: 'number', min, max, value: o[key] ?? fallback, disabled: o[key] == null,
    'aria-label': `${label} (${unit})`,
    oninput: (e) => { const v = Number(e.target.value); if (v >= min) o[key] = v; },
  });
  return h('div', { class: 'check-num' },
    h('label', { class: 'check' },
      h('input', {
        id: `${id}-on`, type: 'checkbox', checked: o[key] != null,
        onchange: (e) => { o[key] = e.target.checked ? Number(num.value) || fallback : null; num.disabled = !e.target.checked; },
      }),
      h('span', { text: label })),
    num, h('span', { class: 'unit', text: unit }));
}
