// Issue #12 §3: layout as players see it. (5) On a 390 px wide phone the
// game cards of the home page fit in every language and are all aligned
// alike; (10) the stones on the Mühle board's corners leave its coordinate
// labels free; (12d) at 1280×800 the player's own bar under the board is on
// the screen without scrolling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, api, logErrorsAfter, openNewGame } from './helpers.mjs';

const suite = useServerAndBrowser('layout');

/** Elements of the page that reach past the viewport's right edge, and cards whose content overflows. */
function overflows() {
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.visually-hidden, [hidden]')) continue;
    // The content of a closed <details> is not drawn (Chromium 15x gives it boxes all the same).
    const shut = el.closest('details:not([open])');
    if (shut && shut !== el && !el.closest('summary')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > vw + 0.5 || r.left < -0.5) out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" spans ${Math.round(r.left)}–${Math.round(r.right)}`);
  }
  for (const card of document.querySelectorAll('.game-choice .choice-body')) {
    if (card.scrollWidth > card.clientWidth) out.push(`card "${card.textContent}" ${card.scrollWidth} > ${card.clientWidth}`);
  }
  return out;
}

/**
 * How each game card's text lines sit in it: 'left' (every line starts at
 * the content's left edge) or 'centre' (every line centred); lines as wide
 * as the card tell nothing.
 */
function cardAlignments() {
  return [...document.querySelectorAll('.game-choice .choice-body')].map((card) => {
    const cs = getComputedStyle(card);
    const box = card.getBoundingClientRect();
    const left = box.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
    const right = box.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
    const kinds = new Set();
    for (const child of card.children) {
      const range = document.createRange();
      range.selectNodeContents(child);
      for (const line of range.getClientRects()) {
        const atLeft = Math.abs(line.left - left) < 2;
        const centred = Math.abs((line.left + line.right) / 2 - (left + right) / 2) < 2;
        if (atLeft && centred) continue;
        kinds.add(atLeft ? 'left' : centred ? 'centre' : `other (${Math.round(line.left - left)} px in)`);
      }
    }
    return { card: card.querySelector('strong').textContent, kinds: [...kinds] };
  });
}

for (const [width, height] of [[390, 844], [768, 1024], [1280, 800]]) {
  test(`the game cards fit a ${width} px wide screen in every language and are aligned alike`, async (t) => {
    await gameCards(t, width, height);
  });
}

async function gameCards(t, width, height) {
  const { page } = await newPage(suite.browser, { locale: 'de-DE', width, height });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  const problems = [];
  for (const lang of ['de', 'en', 'fr', 'it']) {
    await page.selectOption('#lang-select', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    for (const game of ['muehle', 'international']) {
      await page.click(`input[name=game][value=${game}]`);
      for (const o of await page.evaluate(overflows)) problems.push(`${lang} ${game}: ${o}`);
      const aligns = await page.evaluate(cardAlignments);
      const kinds = new Set(aligns.flatMap((a) => a.kinds));
      if (kinds.size !== 1) problems.push(`${lang} ${game}: cards aligned differently: ${JSON.stringify(aligns)}`);
    }
    await shot(page, `layout-home-${width}-${lang}`);
  }
  assert.deepEqual(problems, []);
}

/** Creates a game through the API and opens it in the page with its seats. */
const openGame = (page, body) => openNewGame(page, suite.server.url, body);

test('stones on the Mühle board\'s corners leave the coordinate labels free', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE' });
  logErrorsAfter(t, page);
  // Stones on all four corners: a7, g7 (White), a1, g1 (Black).
  await openGame(page, { game: 'muehle', kind: 'local', position: 'W.W/.../.../....../.../.../B.B w 7 7 0 3' });
  await page.waitForSelector('.board [data-point=a1].has-stone');
  const overlaps = async () => page.evaluate(() => {
    const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => ({ e, r: e.getBoundingClientRect() }));
    const stones = boxes('.board .pt.has-stone .stone .body');
    const labels = boxes('.board .labels text');
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const out = [];
    for (const l of labels) {
      for (const s of stones) {
        if (hit(l.r, s.r)) out.push(`label ${l.e.textContent} under the stone on ${s.e.closest('.pt').dataset.point}`);
      }
    }
    if (stones.length !== 4 || labels.length !== 14) out.push(`${stones.length} stones, ${labels.length} labels`);
    return out;
  });
  assert.deepEqual(await overlaps(), []);
  await shot(page, 'layout-mill-labels');
  // The same on the turned board.
  await page.click('#flip');
  assert.deepEqual(await overlaps(), []);
});

for (const game of ['muehle', 'dame', 'international']) {
  test(`at 1280×800 the player's own bar under the board is on the screen (${game})`, async (t) => {
    const { page } = await newPage(suite.browser, { locale: 'de-DE', width: 1280, height: 800 });
    logErrorsAfter(t, page);
    await openGame(page, { game, kind: 'local' });
    await page.waitForSelector('.player-bar.bottom .name');
    const where = await page.evaluate(() => {
      const r = document.querySelector('.player-bar.bottom').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: innerHeight, scrollY };
    });
    await shot(page, `layout-own-bar-${game}`);
    assert.equal(where.scrollY, 0);
    assert.ok(where.top >= 0 && where.bottom <= where.height, `the bar spans ${where.top}–${where.bottom} of ${where.height}`);
  });
}

// Clocks (#32): next to the players on a phone and at 1280×800, in every
// language, with the longest times (three hours, fourteen days); the time
// control's own fields on the home page fit a phone too.
for (const [width, height] of [[390, 844], [1280, 800]]) {
  test(`the clocks fit next to the players at ${width}×${height}`, async (t) => {
    const { page } = await newPage(suite.browser, { locale: 'de-DE', width, height });
    logErrorsAfter(t, page);
    const problems = [];
    await page.goto(suite.server.url);
    await page.selectOption('#time-control', 'custom');
    for (const o of await page.evaluate(overflows)) problems.push(`home, custom time control: ${o}`);
    for (const [game, kind, control] of [['muehle', 'local', '180+180'], ['international', 'online', '14d']]) {
      await openGame(page, { game, kind, color: 'white', name: 'Annemarie-Luise', time_control: control });
      await page.waitForSelector('.player-bar.bottom .clock');
      for (const lang of ['de', 'en', 'fr', 'it']) {
        await page.selectOption('#lang-select', lang);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
        for (const o of await page.evaluate(overflows)) problems.push(`${game} ${control} ${lang}: ${o}`);
        const boxes = await page.evaluate(() => [...document.querySelectorAll('.player-bar')].map((bar) => {
          const b = bar.getBoundingClientRect();
          const c = bar.querySelector('.clock').getBoundingClientRect();
          const who = bar.querySelector('.who').getBoundingClientRect();
          return { bar: [b.left, b.right, b.top, b.bottom], clock: [c.left, c.right, c.top, c.bottom], who: who.right, text: bar.querySelector('.clock').textContent };
        }));
        for (const { bar, clock, who, text } of boxes) {
          if (clock[0] < bar[0] || clock[1] > bar[1] || clock[2] < bar[2] || clock[3] > bar[3]) problems.push(`${game} ${lang}: clock "${text}" out of its bar`);
          if (who > clock[0]) problems.push(`${game} ${lang}: the name runs into the clock "${text}"`);
        }
        if (width === 1280) {
          const where = await page.evaluate(() => {
            const r = document.querySelector('.player-bar.bottom').getBoundingClientRect();
            return { bottom: r.bottom, height: innerHeight, scrollY };
          });
          if (where.scrollY !== 0 || where.bottom > where.height) problems.push(`${game} ${lang}: the own bar ends at ${where.bottom} of ${where.height}`);
        }
      }
      await shot(page, `layout-clocks-${width}-${game}`);
    }
    assert.deepEqual(problems, []);
  });
}

// The gear's panel opens on the screen at 390 px in every language, also
// when the title row wraps and the gear is alone on its last line (a
// connection notice that fills a line of its own).
test('the settings panel opens on the screen at 390×844, also when the title row wraps', async (t) => {
  const { page } = await newPage(suite.browser, { locale: 'de-DE', width: 390, height: 844 });
  logErrorsAfter(t, page);
  await openGame(page, { game: 'international', kind: 'online', color: 'white', name: 'Annemarie-Luise', time_control: '14d' });
  await page.waitForSelector('.player-bar.bottom .clock');
  const problems = [];
  for (const lang of ['de', 'en', 'fr', 'it']) {
    await page.selectOption('#lang-select', lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    for (const wrapped of [false, true]) {
      if (wrapped) {
        await page.evaluate(() => { document.querySelector('.title-row .conn').textContent = 'Verbindung unterbrochen – verbinde neu … '.repeat(3); });
      }
      const rows = await page.evaluate(() => {
        const tops = [...document.querySelector('.title-row').children].filter((e) => e.getClientRects().length).map((e) => Math.round(e.getBoundingClientRect().top));
        return new Set(tops).size;
      });
      if (wrapped && rows < 3) problems.push(`${lang}: the title row did not wrap to a line of the gear's own (${rows} lines)`);
      await page.click('#settings-button');
      await page.waitForFunction(() => document.querySelector('#settings').open);
      const r = await page.evaluate(() => {
        const b = document.querySelector('#settings-panel').getBoundingClientRect();
        return [b.left, b.right, b.top, b.bottom, innerWidth];
      });
      if (r[0] < 0 || r[1] > r[4]) problems.push(`${lang}${wrapped ? ', wrapped' : ''}: the panel spans ${Math.round(r[0])}–${Math.round(r[1])} of ${r[4]}`);
      for (const o of await page.evaluate(overflows)) problems.push(`${lang}${wrapped ? ', wrapped' : ''}: ${o}`);
      if (wrapped) await shot(page, `layout-settings-390-${lang}`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('#settings').open);
    }
  }
  assert.deepEqual(problems, []);
});

test('at 1280×800 "Start game" is on the screen without scrolling, and each level says how it plays', async (t) => {
  const { page, context } = await newPage(suite.browser, { locale: 'de-DE', width: 1280, height: 800 });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  await page.click('input[name=kind][value=computer]');
  await page.waitForSelector('#level');
  for (const kind of ['computer', 'online']) {
    await page.click(`input[name=kind][value=${kind}]`);
    const start = await page.locator('#start').boundingBox();
    assert.ok(start && start.y >= 0 && start.y + start.height <= 800, `${kind}: #start at ${JSON.stringify(start)}`);
  }
  await page.click('input[name=kind][value=computer]');
  await page.fill('#level', '3');
  assert.equal(await page.textContent('#level-out'), 'Stufe 3');
  assert.equal(await page.textContent('#level-desc'), 'sieht die direkten Drohungen des Gegners');
  await page.fill('#level', '10');
  assert.equal(await page.textContent('#level-desc'), 'volle Stärke');
  assert.equal(await page.getAttribute('#level', 'aria-describedby'), 'level-desc');
  await shot(page, 'layout-home-1280');
  await context.close();
});

for (const [width, height, locale] of [[390, 844, 'de-DE'], [768, 1024, 'fr-FR']]) {
  test(`at ${width} px the navigation folds into a menu button; the bar stays one row (${locale})`, async (t) => {
    const { page, context } = await newPage(suite.browser, { locale, width, height });
    logErrorsAfter(t, page);
    await page.goto(`${suite.server.url}/analysis`);
    await page.waitForSelector('svg.board');
    const bar = await page.locator('.topbar').boundingBox();
    assert.ok(bar.height < 64, `one row: ${bar.height} px`);
    assert.ok(await page.isHidden('#nav a[data-nav=archive]'), 'the links are folded away');
    const toggle = page.locator('#nav-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    // Its name says what it is, in the page's language (the text is hidden under 460 px but read).
    assert.equal((await toggle.textContent()).trim(), locale === 'de-DE' ? 'Menü' : 'Menu');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.locator('#nav a[data-nav=archive]').waitFor();
    assert.equal(await page.getAttribute('#nav a[data-nav=analysis]', 'aria-current'), 'page');
    assert.deepEqual(await page.evaluate(overflows), []);
    await shot(page, `layout-menu-${width}`);
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    assert.ok(await page.isHidden('#nav a[data-nav=archive]'));
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'nav-toggle');
    // A click elsewhere closes it; a link followed closes it.
    await toggle.click();
    await page.mouse.click(width / 2, height - 20);
    assert.ok(await page.isHidden('#nav a[data-nav=archive]'));
    await toggle.click();
    await page.click('#nav a[data-nav=archive]');
    await page.waitForURL(/\/archive$/);
    assert.ok(await page.isHidden('#nav a[data-nav=archive]'));
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await context.close();
  });
}

test('at 1280 px the navigation is shown in the bar and there is no menu button', async (t) => {
  const { page, context } = await newPage(suite.browser, { locale: 'en-GB', width: 1280, height: 800 });
  logErrorsAfter(t, page);
  await page.goto(suite.server.url);
  assert.ok(await page.isHidden('#nav-toggle'));
  for (const nav of ['play', 'lobby', 'archive', 'analysis', 'puzzles', 'perfect']) assert.ok(await page.isVisible(`#nav a[data-nav=${nav}]`), nav);
  await context.close();
});
