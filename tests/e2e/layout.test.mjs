// Issue #12 §3: layout as players see it. (5) On a 390 px wide phone the
// game cards of the home page fit in every language and are all aligned
// alike; (10) the stones on the Mühle board's corners leave its coordinate
// labels free; (12d) at 1280×800 the player's own bar under the board is on
// the screen without scrolling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, shot, api, logErrorsAfter } from './helpers.mjs';

const suite = useServerAndBrowser('layout');

/** Elements of the page that reach past the viewport's right edge, and cards whose content overflows. */
function overflows() {
  const out = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.visually-hidden, [hidden]')) continue;
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
