// The contrast table of the boards and pages, in the light and the dark
// colour scheme and in each board theme: the lowest ratio of any text of the
// home and game pages (WCAG 1.4.3: 4.5:1), of the board coordinates (4.5:1),
// and of each move marker against the board under it (WCAG 1.4.11, graphics
// that carry information: 3:1). The figures are printed as the test's
// diagnostics (docs/RESULTS.md keeps them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPage, api, logErrorsAfter, openWithSeats } from './helpers.mjs';
import { lowContrast } from './contrast.mjs';

const suite = useServerAndBrowser('contrast-table');

async function play(body, moves) {
  const { data } = await api(suite.server.url, 'POST', '/api/games', body);
  for (const [i, mv] of moves.entries()) {
    const r = await api(suite.server.url, 'POST', `/api/games/${data.id}/moves`, { move: mv, token: i % 2 ? data.tokens.black : data.tokens.white, ply: i });
    assert.equal(r.status, 200, JSON.stringify(r.data));
  }
  return data;
}

const MUEHLE_MARKS = [
  { name: 'Mühle: last move', selector: 'svg.board .pt.last .mark', prop: 'stroke', over: '--board' },
  { name: 'Mühle: legal target', selector: 'svg.board .pt.is-target .target', prop: 'fill', over: '--board' },
];
const DAME_MARKS = [
  { name: 'Dame: last move', selector: '.dame-board .sq.last .mark', prop: 'stroke', over: '--dame-dark' },
  { name: 'Dame: legal target', selector: '.dame-board .sq.is-target .target', prop: 'fill', over: '--dame-dark' },
];

/** The lowest ratio of the texts on the page. */
const lowestText = async (page) => Math.min(...(await page.evaluate(lowContrast, 1000)).map((b) => b.ratio));

/** The coordinate labels' selectors, each with the colour under it. */
const coordinates = (page, sel) => page.$$eval(sel, (els) => els.map((el) => ({
  selector: el.closest('.dame-board') ? `.dame-board .dame-labels text${el.classList.contains('on-dark') ? '.on-dark' : ':not(.on-dark)'}` : 'svg.board .labels text',
  over: el.closest('.dame-board') ? (el.classList.contains('on-dark') ? '--dame-dark' : '--dame-light') : '--board',
})));

test('contrast table: texts, coordinates and move markers in both schemes and every theme', async (t) => {
  const mill = await play({ game: 'muehle', kind: 'local' }, ['a7', 'b6', 'd7']);
  const dame = await play({ game: 'dame', kind: 'local' }, ['c3-d4', 'f6-e5']);
  const rows = [];
  const failures = [];
  for (const theme of ['classic', 'wood', 'contrast']) {
    for (const scheme of ['light', 'dark']) {
      const { page, context } = await newPage(suite.browser, { locale: 'de-DE' });
      logErrorsAfter(t, page);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(suite.server.url);
      await page.evaluate((th) => localStorage.setItem('brett.board.theme', JSON.stringify(th)), theme);
      const row = { theme, scheme, text: Infinity, coordinates: Infinity, marks: {} };
      for (const [g, labels, marks] of [[mill, 'svg.board .labels text', MUEHLE_MARKS], [dame, '.dame-board .dame-labels text', DAME_MARKS]]) {
        await openWithSeats(page, suite.server.url, g);
        await page.waitForSelector(labels);
        // Dame: White must take with d4; its piece chosen shows the target.
        if (g === dame) await page.click('.dame-board [data-square="d4"]');
        for (const m of marks) await page.waitForSelector(m.selector);
        row.text = Math.min(row.text, await lowestText(page));
        const coords = await coordinates(page, labels);
        const uniq = [...new Map(coords.map((c) => [c.selector, c])).values()];
        const measured = await page.evaluate(lowContrast, [
          ...uniq.map((c) => ({ name: 'coordinates', selector: c.selector, prop: 'fill', over: c.over })),
          ...marks,
        ]);
        for (const m of measured) {
          if (m.name === 'coordinates') row.coordinates = Math.min(row.coordinates, m.ratio);
          else row.marks[m.name] = m.ratio;
        }
      }
      rows.push(row);
      if (row.text < 4.5) failures.push(`${theme} ${scheme}: text ${row.text}:1`);
      if (row.coordinates < 4.5) failures.push(`${theme} ${scheme}: coordinates ${row.coordinates}:1`);
      for (const [name, r] of Object.entries(row.marks)) {
        if (r === null || r < 3) failures.push(`${theme} ${scheme}: ${name} ${r}:1`);
      }
      await context.close();
    }
  }
  const names = Object.keys(rows[0].marks);
  t.diagnostic(`| theme | scheme | text (lowest) | coordinates (lowest) | ${names.join(' | ')} |`);
  for (const r of rows) {
    t.diagnostic(`| ${r.theme} | ${r.scheme} | ${r.text.toFixed(2)} | ${r.coordinates.toFixed(2)} | ${names.map((n) => r.marks[n]?.toFixed(2)).join(' | ')} |`);
  }
  assert.deepEqual(failures, []);
});
