// Arbiter web: time controls as arbiters write them, in minutes ("90+30",
// "40/90+30+30"), turned into the seconds form of the PGN TimeControl tag
// the API keeps ("5400+30", "40/5400+30:1800+30") and back.  Pure: no DOM,
// no imports, so the tests load it in node as well as in the page.
//
// The arbiter's form, periods and the increment joined by "+":
//   "90+30"                90 minutes for the game, 30 s added per move
//   "40/90+30+30"          90 minutes for 40 moves, then 30 minutes, 30 s per move from move 1
//   "40/120+20/60+15+30"   two move periods, then 15 minutes, 30 s per move
//   "40/90+30"             the same without an increment
// A number after the last period with moves is the rest of the game (minutes);
// a number after the rest of the game is the increment (seconds).  The seconds
// form is left as it is: it is recognised by a ":" (a second period), a delay
// ("d", "b"), or a base over TC_MINUTES_MAX minutes, which no game is given.

const TC_MINUTES_MAX = 300;

// Presets for the three categories of the Laws (Appendices A and B).
export const TC_PRESETS = [
  { kind: 'standard', text: '90+30' },
  { kind: 'rapid', text: '15+10' },
  { kind: 'blitz', text: '3+2' },
];

const NUM = /^\d+(\.\d+)?$/;
const secs = (min) => Math.round(Number(min) * 60);
const mins = (s) => String(Math.round((s / 60) * 1000) / 1000);

// True for text already in the PGN seconds form.
function secondsForm(text) {
  if (text === '-' || text.includes(':') || /\d[db]\d/.test(text)) return true;
  const first = text.split('+')[0];
  const base = first.includes('/') ? first.split('/')[1] : first;
  return NUM.test(base) && Number(base) > TC_MINUTES_MAX;
}

/* Text as typed -> { pgn, periods: [{moves, base_s}], increment_s } or
 * { error } ("syntax" when it cannot be read).  The seconds form passes
 * through as { pgn: text } for the server to check. */
export function parseTimeControl(input) {
  const text = String(input ?? '').trim().replace(/\s+/g, '').replace(/′|'|min/gi, '');
  if (!text) return { error: 'empty' };
  if (secondsForm(text)) return { pgn: text, seconds: true };
  const periods = [];
  let rest = null;
  let inc = 0;
  let incSeen = false;
  for (const tok of text.split('+')) {
    if (incSeen) return { error: 'syntax' };
    const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(tok);
    if (m) {
      if (rest !== null || Number(m[1]) < 1 || Number(m[2]) <= 0) return { error: 'syntax' };
      periods.push({ moves: Number(m[1]), base_s: secs(m[2]) });
    } else if (NUM.test(tok)) {
      // The first plain number is the rest of the game, the second the increment.
      if (rest === null) { rest = secs(tok); continue; }
      inc = Number(tok); incSeen = true;
    } else return { error: 'syntax' };
  }
  if (rest === null || rest <= 0) return { error: 'syntax' };
  periods.push({ moves: 0, base_s: rest });
  const bonus = inc ? `+${inc}` : '';
  const pgn = periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${p.base_s}${bonus}`).join(':');
  return { pgn, periods, increment_s: inc };
}

/* The PGN seconds form -> the arbiter's form in minutes, or the text as it
 * is when that form cannot say it (delays, increments that differ). */
export function formatTimeControl(pgn) {
  const text = String(pgn ?? '').trim();
  const parts = text.split(':');
  const read = parts.map((p) => /^(?:(\d+)\/)?(\d+)(?:\+(\d+(?:\.\d+)?))?$/.exec(p));
  if (!text || read.some((m) => !m)) return text;
  const incs = new Set(read.map((m) => m[3] || '0'));
  if (incs.size !== 1 || read.slice(0, -1).some((m) => !m[1]) || read.at(-1)[1]) return text;
  const inc = [...incs][0];
  const out = read.map((m) => `${m[1] ? `${m[1]}/` : ''}${mins(Number(m[2]))}`).join('+');
  return inc === '0' ? out : `${out}+${inc}`;
}

/* Appendix A.1 / B.1: base time plus 60 moves of increment, periods
 * reached within 60 moves added: ≤ 10 min blitz, < 60 min rapid. */
export function timeControlCategory(parsed) {
  if (!parsed || !parsed.periods) return null;
  let total = 0; let moves = 0;
  for (const p of parsed.periods) {
    if (moves >= 60) break;
    total += p.base_s;
    moves = p.moves ? moves + p.moves : 60;
  }
  total += 60 * parsed.increment_s;
  return total <= 600 ? 'blitz' : total < 3600 ? 'rapid' : 'standard';
}
