// Arbiter web: the desk's alert queue: the open alerts of the tournament in
// view, loaded and then followed on the alert stream, one line each, the
// most urgent kinds first and the newest first within a kind, collapsible,
// with a tone for calls and claims, the count in the window title, and an
// alert's detail in the reader's language.
//
// The server sends each alert's detail as a code and its parameters (the
// side, the article, the move, the claim, the count of illegal moves, the
// piece that must move ...; db/alert_detail.h) beside its English message.
// The text is built from the i18n keys alert_detail.<code>; the English
// message is shown only for an alert without a code this page knows (one
// stored before details were kept), and without its "game N:" prefix, since
// the line already names the board and the players.

import * as api from './api.js';
import { LiveStream } from './sse.js';
import { t, lang, localSan } from './i18n.js';
import { html, render, $, toast, errorText, resultText } from './ui.js';

let alertState = { tid: null, list: [], stream: null };
let changed = null;

/* Calls FN (or nothing, for null) after every change of the queue. */
export function onAlertsChange(fn) { changed = fn; }

/* True while game GID has an open alert. */
export const alertingGame = (gid) => alertState.list.some((a) => !a.resolved && a.game_id === gid);

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

export function stopAlerts() {
  alertState.stream?.close();
  alertState = { tid: null, list: [], stream: null };
  renderAlerts();
}

export function startAlerts(tid) {
  if (alertState.tid === tid) return;
  stopAlerts();
  alertState.tid = tid;
  const load = async () => {
    try { alertState.list = await api.get(`tournaments/${tid}/alerts`); } catch { return; }
    renderAlerts();
  };
  alertState.stream = new LiveStream(`${api.BASE}/tournaments/${tid}/alerts/stream`, {
    types: ['alert'],
    onOpen: load,
    onEvent: (type, data) => {
      if (data && data.id && data.kind) {
        const i = alertState.list.findIndex((a) => a.id === data.id);
        if (i >= 0) alertState.list[i] = data; else { alertState.list.push(data); if (!data.resolved && SEVERITY[data.kind] === 0 && localStorage.getItem('arbiter.alertSound') !== '0') chime(); }
        renderAlerts();
      } else load();
    },
  });
}

// A short tone for a call or a claim, unless the arbiter turned it off.
let audio = null;
function chime() {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(); const g = audio.createGain();
    o.frequency.value = 880; g.gain.value = 0.1;
    o.connect(g).connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.25);
  } catch { /* no sound available */ }
}

// The window title counts the open alerts, so a desk in another tab still shows them.
let baseTitle = document.title;
export function setTitle(base = baseTitle) {
  baseTitle = base;
  const open = alertState.list.filter((a) => !a.resolved).length;
  document.title = (open ? `(${open}) ` : '') + base;
}

// Severity by kind: what stops a game and waits for the arbiter first.
const SEVERITY = { call: 0, claim: 0, illegal: 1, flag: 1, penalty: 2, result: 2 };
const SEV_CLASS = ['sev-high', 'sev-mid', 'sev-low'];
function alertOrder(list) {
  return list.filter((a) => !a.resolved)
    .sort((a, b) => (SEVERITY[a.kind] ?? 2) - (SEVERITY[b.kind] ?? 2) || b.at_ms - a.at_ms || b.id - a.id);
}
const alertTime = (ms) => new Date(ms).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export function renderAlerts() {
  const open = alertOrder(alertState.list);
  const box = $('#alerts');
  setTitle();
  const collapsed = localStorage.getItem('arbiter.alertsCollapsed') === '1';
  const sound = localStorage.getItem('arbiter.alertSound') !== '0';
  render(box, open.length ? html`<details id="alerts-box" ${collapsed ? '' : html`open`}><summary>${t('desk.alerts_open', { n: open.length })}</summary>
    <label class="alert-sound"><input type="checkbox" id="alert-sound" ${sound ? html`checked` : ''}> ${t('desk.alert_sound')}</label>
    <ul class="alert-list">${open.map((a) => { const detail = alertDetail(a); return html`<li class="banner alert ${SEV_CLASS[SEVERITY[a.kind] ?? 2]}" data-aid="${a.id}" data-kind="${a.kind}" title="${detail}">
    <span class="line"><time>${alertTime(a.at_ms)}</time> <strong>${t(`alert.${a.kind}`)}</strong>${a.board ? html` · ${t('desk.alert_board', { board: a.board, round: a.round })} · ${a.white} – ${a.black}` : ''}</span>
    <span class="detail">${detail}</span>
    <span class="actions">${a.game_id ? html`<a class="button" href="#/g/${a.game_id}" data-i18n="view.open"></a>` : ''}
    <button type="button" data-act="resolve" data-i18n="desk.resolve"></button></span></li>`; })}</ul></details>` : html``);
  $('#alerts-box')?.addEventListener('toggle', (e) => localStorage.setItem('arbiter.alertsCollapsed', e.target.open ? '0' : '1'));
  $('#alert-sound')?.addEventListener('change', (e) => localStorage.setItem('arbiter.alertSound', e.target.checked ? '1' : '0'));
  changed?.();
}

$('#alerts')?.addEventListener('click', async (e) => {
  if (e.target.dataset.act !== 'resolve') return;
  const aid = Number(e.target.closest('[data-aid]').dataset.aid);
  try {
    const a = await api.patch(`tournaments/${alertState.tid}/alerts/${aid}`, { resolved: true });
    const i = alertState.list.findIndex((x) => x.id === aid);
    if (i >= 0) alertState.list[i] = a;
    renderAlerts();
  } catch (err) { toast(errorText(err), 'error'); }
});
