// Issue #12 §3 item 4: every visible text of the home page and the game page
// (move list with the current move and a huff marker, player bars, status,
// controls) has a contrast of at least 4.5:1 (WCAG AA) to its background, in
// the light and in the dark colour scheme.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, api, waitMoves, logErrorsAfter, openWithSeats } from './helpers.mjs';
import { lowContrast } from './contrast.mjs';

const suite = useServerAndBrowser('contrast');

async function check(page, what, failures) {
  const bad = await page.evaluate(lowContrast, 4.5);
  for (const b of bad) failures.push(`${what}: "${b.text}" ${b.where} ${b.fg} on ${b.bg} = ${b.ratio}:1`);
}

/** A local Dame game with huffing where Black's last move comes after a huff. */
async function huffGame() {
  const { data } = await api(suite.server.url, 'POST', '/api/games', {
    game: 'dame', kind: 'local', options: { huffing: true }, position: 'W:Wa1,c3,g3:Bb8,d4,h8',
  });
  const { tokens, id } = data;
  let r = await api(suite.server.url, 'POST', `/api/games/${id}/moves`, { move: 'g3-h4', token: tokens.white, ply: 0 });
  assert.equal(r.status, 200, JSON.stringify(r.data));
  r = await api(suite.server.url, 'POST', `/api/games/${id}/moves`, { move: 'Hc3 d4-c3', token: tokens.black, ply: 1 });
  assert.equal(r.status, 200, JSON.stringify(r.data));
  return data;
}

/** A local Mühle game with a mill and a few moves. */
async function millGame() {
  const { data } = await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local' });
  const { tokens, id } = data;
  for (const [i, mv] of ['a7', 'b6', 'd7', 'd6', 'g7xb6', 'f4'].entries()) {
    const r = await api(suite.server.url, 'POST', `/api/games/${id}/moves`, { move: mv, token: i % 2 ? tokens.black : tokens.white, ply: i });
    assert.equal(r.status, 200, JSON.stringify(r.data));
  }
  return data;
}

for (const scheme of ['light', 'dark']) {
  test(`text contrast is at least 4.5:1 on the home and game pages (${scheme})`, async (t) => {
    const { page } = await newPage(suite.browser, { locale: 'de-DE' });
    logErrorsAfter(t, page);
    await page.emulateMedia({ colorScheme: scheme });
    const failures = [];
    const dame = await huffGame();
    const mill = await millGame();

    // The home page with both games' forms and the list of this browser's games.
    await openWithSeats(page, suite.server.url, mill);
    await page.evaluate((g) => localStorage.setItem('brett.games', JSON.stringify([
      { id: g.mill.id, kind: 'local', colors: ['white', 'black'], rules: 'standard' },
      { id: g.dame.id, kind: 'local', colors: ['white', 'black'], rules: 'dame' },
    ])), { mill, dame });
    await page.goto(suite.server.url);
    await page.waitForSelector('#start');
    await check(page, 'home (Mühle)', failures);
    await page.click('input[name=game][value=dame]');
    await page.waitForSelector('h1:has-text("Dame")');
    await check(page, 'home (Dame)', failures);

    // A Mühle game: the move list with the current (last) move and a mill.
    await openWithSeats(page, suite.server.url, mill);
    await waitMoves(page, 6);
    await page.waitForSelector('#move-list button.move.current');
    await check(page, 'Mühle game', failures);
    // An error message (a refused typed move).
    await page.fill('#move-input', 'a7');
    await page.press('#move-input', 'Enter');
    await page.waitForSelector('#toast.show.error');
    await check(page, 'Mühle game, error message', failures);
    // Replaying: another move is the current one.
    await page.click('#move-list button.move[data-ply="5"]');
    await page.waitForSelector('#move-list button.move[data-ply="5"].current');
    await check(page, 'Mühle game, replay', failures);

    // A game on the clock: both clocks red under 20 s, the running one on red.
    const timed = (await api(suite.server.url, 'POST', '/api/games', { game: 'muehle', kind: 'local', time_control: '0.25+0' })).data;
    for (const [i, mv] of ['d6', 'f4'].entries()) {
      const r = await api(suite.server.url, 'POST', `/api/games/${timed.id}/moves`, { move: mv, token: i % 2 ? timed.tokens.black : timed.tokens.white, ply: i });
      assert.equal(r.status, 200, JSON.stringify(r.data));
    }
    await openWithSeats(page, suite.server.url, timed);
    await page.waitForSelector('#clock-white.running.low');
    await page.waitForSelector('#clock-black.low');
    await check(page, 'game on the clock, low time', failures);

    // A Dame game whose last move carries a huff: the marker on the current move…
    await openWithSeats(page, suite.server.url, dame);
    await waitMoves(page, 2);
    await page.waitForSelector('#move-list button.move.current .huff');
    await check(page, 'Dame game, huff on the current move', failures);
    // … and on a move that is not the current one (an odd row).
    await page.click('#move-list button.move[data-ply="1"]');
    await page.waitForSelector('#move-list button.move[data-ply="1"].current');
    await check(page, 'Dame game, huff on another move', failures);
    await shot(page, `contrast-${scheme}`);

    // The end of a game: the result in the status card.
    await page.click('#nav-last');
    await page.click('#resign');
    await page.click('dialog .btn.primary');
    await page.waitForSelector('.status-line.over');
    await check(page, 'Dame game over', failures);

    assert.deepEqual(failures, []);
  });
}

test('the board coordinates have 4.5:1 contrast in both schemes and are readable on a phone', async (t) => {
  const dame = await huffGame();
  const mill = await millGame();
  const failures = [];
  for (const [scheme, width, height] of [['light', 1280, 800], ['dark', 1280, 800], ['light', 390, 844]]) {
    const { page, context } = await newPage(suite.browser, { locale: 'de-DE', width, height });
    logErrorsAfter(t, page);
    await page.emulateMedia({ colorScheme: scheme });
    for (const [g, sel] of [[mill, 'svg.board .labels text'], [dame, '.dame-board .dame-labels text']]) {
      await openWithSeats(page, suite.server.url, g);
      await page.waitForSelector(sel);
      // The labels are measured once the board is laid out (a board drawn
      // before its container is shown measures 0 px for a moment).
      await page.waitForFunction((s) => [...document.querySelectorAll(s)].every((e) => e.getBoundingClientRect().height > 0), sel);
      const labels = await page.$$eval(sel, (els) => {
        const rgb = (c) => {
          const m = /rgba?\(([^)]+)\)/.exec(c) || [];
          return (m[1] || '0,0,0').split(/[\s,]+/).map(Number);
        };
        const probe = document.createElement('div');
        document.body.append(probe);
        const varColor = (name) => { probe.style.color = `var(${name})`; return rgb(getComputedStyle(probe).color); };
        const lum = ([r, g, b]) => {
          const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
          return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        const out = els.map((el) => {
          const bgVar = el.closest('.dame-board') ? (el.classList.contains('on-dark') ? '--dame-dark' : '--dame-light') : '--board';
          const cs = getComputedStyle(el);
          return { text: el.textContent, ratio: ratio(rgb(cs.fill), varColor(bgVar)) * 1, height: el.getBoundingClientRect().height };
        });
        probe.remove();
        return out;
      });
      for (const l of labels) {
        if (l.ratio < 4.5) failures.push(`${scheme} ${width}: ${sel} "${l.text}" ${l.ratio.toFixed(2)}:1`);
        if (l.height < 11) failures.push(`${scheme} ${width}: ${sel} "${l.text}" ${l.height.toFixed(1)} px high`);
      }
    }
    await context.close();
  }
  assert.deepEqual(failures, []);
});
