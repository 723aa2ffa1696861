// brett's single page: header, language switch and a small router over the
// views (home, game, archive, analysis, puzzles). The server sends index.html for
// every route, so the paths work as bookmarks and on reload.

import { LANGUAGES, lang, setLang, onLangChange, t } from './i18n.js';
import { HomeView } from './views/home.js';
import { GameView } from './views/game.js';
import { ArchiveView } from './views/archive.js';
import { AnalysisView } from './views/analysis.js';
import { PuzzlesView } from './views/puzzles.js';
import { setNavigator } from './nav.js';
import { loadCatalogue } from './catalogue.js';

const main = document.getElementById('main');
let current = null;

function route(path) {
  let m;
  if ((m = path.match(/^\/game\/(\d+)\/?$/))) return { View: GameView, params: { id: Number(m[1]) }, nav: 'play' };
  if (/^\/archive\/?$/.test(path)) return { View: ArchiveView, params: {}, nav: 'archive' };
  if (/^\/analysis\/?$/.test(path)) return { View: AnalysisView, params: {}, nav: 'analysis' };
  if ((m = path.match(/^\/puzzles(?:\/(\d+))?\/?$/))) return { View: PuzzlesView, params: { id: m[1] ? Number(m[1]) : null }, nav: 'puzzles' };
  return { View: HomeView, params: {}, nav: 'play' };
}

function show() {
  if (current) current.destroy?.();
  main.replaceChildren();
  const { View, params, nav } = route(location.pathname);
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  current = new View(main, params);
}

function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  show();
  window.scrollTo(0, 0);
  main.focus({ preventScroll: true });
}

function relabel() {
  document.documentElement.lang = lang();
  document.getElementById('skip-link').textContent = t('skip');
  document.getElementById('nav').setAttribute('aria-label', t('nav.main'));
  for (const a of document.querySelectorAll('#nav a')) a.textContent = t(`nav.${a.dataset.nav}`);
  document.getElementById('lang-label').textContent = t('lang.label');
  const sel = document.getElementById('lang-select');
  sel.value = lang();
}

function init() {
  setNavigator(navigate);
  const sel = document.getElementById('lang-select');
  for (const { code, name } of LANGUAGES) {
    const o = document.createElement('option');
    o.value = code;
    o.textContent = name;
    o.lang = code;
    sel.append(o);
  }
  sel.addEventListener('change', () => setLang(sel.value));
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
  relabel();
  show();
}

// The games come from the server's catalogue: no view shows before it is here.
loadCatalogue().then(init, (e) => {
  main.textContent = t('error.generic', { message: e.message });
});
