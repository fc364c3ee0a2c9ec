// Arbiter web: translations (English, Russian, Bulgarian) and national piece
// letters.  Texts live in /i18n/<lang>.json as flat "section.key" strings with
// {name} placeholders.  Elements carry data-i18n="key" (text content) or
// data-i18n-attr="attr:key;attr:key" (attributes such as aria-label).

export const LANGS = { en: 'English', ru: 'Русский', bg: 'Български' };
const FIGURINES = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘' };

let dict = {};
let fallback = {};
export let lang = 'en';
const listeners = new Set();

export function onLanguageChange(fn) { listeners.add(fn); }

function pickLanguage() {
  const q = new URLSearchParams(location.search).get('lang');
  if (q && LANGS[q]) return q;
  const saved = localStorage.getItem('arbiter.lang');
  if (saved && LANGS[saved]) return saved;
  for (const l of navigator.languages || []) {
    const short = l.slice(0, 2).toLowerCase();
    if (LANGS[short]) return short;
  }
  return 'en';
}

// A built page names its language files by their content (kept by the
// browser for good, see web/bundle.mjs); the source pages use the plain
// names, asked again on every load.
async function load(l) {
  const built = JSON.parse(document.querySelector('meta[name="arbiter-i18n"]')?.content || '{}')[l];
  const res = await fetch(built || `/i18n/${l}.json`, built ? {} : { cache: 'no-cache' });
  if (!res.ok) throw new Error(`cannot load language ${l}`);
  return res.json();
}

// English (the fallback) and the reader's language, fetched side by side.
export async function initI18n() {
  const l = pickLanguage();
  const own = LANGS[l] && l !== 'en' ? load(l) : null;
  own?.catch(() => {}); // reported where it is awaited
  fallback = await load('en');
  await setLanguage(l, false, own);
}

// OWN: the language's texts being fetched already, if they are.
export async function setLanguage(l, remember = true, own = null) {
  if (!LANGS[l]) l = 'en';
  dict = l === 'en' ? fallback : await (own || load(l));
  lang = l;
  if (remember) localStorage.setItem('arbiter.lang', l);
  document.documentElement.lang = l;
  applyI18n(document);
  for (const fn of listeners) fn(l);
}

// t('key', {n: 3}) -> the translated text, English if missing, the key if neither.
export function t(key, vars) {
  let s = dict[key] ?? fallback[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] ?? m));
  return s;
}

export function applyI18n(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':');
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// Moves shown with figurines instead of letters, the reader's choice.
export const figurines = () => localStorage.getItem('arbiter.figurines') === '1';

// The language menu and the figurine switch.
export function languagePicker() {
  const box = document.createElement('span');
  box.className = 'lang-box';
  const fig = document.createElement('button');
  fig.type = 'button';
  fig.className = 'fig-toggle';
  const label = () => {
    fig.textContent = figurines() ? pieceLetters().N : '♘';
    fig.setAttribute('aria-pressed', String(figurines()));
    fig.setAttribute('aria-label', t('common.figurines'));
    fig.title = t('common.figurines');
  };
  fig.addEventListener('click', () => {
    localStorage.setItem('arbiter.figurines', figurines() ? '0' : '1');
    for (const fn of listeners) fn(lang);
  });
  onLanguageChange(label);
  box.append(select(), fig);
  label();
  return box;
}

function select() {
  const sel = document.createElement('select');
  sel.className = 'lang-picker';
  sel.setAttribute('aria-label', 'Language / Язык / Език');
  for (const [code, name] of Object.entries(LANGS)) sel.add(new Option(name, code));
  sel.value = lang;
  sel.addEventListener('change', () => setLanguage(sel.value));
  onLanguageChange((l) => { sel.value = l; });
  return sel;
}

// National piece letters, e.g. ru: {K:'Кр', Q:'Ф', R:'Л', B:'С', N:'К'}.
export function pieceLetters() {
  return { K: t('piece.K'), Q: t('piece.Q'), R: t('piece.R'), B: t('piece.B'), N: t('piece.N') };
}

// SAN in the reader's letters (or figurines): 'Nf3' -> 'Кf3', 'e8=Q' -> 'e8=Ф'.
export function localSan(san, useFigurines = figurines()) {
  if (!san) return '';
  const letters = useFigurines ? FIGURINES : pieceLetters();
  return san.replace(/^[KQRBN]/, (p) => letters[p]).replace(/=([QRBN])/, (m, p) => '=' + letters[p]);
}

// What someone typed in any of our languages -> SAN with English letters.
// Longest letters first, so the Russian king 'Кр' wins over the knight 'К'.
export function typedToSan(text) {
  let s = text.trim().replace(/[♔♚]/g, 'K').replace(/[♕♛]/g, 'Q').replace(/[♖♜]/g, 'R')
    .replace(/[♗♝]/g, 'B').replace(/[♘♞]/g, 'N');
  const table = [['Кр', 'K'], ['кр', 'K'], ['Ф', 'Q'], ['Л', 'R'], ['С', 'B'], ['К', 'N'],
    ['Ц', 'K'], ['Д', 'Q'], ['Т', 'R'], ['О', 'B']];
  if (/^0-0(-0)?|^O-O(-O)?/i.test(s)) return s.replace(/0/g, 'O').toUpperCase().replace(/[^O-]/g, '');
  for (const [from, to] of table) {
    if (s.startsWith(from)) { s = to + s.slice(from.length); break; }
  }
  return s.replace(/=?([ФЛСКДТО])$/, (m, p) => '=' + ({ Ф: 'Q', Д: 'Q', Л: 'R', Т: 'R', С: 'B', О: 'B', К: 'N' }[p]));
}

export function formatScore(x) {
  if (x === null || x === undefined || x === '') return '';
  const n = Number(x);
  if (Number.isNaN(n)) return String(x);
  const whole = Math.floor(n);
  const half = Math.abs(n - whole - 0.5) < 1e-9;
  if (half) return whole === 0 ? '½' : `${whole}½`;
  // Russian and Bulgarian write a decimal comma (SB 0,25).
  return String(Math.round(n * 100) / 100).replace('.', lang === 'en' ? '.' : ',');
}

// A tie-break value as a plain decimal in the reader's style ("40.75",
// "0,25"): a column of them never mixes "½" with "0.25".
export function formatDecimal(x) {
  if (x === null || x === undefined || x === '') return '';
  const n = Number(x);
  if (Number.isNaN(n)) return String(x);
  return String(Math.round(n * 100) / 100).replace('.', lang === 'en' ? '.' : ',');
}

export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
