// Arbiter web: reading a pasted or uploaded player list (CSV, TSV, a FIDE
// rating list saved as a spreadsheet) into rows for a preview.  Nothing here
// talks to the server: the desk shows the rows, their column mapping and each
// row's problems, and stores only what the arbiter then confirms.  The checks
// mirror the server's (which has the last word): FIDE titles, a federation of
// three capital letters, a rating of 0 or 1000 to 3500.
//
// The delimiter is the first of tab, semicolon, comma found in the first
// lines, so "Vasilev, Georgi;2210;FM;BUL" keeps its name whole; in a
// comma-separated file a name with a comma is quoted, or the one field too
// many of a row ("Vasilev, Georgi,2210,...") is given back to the name.

export const FIELDS = ['name', 'rating', 'title', 'federation', 'fide_id', 'sex', 'birth'];
export const TITLES = ['GM', 'IM', 'FM', 'CM', 'WGM', 'WIM', 'WFM', 'WCM'];

// Header words of the usual exports (ours, Swiss-Manager, FIDE's lists, in
// the three languages of the pages) to the field they hold.
const HEADERS = [
  [/^(name|player|имя|фамилия.*|име|играч|шахматист)$/, 'name'],
  [/^(rating|rtg|elo|srtng|std|standard|fide rating|рейтинг|ело)$/, 'rating'],
  [/^(title|tit|титул|звание)$/, 'title'],
  [/^(fed|federation|country|федерация|страна|федерация)$/, 'federation'],
  [/^(fide ?id|id number|fideid|fide|id|фиде ид)$/, 'fide_id'],
  [/^(sex|gender|пол)$/, 'sex'],
  [/^(birth|born|b-day|bday|year|рожд.*|год.*|роден.*)$/, 'birth'],
];

export function detectDelimiter(text) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim()).slice(0, 5);
  for (const d of ['\t', ';', ',']) if (lines.some((l) => l.includes(d))) return d;
  return ',';
}

// One line into fields; double quotes protect delimiters ("" is a quote).
function splitLine(line, d) {
  const out = [];
  let cur = ''; let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') q = false; else cur += c;
    } else if (c === '"' && !cur.trim()) { q = true; cur = ''; } else if (c === d) { out.push(cur.trim()); cur = ''; } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

function headerField(cell) {
  const k = cell.toLowerCase().replace(/[._]/g, ' ').trim();
  const hit = HEADERS.find(([re]) => re.test(k));
  return hit ? hit[1] : null;
}

// {delimiter, header, columns: [field or ''], rows: [[cell]]}.  With a
// header row its words choose the columns; without one the order is ours:
// name, rating, title, federation, FIDE ID.
export function parsePlayers(text) {
  const delimiter = detectDelimiter(text);
  let rows = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim()).map((l) => splitLine(l, delimiter));
  const mapped = rows.length ? rows[0].map(headerField) : [];
  const header = mapped.includes('name');
  let columns = header ? mapped.map((f, i) => (f && mapped.indexOf(f) === i ? f : '')) : FIELDS.slice(0, 5);
  if (header) rows = rows.slice(1);
  const width = header ? columns.length : Math.max(0, ...rows.map((r) => r.length));
  if (!header) columns = Array.from({ length: width }, (_, i) => columns[i] || '');
  const at = columns.indexOf('name');
  if (delimiter === ',' && at >= 0) {
    // "Surname, Given" unquoted in a comma-separated list: a row one field
    // longer than the others gives that field back to the name.
    const usual = header ? width : Math.min(...rows.map((r) => r.length));
    rows = rows.map((r) => (r.length === usual + 1 && !/^\d+$/.test(r[at + 1]) ? [...r.slice(0, at), `${r[at]}, ${r[at + 1]}`, ...r.slice(at + 2)] : r));
  }
  return { delimiter, header, columns, rows };
}

// A row under COLUMNS into {player, errors: [{field, key, value}]} with
// the message keys of the desk's i18n (desk.import_err.FIELD).
export function rowToPlayer(row, columns) {
  const p = {}; const errors = [];
  columns.forEach((f, i) => { if (f && row[i] !== undefined && row[i] !== '') p[f] = row[i]; });
  if (!p.name) errors.push({ field: 'name', value: '' });
  if (p.rating !== undefined) {
    const r = Number(p.rating.replace(/\s/g, ''));
    if (!Number.isInteger(r) || (r !== 0 && (r < 1000 || r > 3500))) errors.push({ field: 'rating', value: p.rating }); else p.rating = r;
  }
  if (p.title !== undefined) {
    const tt = p.title.toUpperCase();
    const short = { G: 'GM', I: 'IM', F: 'FM', C: 'CM', WG: 'WGM', WI: 'WIM', WF: 'WFM', WC: 'WCM' }[tt];
    p.title = short || tt;
    if (!TITLES.includes(p.title)) errors.push({ field: 'title', value: row[columns.indexOf('title')] });
  }
  if (p.federation !== undefined) {
    p.federation = p.federation.toUpperCase();
    if (!/^[A-Z]{3}$/.test(p.federation)) errors.push({ field: 'federation', value: row[columns.indexOf('federation')] });
  }
  if (p.sex !== undefined) {
    const s = p.sex.toLowerCase();
    p.sex = { m: 'm', w: 'w', f: 'w', м: 'm', ж: 'w' }[s] ?? s;
    if (!['m', 'w'].includes(p.sex)) errors.push({ field: 'sex', value: row[columns.indexOf('sex')] });
  }
  return { player: p, errors };
}
