// brett's single page: header, language switch and a small router over the
// views (home, lobby, game, archive, analysis, puzzles, perfect play, log in, register, account,
// a player's page, the leaderboards),
// and who is logged in. The server sends index.html for
// every route, so the paths work as bookmarks and on reload.

import { LANGUAGES, lang, setLang, onLangChange, t } from './i18n.js';
import { HomeView } from './views/home.js';
import { GameView } from './views/game.js';
import { LobbyView } from './views/lobby.js';
import { ArchiveView } from './views/archive.js';
import { AnalysisView } from './views/analysis.js';
import { PuzzlesView } from './views/puzzles.js';
import { PerfectView } from './views/perfect.js';
import { setNavigator } from './nav.js';
import { loadCatalogue } from './catalogue.js';
import { LoginView, AccountView, logout } from './views/account.js';
import { ProfileView, LeaderboardView } from './views/profile.js';
import { startTurnWatch } from './turns.js';
import { api } from './api.js';
import { account, loadAccount, onAccountChange } from './account.js';
import { h, mount } from './dom.js';
import { applyBoardSettings } from './settings.js';

const main = document.getElementById('main');
let current = null;

function route(path) {
  let m;
  if ((m = path.match(/^\/game\/(\d+)\/?$/))) return { View: GameView, params: { id: Number(m[1]) }, nav: 'play' };
  if (/^\/lobby\/?$/.test(path)) return { View: LobbyView, params: {}, nav: 'lobby' };
  if (/^\/archive\/?$/.test(path)) return { View: ArchiveView, params: {}, nav: 'archive' };
  if (/^\/analysis\/?$/.test(path)) return { View: AnalysisView, params: {}, nav: 'analysis' };
  if ((m = path.match(/^\/puzzles(?:\/(\d+|[a-z0-9-]+))?\/?$/))) return { View: PuzzlesView, params: { id: m[1] ? (/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]) : null }, nav: 'puzzles' };
  if (/^\/perfect\/?$/.test(path)) return { View: PerfectView, params: {}, nav: 'perfect' };
  if (/^\/login\/?$/.test(path)) return { View: LoginView, params: { mode: 'login' }, nav: 'login' };
  if (/^\/register\/?$/.test(path)) return { View: LoginView, params: { mode: 'register' }, nav: 'register' };
  if (/^\/account\/?$/.test(path)) return { View: AccountView, params: {}, nav: 'account' };
  if ((m = path.match(/^\/players\/([^/]+)\/?$/))) return { View: ProfileView, params: { name: decodeURIComponent(m[1]) }, nav: 'profile' };
  if (/^\/leaderboard\/?$/.test(path)) return { View: LeaderboardView, params: {}, nav: 'leaderboard' };
  return { View: HomeView, params: {}, nav: 'play' };
}

function show() {
  if (current) current.destroy?.();
  // Each page draws into a box of its own: an answer that an earlier page
  // awaited, coming after that page was left, draws into a box no longer
  // shown instead of over this page.
  const root = h('div', { class: 'view' });
  main.replaceChildren(root);
  const { View, params, nav } = route(location.pathname);
  for (const a of document.querySelectorAll('#nav a, #account-nav a')) {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  current = new View(root, params);
  accountNav();
  setNavOpen(false);
}

/**
 * On narrow screens the main navigation folds into a menu button (CSS
 * decides when the button is shown); `open` shows or hides its list.
 */
function setNavOpen(open) {
  document.querySelector('.topbar').classList.toggle('nav-open', open);
  document.getElementById('nav-toggle').setAttribute('aria-expanded', String(open));
}

function initNavToggle() {
  const toggle = document.getElementById('nav-toggle');
  const bar = document.querySelector('.topbar');
  toggle.addEventListener('click', () => setNavOpen(!bar.classList.contains('nav-open')));
  // A link followed, a click elsewhere or Escape closes it.
  document.getElementById('nav').addEventListener('click', (ev) => { if (ev.target.closest('a')) setNavOpen(false); });
  document.addEventListener('click', (ev) => {
    if (bar.classList.contains('nav-open') && !ev.target.closest('#nav, #nav-toggle')) setNavOpen(false);
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && bar.classList.contains('nav-open')) {
      setNavOpen(false);
      toggle.focus();
    }
  });
}

function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  show();
  window.scrollTo(0, 0);
  main.focus({ preventScroll: true });
}

/** The header's account part: "Log in" and "Register" for a guest, else the name with its menu. */
function accountNav() {
  const box = document.getElementById('account-nav');
  const a = account();
  const nav = route(location.pathname).nav;
  const link = (href, key, id) => h('a', { href, 'data-link': true, id, 'data-nav': key, 'aria-current': nav === key ? 'page' : null, text: t(`account.${key}`) });
  if (!a) {
    mount(box, link('/login', 'login', 'login-link'), link('/register', 'register', 'register-link'));
    return;
  }
  const menu = h('details', { class: 'account-menu', id: 'account-menu' },
    h('summary', { 'aria-label': t('account.menu', { name: a.name }) }, h('span', { class: 'account-name', id: 'account-menu-name', text: a.name })),
    h('div', { class: 'menu' },
      h('a', { href: `/players/${encodeURIComponent(a.name)}`, 'data-link': true, id: 'profile-link', 'data-nav': 'profile', text: t('account.profile') }),
      link('/account', 'account', 'account-link'),
      h('a', { href: '/leaderboard', 'data-link': true, id: 'leaderboard-link', 'data-nav': 'leaderboard', text: t('nav.leaderboard') }),
      h('button', { type: 'button', class: 'linkish', id: 'logout-link', onclick: () => { menu.open = false; logout(); }, text: t('account.logout') })));
  menu.addEventListener('click', (ev) => { if (ev.target.closest('a')) menu.open = false; });
  mount(box, menu);
}

function relabel() {
  document.documentElement.lang = lang();
  document.getElementById('skip-link').textContent = t('skip');
  document.getElementById('nav').setAttribute('aria-label', t('nav.main'));
  for (const a of document.querySelectorAll('#nav a')) a.textContent = t(`nav.${a.dataset.nav}`);
  document.getElementById('nav-toggle-text').textContent = t('nav.menu');
  document.getElementById('lang-label').textContent = t('lang.label');
  const sel = document.getElementById('lang-select');
  sel.value = lang();
  accountNav();
}

function init() {
  setNavigator(navigate);
  initNavToggle();
  // The boards' theme and coordinates, as chosen in this browser.
  applyBoardSettings();
  const sel = document.getElementById('lang-select');
  for (const { code, name } of LANGUAGES) {
    const o = document.createElement('option');
    o.value = code;
    o.textContent = name;
    o.lang = code;
    sel.append(o);
  }
  // A language chosen on this page wins over the account's (which may come later).
  let chosenHere = false;
  sel.addEventListener('change', () => {
    chosenHere = true;
    setLang(sel.value);
    // A player with an account keeps the choice on every device.
    if (account()) api.setLanguage(sel.value).then((r) => { account().language = r.account.language; }, () => {});
  });
  onLangChange(() => {
    relabel();
    current?.relabel?.();
  });
  document.addEventListener('click', (ev) => {
    const a = ev.target.closest('a[data-link]');
    if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin) return;
    ev.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
  window.addEventListener('popstate', show);
  document.addEventListener('click', (ev) => {
    const menu = document.getElementById('account-menu');
    if (menu?.open && !menu.contains(ev.target)) menu.open = false;
  });
  onAccountChange((a) => {
    // The account's language, chosen on another device, wins over this browser's.
    if (a && a.language && a.language !== lang() && !chosenHere) setLang(a.language);
    accountNav();
  });
  startTurnWatch();
  loadAccount();
  relabel();
  show();
}

// The games come from the server's catalogue: no view shows before it is here.
loadCatalogue().then(init, (e) => {
  main.textContent = t('error.generic', { message: e.message });
});
