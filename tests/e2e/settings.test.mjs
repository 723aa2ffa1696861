// The player's settings (the gear on the game page): sounds for a move, a
// capture, a mill and the game's end, which can be switched off; the
// boards' themes (classic, wood, high contrast) and the coordinates,
// kept in this browser over a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, api, waitMoves, logErrorsAfter, openNewGame } from './helpers.mjs';

const suite = useServerAndBrowser('settings');

const post = async (path, body) => {
  const r = await api(suite.server.url, 'POST', path, body);
  if (r.status !== 200 && r.status !== 201) throw new Error(`POST ${path} ${r.status}: ${JSON.stringify(r.data)}`);
  return r.data;
};

/** Plays `moves` in game `g` (both seats' tokens) from ply `from`, each once the page shows the one before. */
async function play(page, g, moves, from = 0) {
  for (const [i, mv] of moves.entries()) {
    const ply = from + i;
    await post(`/api/games/${g.id}/moves`, { move: mv, token: ply % 2 ? g.tokens.black : g.tokens.white, ply });
    await waitMoves(page, ply + 1);
  }
}

/** Counts the page's sounds by kind (the `brett:sound` events) and the tones Web Audio makes. */
async function countSounds(page) {
  await page.addInitScript(() => {
    window.sounds = {};
    window.tones = 0;
    addEventListener('brett:sound', (ev) => { window.sounds[ev.detail] = (window.sounds[ev.detail] || 0) + 1; });
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function createOscillator() { window.tones += 1; return make.call(this); };
  });
}

const sounds = (page) => page.evaluate(() => ({ ...window.sounds, tones: window.tones }));

async function openSettings(page) {
  if (!(await page.isVisible('#settings-panel'))) await page.click('#settings-button');
  await page.waitForSelector('#settings-panel');
}

test('sounds for a move, a mill, a capture and the end; none once switched off', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  await countSounds(page);
  try {
    // Mühle: four moves, then a mill.
    const mill = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local' });
    await page.waitForSelector('#move-list .empty');
    await play(page, mill, ['a7', 'g1', 'd7', 'g4']);
    let heard = await sounds(page);
    assert.equal(heard.move, 4, JSON.stringify(heard));
    assert.ok(heard.tones >= 4, JSON.stringify(heard));
    await play(page, mill, ['g7xg1'], 4);
    heard = await sounds(page);
    assert.deepEqual([heard.move, heard.mill, heard.capture, heard.end], [4, 1, undefined, undefined], JSON.stringify(heard));

    // Dame: a move each, then a capture, then the end (a resignation). Opening a game plays nothing.
    const dame = await openNewGame(page, suite.server.url, { game: 'dame', kind: 'local' });
    await page.waitForSelector('#move-list .empty');
    await play(page, dame, ['c3-d4', 'f6-e5']);
    await play(page, dame, ['d4xf6'], 2);
    await post(`/api/games/${dame.id}/resign`, { token: dame.tokens.black });
    await page.waitForSelector('.end-banner:not([hidden])');
    await page.waitForFunction(() => window.sounds.end === 1);
    heard = await sounds(page);
    assert.deepEqual([heard.move, heard.capture, heard.mill, heard.end], [2, 1, undefined, 1], JSON.stringify(heard));

    // Switched off in the settings: no sound, no tone; still off after a reload.
    await page.goto(`${suite.server.url}/game/${mill.id}`);
    await waitMoves(page, 5);
    await openSettings(page);
    assert.equal(await page.isChecked('#setting-sound'), true, 'sounds are on by default');
    await page.uncheck('#setting-sound');
    const before = await sounds(page);
    await play(page, mill, ['b6'], 5);
    await page.reload();
    await waitMoves(page, 6);
    await play(page, mill, ['a1'], 6);
    await page.waitForTimeout(200);
    heard = await sounds(page);
    assert.deepEqual(heard, { tones: 0 }, `after the reload: ${JSON.stringify(heard)}`);
    assert.deepEqual(before, { tones: before.tones }, 'nothing played while switching off');
    await openSettings(page);
    assert.equal(await page.isChecked('#setting-sound'), false);
  } catch (e) {
    await shot(page, 'settings-sounds-FAILED');
    throw e;
  }
});

/** The computed colours of `sel` (fill), parsed: [r, g, b]. */
const fillOf = (page, sel) => page.$eval(sel, (el) => {
  const m = /rgba?\(([^)]+)\)/.exec(getComputedStyle(el).fill);
  return m ? m[1].split(/[\s,]+/).slice(0, 3).map(Number) : getComputedStyle(el).fill;
});

/** WCAG contrast of two [r, g, b]. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('board themes change the boards\' colours and stay after a reload; high contrast pieces stand out', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'en-GB' });
  logErrorsAfter(t, page);
  try {
    const mill = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local' });
    await play(page, mill, ['a7', 'g1']);
    const classic = await fillOf(page, '.board-bg');
    await openSettings(page);
    assert.equal(await page.inputValue('#setting-theme'), 'classic');
    await page.selectOption('#setting-theme', 'wood');
    const wood = await fillOf(page, '.board-bg');
    assert.notDeepEqual(wood, classic, 'the wood board has other colours');
    const woodStone = await fillOf(page, '[data-point=a7] .stone .body');
    assert.ok(Array.isArray(woodStone), `a wood stone's fill: ${woodStone}`);
    await shot(page, 'settings-wood');
    await page.reload();
    await page.waitForSelector('[data-point=a7].has-stone');
    assert.deepEqual(await fillOf(page, '.board-bg'), wood, 'the theme stays after a reload');
    await openSettings(page);
    assert.equal(await page.inputValue('#setting-theme'), 'wood');

    // High contrast: both colours' pieces against the board at least 4.5:1.
    await page.selectOption('#setting-theme', 'contrast');
    const board = await fillOf(page, '.board-bg');
    assert.notDeepEqual(board, wood);
    for (const [theme, bg] of [['wood', wood], ['contrast', board]]) {
      await page.selectOption('#setting-theme', theme);
      const label = await fillOf(page, '.board .labels text');
      assert.ok(contrast(label, bg) >= 4.5, `${theme}: the coordinates ${label} on ${bg}: ${contrast(label, bg).toFixed(2)}:1`);
    }
    for (const p of ['a7', 'g1']) {
      const piece = await fillOf(page, `[data-point=${p}] .stone .body`);
      const ratio = contrast(piece, board);
      assert.ok(ratio >= 4.5, `Mühle ${p}: ${piece} on ${board}: ${ratio.toFixed(2)}:1`);
    }
    await shot(page, 'settings-contrast-muehle');

    // The Dame board follows the same choice.
    const dame = await openNewGame(page, suite.server.url, { game: 'dame', kind: 'local' });
    await page.waitForSelector('.dame-board [data-square].has-piece');
    const dark = await fillOf(page, '.dame-board .sq .cell');
    for (const side of ['white', 'black']) {
      const piece = await fillOf(page, `.dame-board .sq.${side}.has-piece .piece .body`);
      const ratio = contrast(piece, dark);
      assert.ok(ratio >= 4.5, `Dame ${side}: ${piece} on ${dark}: ${ratio.toFixed(2)}:1`);
    }
    await shot(page, 'settings-contrast-dame');
    // Every theme keeps its coordinates readable (4.5:1 to the squares they are on).
    await openSettings(page);
    for (const theme of ['contrast', 'wood', 'classic']) {
      await page.selectOption('#setting-theme', theme);
      const light = await fillOf(page, '.dame-board .light');
      const cell = await fillOf(page, '.dame-board .sq .cell');
      for (const [label, under] of [[await fillOf(page, '.dame-labels .on-dark'), cell], [await fillOf(page, '.dame-labels .on-light'), light]]) {
        assert.ok(contrast(label, under) >= 4.5, `${theme}: a label ${label} on ${under}: ${contrast(label, under).toFixed(2)}:1`);
      }
    }
    await page.selectOption('#setting-theme', 'classic');
    assert.notDeepEqual(await fillOf(page, '.dame-board .sq .cell'), dark, 'the classic Dame board differs');
    await page.selectOption('#setting-theme', 'wood');
    const woodDark = await fillOf(page, '.dame-board .sq .cell');
    assert.notDeepEqual(woodDark, dark);
    await page.selectOption('#setting-theme', 'classic');
    assert.notDeepEqual(await fillOf(page, '.dame-board .sq .cell'), woodDark);
    assert.ok(dame.id > mill.id);
  } catch (e) {
    await shot(page, 'settings-themes-FAILED');
    throw e;
  }
});

test('the coordinates can be hidden and shown, and stay so after a reload', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'fr-FR', width: 390, height: 844 });
  logErrorsAfter(t, page);
  const mill = await openNewGame(page, suite.server.url, { game: 'muehle', kind: 'local' });
  await page.waitForSelector('.board .labels text');
  assert.equal(await page.isVisible('.board .labels text >> nth=0'), true);
  await openSettings(page);
  assert.equal(await page.isChecked('#setting-coords'), true);
  await page.uncheck('#setting-coords');
  assert.equal(await page.isVisible('.board .labels text >> nth=0'), false, 'the coordinates are hidden');
  await page.reload();
  await page.waitForSelector('.board .labels text', { state: 'attached' });
  assert.equal(await page.isVisible('.board .labels text >> nth=0'), false, 'still hidden after a reload');
  // A 10×10 Dame board: no square numbers either.
  const dame = await openNewGame(page, suite.server.url, { game: 'international', kind: 'local' });
  await page.waitForSelector('.dame-board .num', { state: 'attached' });
  assert.equal(await page.isVisible('.dame-board .num >> nth=0'), false);
  await openSettings(page);
  await page.check('#setting-coords');
  assert.equal(await page.isVisible('.dame-board .num >> nth=0'), true, 'the square numbers are back');
  // A click elsewhere closes the panel.
  await page.click('.board-wrap', { position: { x: 5, y: 5 } });
  await page.waitForSelector('#settings-panel', { state: 'hidden' });
  // An 8×8 board: its files and ranks follow the switch.
  const small = await openNewGame(page, suite.server.url, { game: 'dame', kind: 'local' });
  await page.waitForSelector('.dame-board .labels text');
  assert.equal(await page.isVisible('.dame-board .labels text >> nth=0'), true);
  await openSettings(page);
  await page.uncheck('#setting-coords');
  assert.equal(await page.isVisible('.dame-board .labels text >> nth=0'), false, 'the 8×8 coordinates are hidden');
  assert.ok(small.id > dame.id && dame.id > mill.id);
});
