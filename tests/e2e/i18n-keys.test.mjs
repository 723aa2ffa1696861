// The four languages of web/i18n.js have the same keys, and every {param}
// of a text appears in its translations too (#12 §1: no text falls back to
// English unnoticed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.mjs';

const source = fs.readFileSync(path.join(ROOT, 'web', 'i18n.js'), 'utf8');

/** The table `name` of i18n.js as {key: text}, read from the source. */
function table(name) {
  const start = source.indexOf(`const ${name} = {`);
  assert.ok(start >= 0, `table ${name}`);
  const end = source.indexOf('\n};', start);
  const body = source.slice(start, end);
  const out = {};
  for (const m of body.matchAll(/^\s*'([^']+)':\s*(['"`])((?:\\.|(?!\2)[^\\])*)\2/gm)) out[m[1]] = m[3];
  return out;
}

test('de, en, fr and it have the same keys and the same parameters', () => {
  const tables = Object.fromEntries(['de', 'en', 'fr', 'it'].map((l) => [l, table(l)]));
  const en = tables.en;
  assert.ok(Object.keys(en).length > 300, `read ${Object.keys(en).length} English keys`);
  const params = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
  for (const [lang, tab] of Object.entries(tables)) {
    const missing = Object.keys(en).filter((k) => !(k in tab));
    const extra = Object.keys(tab).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(extra, [], `${lang} has keys English lacks`);
    const wrong = Object.keys(en).filter((k) => params(tab[k]) !== params(en[k]));
    assert.deepEqual(wrong, [], `${lang}: parameters differ from English`);
  }
});
