// Arbiter web: the build's bundler.  For the pages read over the venue's
// Wi-Fi (the public page index.html and the tablet board.html) it writes into
// WEB_ROOT/dist/ what the daemon serves in place of the page's sources, so
// that a reader waits for a few parallel requests instead of one round trip
// per level of imports:
//   - one ES module per page: the page's modules and the board library,
//     hoisted into one scope in the order the browser would run them; where
//     the page's code loads a module with import() (the public page's
//     boards: its first view may show none), a second one, which holds
//     that module and what it needs beyond the first (the board library);
//   - one style sheet with every sheet the page links, the board library's
//     twelve piece images folded into one and its SVG images written as
//     text (the same pixels: the first frame builds one image, not twelve);
//   - the language files, each with the texts of the sections the page's
//     code names (the tablet's are a fifth of the whole);
//   - the page itself, naming those files, with the English texts and the
//     reader's language preloaded, and its first script (js/early.js) inline,
//     which runs the page's module;
//   - sw.js, the service worker that keeps them for the next load.
// Every file but the pages is named by a hash of its content, so the daemon
// lets browsers keep it for good (a new build names new files), and sw.js
// carries the build's version.  The sources stay as they are: without
// dist/ the daemon serves them (development).  The desk, on the arbiters'
// table, is served from its sources.
//   node bundle.mjs WEB_ROOT [STAMP]
// The parser (acorn) and scope analyser (eslint-scope) come from web's npm
// packages; without them nothing is built and dist/ is removed.
//
// Hoisting: every module's top-level names keep their spelling unless two
// modules (or a global that some module reads) share it; then the later one
// is renamed NAME$N.  An imported name becomes the exporter's (renamed) local,
// so live bindings (export let) stay live; `ns.name` of an `import * as ns`
// becomes that local too.  Comments are dropped.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const PAGES = ['index.html', 'board.html'];
const LANGS = ['en', 'ru', 'bg'];
// Added to every page's bundle: registers sw.js.
const SW_REGISTER = 'js/sw-register.js';

const root = path.resolve(process.argv[2] || '.');
const stamp = process.argv[3] ? path.resolve(process.argv[3]) : null;
const dist = path.join(root, 'dist');

function done() {
  if (stamp) fs.writeFileSync(stamp, '');
}

let acorn;
let eslintScope;
try {
  const require = createRequire(path.join(root, 'package.json'));
  acorn = require('acorn');
  eslintScope = require('eslint-scope');
} catch {
  console.log('bundle: no web/node_modules (npm ci): the pages are served from their sources');
  fs.rmSync(dist, { recursive: true, force: true });
  done();
  process.exit(0);
}

const hashOf = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);

// ---------- modules ----------

// The page's import map: bare specifier -> URL path.
function importMap(page) {
  const m = /<script type="importmap">([^<]*)<\/script>/.exec(page);
  return m ? JSON.parse(m[1]).imports : {};
}

function resolve(spec, from, map) {
  if (map[spec]) return path.join(root, map[spec]);
  if (spec.startsWith('./') || spec.startsWith('../')) return path.resolve(path.dirname(from), spec);
  throw new Error(`${from}: cannot resolve '${spec}'`);
}

// Parses FILE: its AST, scope and import/export declarations.
function parseModule(file, map) {
  const code = fs.readFileSync(file, 'utf8');
  const comments = [];
  const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module', ranges: true, onComment: comments });
  const scopes = eslintScope.analyze(ast, { ecmaVersion: 2022, sourceType: 'module' });
  const mod = { file, code, ast, comments, scope: scopes.acquire(ast, true), global: scopes.globalScope,
    deps: [], imports: new Map(), exports: new Map(), removed: [] };
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      const from = resolve(node.source.value, file, map);
      mod.deps.push(from);
      for (const s of node.specifiers) {
        if (s.type === 'ImportNamespaceSpecifier') mod.imports.set(s.local.name, { from, name: '*' });
        else if (s.type === 'ImportDefaultSpecifier') mod.imports.set(s.local.name, { from, name: 'default' });
        else mod.imports.set(s.local.name, { from, name: s.imported.name });
      }
      mod.removed.push([node.start, node.end]);
    } else if (node.type === 'ExportNamedDeclaration') {
      if (node.source) throw new Error(`${file}: export ... from is not supported`);
      if (node.declaration) {
        const d = node.declaration;
        const names = d.type === 'VariableDeclaration' ? d.declarations.map((x) => x.id.name) : [d.id.name];
        for (const n of names) mod.exports.set(n, n);
        mod.removed.push([node.start, d.start]);
      } else {
        for (const s of node.specifiers) mod.exports.set(s.exported.name, s.local.name);
        mod.removed.push([node.start, node.end]);
      }
    } else if (node.type === 'ExportDefaultDeclaration' || node.type === 'ExportAllDeclaration') {
      throw new Error(`${file}: ${node.type} is not supported`);
    }
  }
  // import('./x.js'): a module loaded later, when the page needs it.
  mod.later = [];
  walk(ast, (node) => {
    if (node.type !== 'ImportExpression') return;
    if (node.source.type !== 'Literal') throw new Error(`${file}: import() of a computed name is not supported`);
    mod.later.push({ source: node.source, from: resolve(node.source.value, file, map) });
  });
  return mod;
}

// The modules of ENTRIES (run one after the other) in the order the browser
// evaluates them: depth first, each after its imports, each once; none of
// OUTSIDE (the modules of the bundle that loads these).
function collect(entries, map, outside = new Map()) {
  const order = [];
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file) || outside.has(file)) return;
    const mod = parseModule(file, map);
    seen.set(file, mod);
    for (const d of mod.deps) visit(d);
    order.push(mod);
  };
  for (const e of entries) visit(e);
  return { order, byFile: seen };
}

// Calls FN(node, parent) for NODE and every node under it.
function walk(node, fn, parent = null) {
  if (!node || typeof node.type !== 'string') return;
  fn(node, parent);
  for (const k of Object.keys(node)) {
    const v = node[k];
    if (Array.isArray(v)) for (const c of v) walk(c, fn, node);
    else if (v && typeof v.type === 'string') walk(v, fn, node);
  }
}

// Every Identifier's parent, and the shorthand properties ({ x }) by position.
function parents(ast) {
  const up = new Map();
  const shorthand = new Set();
  walk(ast, (node, parent) => {
    up.set(node, parent);
    if (node.type === 'Property' && node.shorthand) shorthand.add(node.key.start);
  });
  return { up, shorthand };
}

// Placeholders for the two bundles' names, which are made of both texts.
const MAIN_URL = '@arbiter-main-bundle@';
const LATER_URL = '@arbiter-later-bundle@';

// The page's modules from ENTRIES, hoisted as the header says: {main, later}.
// MAIN holds what ENTRIES import; LATER (empty when none) what MAIN's code
// loads with import(): those modules and what they import that MAIN does
// not hold, with the board library.  LATER imports what it uses of MAIN
// from MAIN (one instance of each module), and exports the exports of the
// modules MAIN asks for by import(); both name each other by a placeholder.
function bundleJs(entries, map) {
  const main = collect(entries, map);
  const laterEntries = [...new Set(main.order.flatMap((m) => m.later.map((l) => l.from)))];
  const later = collect(laterEntries, map, main.byFile);
  for (const e of laterEntries) {
    if (!later.byFile.has(e)) throw new Error(`${e}: loaded with import() and imported too`);
  }
  for (const m of later.order) if (m.later.length) throw new Error(`${m.file}: import() in a module loaded later`);
  const order = [...main.order, ...later.order];
  const byFile = new Map([...main.byFile, ...later.byFile]);
  // Names no module may take: the globals any module reads.
  const taken = new Set();
  for (const m of order) for (const ref of m.global.through) taken.add(ref.identifier.name);
  for (const m of order) {
    m.names = new Map();
    for (const v of m.scope.variables) {
      if (m.imports.has(v.name)) continue;
      let name = v.name;
      for (let k = 2; taken.has(name); k++) name = `${v.name}$${k}`;
      taken.add(name);
      m.names.set(v.name, name);
    }
  }
  // The hoisted name of module FILE's export NAME.
  const exported = (file, name) => {
    const m = byFile.get(file);
    const local = m.exports.get(name);
    if (local === undefined) throw new Error(`${file} does not export ${name}`);
    const imp = m.imports.get(local);
    return imp ? exported(imp.from, imp.name) : m.names.get(local);
  };
  // The names of MAIN that LATER's code uses.
  const inMain = new Set();
  for (const m of main.order) for (const n of m.names.values()) inMain.add(n);
  const shared = new Set();
  const parts = [];
  for (const m of order) {
    const { up, shorthand } = parents(m.ast);
    const edits = m.removed.map(([a, b]) => [a, b, '']);
    const ofMain = main.byFile.has(m.file);
    const use = (name) => {
      if (!ofMain && inMain.has(name)) shared.add(name);
      return name;
    };
    for (const l of m.later) edits.push([l.source.start, l.source.end, `'${LATER_URL}'`]);
    const inRemoved = (pos) => m.removed.some(([a, b]) => pos >= a && pos < b);
    const rename = (id, to) => {
      if (inRemoved(id.start) || to === id.name) return;
      edits.push([id.start, id.end, shorthand.has(id.start) ? `${id.name}: ${to}` : to]);
    };
    for (const v of m.scope.variables) {
      const imp = m.imports.get(v.name);
      if (!imp) {
        const to = m.names.get(v.name);
        for (const d of v.defs) rename(d.name, to);
        for (const r of v.references) if (!v.defs.some((d) => d.name === r.identifier)) rename(r.identifier, to);
        continue;
      }
      for (const r of v.references) {
        const id = r.identifier;
        if (inRemoved(id.start)) continue;
        if (imp.name !== '*') { rename(id, use(exported(imp.from, imp.name))); continue; }
        const p = up.get(id);
        if (!p || p.type !== 'MemberExpression' || p.object !== id || p.computed) {
          throw new Error(`${m.file}: namespace ${v.name} is used other than as ${v.name}.name`);
        }
        edits.push([p.start, p.end, use(exported(imp.from, p.property.name))]);
      }
    }
    for (const c of m.comments) {
      if (inRemoved(c.start)) continue;
      // A comment alone on its lines goes with them; another becomes a
      // blank (a line end where it spanned lines: automatic semicolons).
      let a = c.start;
      while (a > 0 && (m.code[a - 1] === ' ' || m.code[a - 1] === '\t')) a--;
      if ((a === 0 || m.code[a - 1] === '\n') && (m.code[c.end] === '\n' || c.end === m.code.length)) {
        edits.push([a, Math.min(c.end + 1, m.code.length), '']);
      } else {
        edits.push([c.start, c.end, c.type === 'Block' && m.code.slice(c.start, c.end).includes('\n') ? '\n' : ' ']);
      }
    }
    edits.sort((a, b) => b[0] - a[0]);
    let code = m.code;
    let last = Infinity;
    for (const [a, b, text] of edits) {
      if (b > last) continue; // inside a removed declaration already cut
      code = code.slice(0, a) + text + code.slice(b);
      last = a;
    }
    parts.push(`// ${path.relative(root, m.file)}\n${code}\n`);
  }
  const names = [...shared].join(', ');
  const mainCode = parts.slice(0, main.order.length).join('') + (shared.size ? `export { ${names} };\n` : '');
  if (!later.order.length) return { main: mainCode, later: '' };
  const out = new Map();
  for (const e of laterEntries) {
    for (const name of byFile.get(e).exports.keys()) {
      const local = exported(e, name);
      if (out.has(name) && out.get(name) !== local) throw new Error(`${e}: a second export '${name}' in the later bundle`);
      out.set(name, local);
    }
  }
  const exports = [...out].map(([name, local]) => (name === local ? name : `${local} as ${name}`)).join(', ');
  return { main: mainCode,
    later: `${shared.size ? `import { ${names} } from '${MAIN_URL}';\n` : ''}${parts.slice(main.order.length).join('')}export { ${exports} };\n` };
}

// ---------- style sheets ----------

// An SVG image of a style sheet (a data: URL in base64) in the percent-encoded
// form: the same image, in a text that gzip compresses (base64 hides the
// SVG's repeats from it).
function svgUrl(svg) {
  return `url('data:image/svg+xml,${svg.replace(/[%#<>'\\\n\r]|[^ -~]/gu, (c) => encodeURIComponent(c).replace("'", '%27'))}')`;
}

const SVG64 = /url\('data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'\)/g;
const fromBase64 = (b64) => Buffer.from(b64, 'base64').toString('utf8');

// The board library's piece set (one SVG image per piece) as one image of
// all twelve, each piece showing its own cell: the browser builds one SVG
// document where it built twelve, each of which cost as much as the rest of
// the board's first frame.  A piece box is square (chessground sizes it
// 12.5% of the square board; the promotion buttons keep aspect-ratio 1), so
// the cell fills it as the piece's own image did ('cover').
const CELL = 45; // the size the piece set draws each piece at
function pieceSprite(css) {
  const cells = [];
  const out = css.replace(/(\.cg-wrap piece\.\w+\.(?:white|black)) \{\s*background-image: url\('data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'\);\s*\}/g, (m, sel, b64) => {
    const svg = fromBase64(b64);
    const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${CELL}" height="${CELL}">`;
    if (!svg.startsWith(open)) throw new Error(`piece set: ${sel} is not a ${CELL}x${CELL} SVG`);
    const i = cells.length;
    cells.push(`<svg x="${(i % 6) * CELL}" y="${Math.floor(i / 6) * CELL}" width="${CELL}" height="${CELL}">${svg.slice(open.length)}`);
    return `${sel} { background-position: ${(i % 6) * 20}% ${Math.floor(i / 6) * 100}%; }`;
  });
  if (cells.length !== 12) throw new Error(`piece set: ${cells.length} pieces, not 12`);
  const w = 6 * CELL; const h = 2 * CELL;
  const sprite = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${cells.join('')}</svg>`;
  return `${out}\n.cg-wrap piece { background-image: ${svgUrl(sprite)}; background-size: 600% 200%; }\n`;
}

// The text of the style sheet at URL path HREF, as the built page uses it.
function sheet(href) {
  let css = fs.readFileSync(path.join(root, href), 'utf8');
  if (href.endsWith('/chessground.cburnett.css')) css = pieceSprite(css);
  return css.replace(SVG64, (m, b64) => svgUrl(fromBase64(b64)));
}

// ---------- pages ----------

// The files of the build, by name, written at the end.
const files = new Map();

function write(name, text) {
  files.set(name, text);
  return `/dist/${name}`;
}

// Writes TEXT as dist/BASE.HASH.EXT; the file's URL path.
function hashed(base, ext, text) {
  return write(`${base}.${hashOf(text)}.${ext}`, text);
}

// An inline script of the built page: starts the download of the reader's
// language file with the page's other files (the English one is preloaded
// by a link).  It picks the language as js/i18n.js does.
const PRELOAD_LANGUAGE = `(function () {
  var files = JSON.parse(document.querySelector('meta[name="arbiter-i18n"]').content);
  var has = function (l) { return Object.prototype.hasOwnProperty.call(files, l); };
  var l = new URLSearchParams(location.search).get('lang');
  try { if (!has(l)) l = localStorage.getItem('arbiter.lang'); } catch (e) { l = null; }
  for (var i = 0; !has(l) && i < (navigator.languages || []).length; i++) l = navigator.languages[i].slice(0, 2).toLowerCase();
  if (!has(l) || l === 'en') return;
  var link = document.createElement('link');
  link.rel = 'preload'; link.as = 'fetch'; link.crossOrigin = 'anonymous'; link.href = files[l];
  document.head.appendChild(link);
}());`;

// The language files of a page whose module is CODE: each language's texts
// of the sections (the first part of a key, 'tablet' of 'tablet.resign')
// that the page's code or markup names (a quote, a backtick, or the ':' or
// ';' of data-i18n-attr before 'section.').  A key is made in the code from
// its section's name and a variable part at most (`reason.${code}`), so a
// section the code never names is one it never shows; the tablet leaves out
// the desk's texts.  Returns {lang: URL path}.
function languageFiles(base, code) {
  const out = {};
  for (const l of LANGS) {
    const all = JSON.parse(fs.readFileSync(path.join(root, 'i18n', `${l}.json`), 'utf8'));
    const named = new Map();
    const has = (section) => {
      if (!named.has(section)) named.set(section, new RegExp(`[\`'":;]${section.replace(/[^\w]/g, '\\$&')}\\.`).test(code));
      return named.get(section);
    };
    const texts = Object.fromEntries(Object.entries(all).filter(([k]) => has(k.split('.')[0])));
    out[l] = hashed(`i18n-${base}-${l}`, 'json', `${JSON.stringify(texts)}\n`);
  }
  return out;
}

function buildPage(file) {
  let page = fs.readFileSync(path.join(root, file), 'utf8');
  const entry = /<script type="module" src="([^"]+)"><\/script>/.exec(page);
  if (!entry) throw new Error(`${file}: no module script`);
  const base = path.basename(entry[1], '.js');
  const { main, later } = bundleJs([path.join(root, entry[1]), path.join(root, SW_REGISTER)], importMap(page));
  // Each bundle names the other: both names come from both texts.
  const hash = hashOf(main + later);
  const js = `/dist/${base}.${hash}.js`;
  const laterJs = later ? `/dist/${base}-later.${hash}.js` : null;
  write(path.basename(js), main.replaceAll(LATER_URL, laterJs));
  if (later) write(path.basename(laterJs), later.replaceAll(MAIN_URL, js));
  const i18n = languageFiles(base, main + later + page);
  const sheets = [...page.matchAll(/<link rel="stylesheet" href="([^"]+)">\n/g)];
  const css = hashed('style', 'css', sheets.map((s) => `/* ${s[1]} */\n${sheet(s[1])}`).join('\n'));
  page = page.replace(/<script type="importmap">[^<]*<\/script>\n/, '')
    .replace(/<!-- The modules the page imports[^>]*-->\n/, '')
    .replace(/<link rel="modulepreload" href="[^"]+">\n/g, '')
    .replace(/<link rel="stylesheet" href="[^"]+">\n/g, '')
    .replace(entry[0], [
      `<meta name="arbiter-i18n" content="${JSON.stringify(i18n).replace(/"/g, '&quot;')}">`,
      `<link rel="preload" href="${i18n.en}" as="fetch" crossorigin>`,
      // Before the style sheet: a script after it would hold the parser
      // (and so the page's module) until the sheet is in.
      `<script>${PRELOAD_LANGUAGE}</script>`,
      `<link rel="stylesheet" href="${css}">`,
      // What the page loads later (the boards): js/early.js fetches it with
      // the page's module where the address shows a board.
      ...(laterJs ? [`<meta name="arbiter-later" content="${laterJs}">`] : []),
      // Fetched now, run by js/early.js once the page is parsed.
      `<link rel="modulepreload" href="${js}" data-main>`].join('\n'));
  // The page's classic scripts (js/early.js) go inline, without their
  // opening comment: they run before any file could have been fetched.
  page = page.replace(/<script src="([^"]+)"><\/script>/g, (m, src) => {
    const code = fs.readFileSync(path.join(root, src), 'utf8').replace(/^(\/\/[^\n]*\n|\n)+/, '');
    if (code.includes('</')) throw new Error(`${src}: '</' cannot go inline`);
    return `<script>${code}</script>`;
  });
  page = page.replace('<head>\n', '<head>\n<!-- Built by web/bundle.mjs; the source is web/' + file + '. -->\n');
  write(file, page);
  return [js, ...(laterJs ? [laterJs] : []), css, ...Object.values(i18n)];
}

function serviceWorker(files) {
  const src = fs.readFileSync(path.join(root, 'sw.js'), 'utf8');
  const version = hashOf(files.join('\n') + src);
  return src.replace("const VERSION = 'dev';", `const VERSION = '${version}';`);
}

// 1 when dist/ already holds exactly FILES (then it is left alone, with its
// gzip copies and the times the daemon's validators are made of).
function same() {
  let names;
  try { names = fs.readdirSync(dist).filter((n) => !n.endsWith('.gz')); } catch { return false; }
  return names.length === files.size &&
    names.every((n) => files.has(n) && fs.readFileSync(path.join(dist, n), 'utf8') === files.get(n));
}

try {
  const urls = [];
  for (const p of PAGES) urls.push(...buildPage(p));
  write('sw.js', serviceWorker([...new Set(urls)].sort()));
  if (!same()) {
    // Written beside and then swapped in whole: the daemon never serves a
    // page whose files are not all there.
    const tmp = `${dist}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp);
    for (const [name, text] of files) fs.writeFileSync(path.join(tmp, name), text);
    fs.rmSync(`${dist}.old`, { recursive: true, force: true });
    if (fs.existsSync(dist)) fs.renameSync(dist, `${dist}.old`);
    fs.renameSync(tmp, dist);
    fs.rmSync(`${dist}.old`, { recursive: true, force: true });
  }
  done();
} catch (e) {
  console.error(`bundle: ${e.stack}`);
  process.exit(1);
}
