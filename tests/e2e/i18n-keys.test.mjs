// The four languages of web/i18n/ (de.js, en.js, fr.js, it.js) have the same
// keys, and every {param} of a text appears in its translations too (#12 §1:
// no text falls back to English unnoticed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import de from '../../web/i18n/de.js';
import en from '../../web/i18n/en.js';
import fr from '../../web/i18n/fr.js';
import it from '../../web/i18n/it.js';

test('de, en, fr and it have the same keys and the same parameters', () => {
  const tables = { de, en, fr, it };
  assert.ok(Object.keys(en).length > 300, `read ${Object.keys(en).length} English keys`);
  // (`{color.pl}`: the parameter `color` in another form.)
  const params = (text) => [...new Set([...text.matchAll(/\{(\w+)(?:\.\w+)?\}/g)].map((m) => m[1]))].sort().join(',');
  for (const [lang, tab] of Object.entries(tables)) {
    const missing = Object.keys(en).filter((k) => !(k in tab));
    const extra = Object.keys(tab).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(extra, [], `${lang} has keys English lacks`);
    const wrong = Object.keys(en).filter((k) => params(tab[k]) !== params(en[k]));
    assert.deepEqual(wrong, [], `${lang}: parameters differ from English`);
    // A key named twice in a file would silently keep only its last text.
    const source = fs.readFileSync(new URL(`../../web/i18n/${lang}.js`, import.meta.url), 'utf8');
    const named = [...source.matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1]);
    assert.deepEqual(named.filter((k, i) => named.indexOf(k) !== i), [], `${lang}: keys named twice`);
  }
});
