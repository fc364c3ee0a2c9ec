// Arbiter web: what an alert says, in the reader's language.  The server
// sends each alert's detail as a code and its parameters (the side, the
// article, the move, the claim, the count of illegal moves, the piece that
// must move ...; db/alert_detail.h) beside its English message.  The text
// is built from the i18n keys alert_detail.<code>; the English message is
// shown only for an alert without a code this page knows (one stored
// before details were kept), and without its "game N:" prefix, since the
// queue already names the board and the players.

import { t, lang, localSan } from './i18n.js';
import { resultText } from './ui.js';

const opposite = (side) => (side === 'white' ? 'black' : 'white');

// The text of key, or null when no language has it.
function known(key, vars) {
  const s = t(key, vars);
  return s === key ? null : s;
}

/* The detail of alert A as one sentence (or two) in the reader's language. */
export function alertDetail(a) {
  const d = (a && a.detail) || {};
  const count = d.count === undefined ? '' : (d.limit ? `${d.count}/${d.limit}` : String(d.count));
  const v = {
    side: d.side ? t(`colour.${d.side}`) : '',
    other: d.side ? t(`colour.${opposite(d.side)}`) : '',
    move: d.move ? localSan(d.move) : '',
    claim: d.claim ? t(`claim.${d.claim}`) : '',
    article: d.article || '',
    count,
    penalty: d.penalty_s ?? '',
    piece: d.piece ? t(`piece.name.${d.piece}`).toLocaleLowerCase(lang) : '',
    square: d.square || '',
    note: d.note || '',
    act: d.act ? t(`alert_detail.act_${d.act}`) : '',
    result: d.result ? resultText(d.result) : '',
    end: d.end ? t(`reason.${d.end}`) : '',
  };
  const text = d.code && (known(`alert_detail.${d.code}_${d.end}`, v) || known(`alert_detail.${d.code}`, v));
  if (!text) return String((a && a.message) || '').replace(/^game \d+:?\s*/, '');
  const must = d.must && d.piece ? known(`alert_detail.must_${d.must}`, v) : null;
  return must ? `${text} ${must}` : text;
}
