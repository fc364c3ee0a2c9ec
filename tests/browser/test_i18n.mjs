// The three languages carry the same texts with the same placeholders, and the
// notation helpers speak each language's piece letters.

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB_ROOT } from './harness.mjs';

const load = (l) => JSON.parse(fs.readFileSync(path.join(WEB_ROOT, 'i18n', `${l}.json`), 'utf8'));
const en = load('en'); const ru = load('ru'); const bg = load('bg');

test('every language has every key, with the same placeholders', () => {
  const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
  for (const [name, d] of [['ru', ru], ['bg', bg]]) {
    assert.deepEqual(Object.keys(d).sort(), Object.keys(en).sort(), `${name} keys`);
    for (const k of Object.keys(en)) assert.equal(holes(d[k]), holes(en[k]), `${name} ${k}`);
  }
});

test('translations are translated, not copied', () => {
  // Short codes and letters may coincide; sentences must not.
  for (const [name, d] of [['ru', ru], ['bg', bg]]) {
    const same = Object.keys(en).filter((k) => en[k].length > 12 && d[k] === en[k]);
    assert.deepEqual(same, [], `${name} has English sentences`);
  }
});

test('every error code the server answers with has a text in each language', () => {
  // server/errors.c is the one map from failures to the codes of error bodies;
  // a code without an error.<code> text reaches the reader in the server's English.
  const src = fs.readFileSync(path.join(WEB_ROOT, '..', 'server', 'errors.c'), 'utf8');
  const codes = [...src.matchAll(/\{[A-Z_()]+, \d{3}, "([a-z_]+)"\}/g)].map((m) => m[1]);
  assert.ok(codes.length > 30, `found ${codes.length} codes`);
  const missing = [...new Set(codes)].filter((c) => !(`error.${c}` in en));
  assert.deepEqual(missing, []);
});

test('piece letters per language (Appendix C national letters)', () => {
  const letters = (d) => ['K', 'Q', 'R', 'B', 'N'].map((p) => d[`piece.${p}`]).join(' ');
  assert.equal(letters(en), 'K Q R B N');
  assert.equal(letters(ru), 'Кр Ф Л С К');
  assert.equal(letters(bg), 'Ц Д Т О К');
});

test('every key the pages use exists in English', () => {
  const used = new Set();
  for (const dir of ['', 'js']) {
    for (const f of fs.readdirSync(path.join(WEB_ROOT, dir))) {
      if (!/\.(html|js)$/.test(f)) continue;
      const src = fs.readFileSync(path.join(WEB_ROOT, dir, f), 'utf8');
      for (const m of src.matchAll(/\bt\('([a-z_]+\.[a-zA-Z_.]+)'/g)) used.add(m[1]);
      for (const m of src.matchAll(/data-i18n="([a-z_]+\.[a-zA-Z_.]+)"/g)) used.add(m[1]);
      for (const m of src.matchAll(/(?:placeholder|aria-label):([a-z_]+\.[a-z_.]+)/g)) used.add(m[1]);
    }
  }
  const missing = [...used].filter((k) => !(k in en));
  assert.deepEqual(missing, []);
  assert.ok(used.size > 150, `found ${used.size} keys in use`);
});

// The built pages (web/bundle.mjs) carry each language's texts of the
// sections their code names, no more: what a page shows must be there.
test('the language files of a built page hold every text its code shows, in every language', (t) => {
  const dist = path.join(WEB_ROOT, 'dist');
  if (!fs.existsSync(dist)) { t.skip('no built pages (web/dist/)'); return; }
  const sizes = {};
  for (const page of ['index.html', 'board.html']) {
    const html = fs.readFileSync(path.join(dist, page), 'utf8');
    const files = JSON.parse(/<meta name="arbiter-i18n" content="([^"]+)">/.exec(html)[1].replace(/&quot;/g, '"'));
    const code = fs.readFileSync(path.join(WEB_ROOT, /<link rel="modulepreload" href="([^"]+)" data-main>/.exec(html)[1]), 'utf8') + html;
    const keys = new Set();
    for (const m of code.matchAll(/\bt\('([a-z_]+\.[a-zA-Z_.]+)'/g)) keys.add(m[1]);
    for (const m of code.matchAll(/data-i18n="([a-z_]+\.[a-zA-Z_.]+)"/g)) keys.add(m[1]);
    for (const m of code.matchAll(/(?:placeholder|aria-label):([a-z_]+\.[a-z_.]+)/g)) keys.add(m[1]);
    // Keys made at run time (`reason.${code}`): their whole section.
    const sections = new Set([...code.matchAll(/\bt\(`([a-z_]+)\./g)].map((m) => m[1]));
    assert.ok(keys.size > 40 && sections.size > 3, `${page}: ${keys.size} keys, ${sections.size} sections found`);
    for (const [l, full] of [['en', en], ['ru', ru], ['bg', bg]]) {
      const built = JSON.parse(fs.readFileSync(path.join(WEB_ROOT, files[l]), 'utf8'));
      assert.deepEqual([...keys].filter((k) => !(k in built)), [], `${page} ${l}: texts missing`);
      for (const sec of sections) {
        const want = Object.keys(full).filter((k) => k.startsWith(`${sec}.`));
        assert.deepEqual(want.filter((k) => !(k in built)), [], `${page} ${l}: section ${sec} incomplete`);
      }
      for (const [k, v] of Object.entries(built)) assert.equal(v, full[k], `${page} ${l}: ${k}`);
      sizes[page] = Object.keys(built).length;
    }
  }
  // The tablet does without the desk's texts.
  assert.ok(sizes['board.html'] < Object.keys(en).length / 2, `the tablet's ${sizes['board.html']} texts of ${Object.keys(en).length}`);
});

test('typed moves in any language become SAN with English letters', async () => {
  // i18n.js reads the browser only inside functions, so node can load it.
  globalThis.localStorage = { getItem: () => null, setItem: () => {} };
  const { typedToSan } = await import(path.join(WEB_ROOT, 'js', 'i18n.js'));
  assert.equal(typedToSan('Кf3'), 'Nf3');
  assert.equal(typedToSan('Крe2'), 'Ke2');
  assert.equal(typedToSan('Фxf7#'), 'Qxf7#');
  assert.equal(typedToSan('Цe2'), 'Ke2');
  assert.equal(typedToSan('Оc4'), 'Bc4');
  assert.equal(typedToSan('Тd1'), 'Rd1');
  assert.equal(typedToSan('e8Ф'), 'e8=Q');
  assert.equal(typedToSan('0-0-0'), 'O-O-O');
  assert.equal(typedToSan('♘f3'), 'Nf3');
  assert.equal(typedToSan(' e2e4 '), 'e2e4');
});

test('clock readings', async () => {
  const { formatClock } = await import(path.join(WEB_ROOT, 'js', 'clock.js'));
  assert.equal(formatClock(5400000), '1:30:00');
  assert.equal(formatClock(61000), '1:01');
  assert.equal(formatClock(9950), '0:09.9');
  assert.equal(formatClock(0), '0:00.0');
});
