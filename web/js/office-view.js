// Arbiter web: the tournament office of the desk.  The "Office" tab holds the
// event data and officials of the FIDE rating report (PATCH tournament
// {office, rating_type}), players added from the local FIDE register by
// FIDE ID or by name as the arbiter types (the card is shown before adding),
// and, before round 1, the refresh of every player's rating from a newer
// list with each change shown first.  The rounds view asks this module for a
// round's draft/published state and its publish and withdraw buttons, and
// the tournament list for its "Import TRF" action.

import * as api from './api.js';
import { t } from './i18n.js';
import { html, render, $, ask, toast, errorText } from './ui.js';

// ---------- draft and published rounds ----------

// The state of round R and, before its start, the button that changes it.
export function roundState(r) {
  const badge = html`<span class="badge ${r.published ? 'ok' : 'warn'}" data-state="${r.published ? 'published' : 'draft'}"
    data-i18n="${r.published ? 'office.published' : 'office.draft'}"></span>`;
  if (r.status !== 'pending') return badge;
  return html`${badge} <button type="button" data-act="${r.published ? 'unpublish' : 'publish'}"
    data-i18n="${r.published ? 'office.unpublish' : 'office.publish'}"></button>`;
}

// Publishes or withdraws round RN (ACT "publish" / "unpublish").
export async function roundStateAct(tour, rn, act) {
  await api.post(`tournaments/${tour.id}/rounds/${rn}/${act}`, {});
  toast(t(act === 'publish' ? 'office.published_n' : 'office.unpublished_n', { n: rn }));
}

// ---------- event data and officials ----------

const person = (p) => ({ name: (p && p.name) || '', fide_id: (p && p.fide_id) || '' });

function officeForm(tour) {
  const o = tour.office || {};
  const dep = (o.deputies || []).map((d) => `${d.name}${d.fide_id ? ` (${d.fide_id})` : ''}`).join('\n');
  const dates = (o.round_dates || []).map((d) => `${d.date || ''} ${d.time || ''}`.trim()).join('\n');
  const field = (id, key, value, extra = '') => html`<label for="${id}" data-i18n="office.${key}"></label><input id="${id}" name="${key}" value="${value}" ${extra}>`;
  return html`<form id="oform" class="form-grid">
    ${field('o-fed', 'federation', o.federation || '', html`maxlength="3" pattern="[A-Z]{3}"`)}
    ${field('o-end', 'end_date', o.end_date || '', html`type="date"`)}
    <label for="o-rt" data-i18n="office.rating_type"></label><select id="o-rt" name="rating_type">
      ${['standard', 'rapid', 'blitz'].map((x) => html`<option value="${x}" ${tour.rating_type === x ? html`selected` : ''} data-i18n="office.rating.${x}"></option>`)}</select>
    ${field('o-ca', 'chief_arbiter', person(o.chief_arbiter).name)}
    ${field('o-ca-id', 'chief_arbiter_id', person(o.chief_arbiter).fide_id, html`inputmode="numeric" pattern="[0-9]*"`)}
    <label for="o-dep" data-i18n="office.deputies"></label><textarea id="o-dep" name="deputies" rows="3">${dep}</textarea>
    <span class="hint" data-i18n="office.deputies_hint"></span>
    ${field('o-org', 'chief_organiser', person(o.chief_organiser).name)}
    ${field('o-tc', 'time_control_text', o.time_control_text || '')}
    ${field('o-code', 'event_code', o.event_code || '')}
    <label for="o-dates" data-i18n="office.round_dates"></label><textarea id="o-dates" name="round_dates" rows="4">${dates}</textarea>
    <span class="hint" data-i18n="office.round_dates_hint"></span>
    <div class="span-all"><button type="submit" class="primary" data-i18n="office.save"></button></div></form>`;
}

// "Name (12345)" or "Name" into {name, fide_id}.
function parsePerson(line) {
  const m = /^(.*?)\s*\((\d+)\)\s*$/.exec(line.trim());
  return m ? { name: m[1], fide_id: m[2] } : { name: line.trim(), fide_id: '' };
}

function readOffice(form, tour) {
  const f = new FormData(form);
  const lines = (k) => String(f.get(k) || '').split('\n').map((x) => x.trim()).filter(Boolean);
  return {
    rating_type: f.get('rating_type'),
    office: {
      federation: String(f.get('federation') || '').toUpperCase(),
      end_date: f.get('end_date') || '',
      chief_arbiter: { name: f.get('chief_arbiter') || '', fide_id: f.get('chief_arbiter_id') || '' },
      deputies: lines('deputies').map(parsePerson),
      chief_organiser: { ...person((tour.office || {}).chief_organiser), name: f.get('chief_organiser') || '' },
      time_control_text: f.get('time_control_text') || '',
      event_code: f.get('event_code') || '',
      round_dates: lines('round_dates').map((l) => { const [date, time] = l.split(/\s+/); return { date: date || '', time: time || '' }; }),
    },
  };
}

// ---------- players from the register ----------

function card(p, type) {
  const key = { standard: 'std_rating', rapid: 'rapid_rating', blitz: 'blitz_rating' }[type] || 'std_rating';
  return html`<div class="card" data-fide="${p.fide_id}"><strong>${p.title ? `${p.title} ` : ''}${p.name}</strong>
    <span>${p.federation}</span> <span>FIDE ID ${p.fide_id}</span> <span>${p.birth_year || ''}</span>
    <span>${t(`office.rating.${type}`)}: ${p[key] || t('office.unrated')}</span>
    ${p.inactive ? html`<span class="muted" data-i18n="office.inactive"></span>` : ''}
    <button type="button" class="primary" data-add="${p.fide_id}" data-i18n="office.add"></button></div>`;
}

function bindSearch(tour) {
  const box = $('#f-q');
  const out = $('#f-results');
  let seq = 0;
  box.addEventListener('input', async () => {
    const q = box.value.trim();
    const mine = ++seq;
    if (q.length < 2) { render(out, html``); return; }
    try {
      const rows = /^\d+$/.test(q)
        ? await api.get(`fide/players/${q}`).then((p) => [p]).catch(() => [])
        : await api.get(`fide/search?q=${encodeURIComponent(q)}&limit=10`);
      if (mine !== seq) return;  // a newer keystroke has its own answer coming
      render(out, rows.length ? html`${rows.map((p) => card(p, tour.rating_type))}` : html`<p class="muted" data-i18n="office.no_match"></p>`);
    } catch (err) { render(out, html`<p class="banner warn">${errorText(err)}</p>`); }
  });
  out.addEventListener('click', async (e) => {
    const id = e.target.dataset.add;
    if (!id) return;
    try {
      const r = await api.post(`tournaments/${tour.id}/players/fide`, { fide_id: Number(id) });
      toast(t('office.added', { name: r.player.name, pin: r.credentials.pin }));
      box.value = '';
      render(out, html``);
    } catch (err) { toast(errorText(err), 'error'); }
  });
}

function changesTable(res) {
  if (!res.changes.length && !res.missing.length) return html`<p class="muted" data-i18n="office.no_changes"></p>`;
  return html`<table class="changes"><thead><tr><th data-i18n="view.name"></th><th>FIDE ID</th>
    <th data-i18n="office.field"></th><th data-i18n="office.from"></th><th data-i18n="office.to"></th></tr></thead><tbody>
    ${res.changes.map((c) => html`<tr><td>${c.name}</td><td>${c.fide_id}</td><td>${t(`office.field.${c.field}`)}</td><td>${String(c.from)}</td><td>${String(c.to)}</td></tr>`)}
    ${res.missing.map((c) => html`<tr class="muted"><td>${c.name}</td><td>${c.fide_id}</td><td colspan="3" data-i18n="office.missing"></td></tr>`)}
    </tbody></table>`;
}

function bindRefresh(tour) {
  $('#f-refresh').addEventListener('click', async () => {
    try {
      const res = await api.post(`tournaments/${tour.id}/players/refresh`, {});
      render($('#f-changes'), changesTable(res));
      if (!res.changes.length) return;
      if (!await ask({ title: t('office.refresh'), message: t('office.apply_confirm', { n: res.changes.length, date: res.list_date || '' }) })) return;
      const done = await api.post(`tournaments/${tour.id}/players/refresh`, { apply: true });
      render($('#f-changes'), changesTable(done));
      toast(t('office.applied', { n: done.changes.length }));
    } catch (err) { toast(errorText(err), 'error'); }
  });
}

// The "Office" tab of tournament TOUR under the tab bar HEAD.
export async function viewOffice(tour, head) {
  const rounds = await api.get(`tournaments/${tour.id}/rounds`);
  render($('#app'), html`${head}
    <section class="office"><h3 data-i18n="office.event"></h3>${officeForm(tour)}</section>
    <section class="office-players"><h3 data-i18n="office.from_register"></h3>
      <label for="f-q" data-i18n="office.search"></label><input id="f-q" type="search" autocomplete="off">
      <div id="f-results"></div>
      ${rounds.length ? '' : html`<p><button type="button" id="f-refresh" data-i18n="office.refresh"></button></p><div id="f-changes"></div>`}
    </section>`);
  $('#oform').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      Object.assign(tour, await api.patch(`tournaments/${tour.id}`, readOffice(e.target, tour)));
      toast(t('office.saved'));
    } catch (err) { toast(errorText(err), 'error'); }
  });
  bindSearch(tour);
  if (!rounds.length) bindRefresh(tour);
}

// ---------- a tournament from a report file ----------

// The "Import TRF" action of the tournament list: a TRF16 or TRF-2026 file
// (Swiss-Manager, Sharly Chess, bbpPairings) chosen or pasted becomes a
// whole tournament (POST tournaments/import); a refused file is shown with
// the line the server names, an accepted one opens.
export function importTrfSection() {
  return html`<details class="import-trf no-print"><summary data-i18n="desk.import_trf"></summary>
    <p class="hint" data-i18n="desk.import_trf_hint"></p>
    <form id="trf-form" class="form-grid">
      <label for="trf-file" data-i18n="desk.import_file"></label><input id="trf-file" type="file" accept=".trf,.txt,.trfx,text/plain">
      <label for="trf-text" data-i18n="desk.import_trf_text"></label><textarea id="trf-text" rows="6" spellcheck="false" autocomplete="off"></textarea>
      <div class="span-all"><button type="submit" class="primary" data-i18n="desk.import_trf_go"></button></div>
      <div id="trf-error" class="span-all" role="alert"></div></form></details>`;
}

// What the server said of a refused file: its message and, when it names
// one, the line and column.
function trfErrorText(err) {
  const e = (err && err.body && err.body.error) || {};
  return e.line ? t('desk.import_trf_error', { line: e.line, column: e.column || 1, message: e.message || '' }) : errorText(err);
}

export function bindImportTrf() {
  const form = $('#trf-form');
  if (!form) return;
  const text = $('#trf-text');
  // The file as read: a textarea turns the report's bare CR line ends into
  // LF, so the file's own text goes to the server until it is edited.
  let file = null;
  $('#trf-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    file = f ? await f.text() : null;
    text.value = file || '';
  });
  text.addEventListener('input', () => { file = null; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const trf = file || text.value;
    const out = $('#trf-error');
    if (!trf.trim()) { render(out, html`<p class="banner warn" data-i18n="desk.import_trf_empty"></p>`); return; }
    try {
      const res = await api.post('tournaments/import', { trf });
      render(out, html``);
      toast(t('desk.import_trf_done', { name: res.tournament.name, players: res.players, rounds: res.rounds }));
      for (const w of res.warnings || []) toast(w, 'error');
      location.hash = `#/t/${res.tournament.id}/players`;
    } catch (err) {
      render(out, html`<p class="banner warn">${trfErrorText(err)}</p>`);
    }
  });
}

// ---------- the public page ----------

// The event data and officials under a tournament's title: what is set.
export function officeSummary(tour) {
  const o = tour.office || {};
  const who = (p) => (p && p.name) || '';
  const dates = [tour.start_date, o.end_date].filter(Boolean).join(' – ');
  const items = [
    ['office.place', [tour.place, o.federation].filter(Boolean).join(', ')],
    ['office.dates', dates],
    ['office.chief_arbiter', who(o.chief_arbiter)],
    ['office.deputies', (o.deputies || []).map(who).filter(Boolean).join('; ')],
    ['office.chief_organiser', who(o.chief_organiser)],
    ['office.time_control_text', o.time_control_text || ''],
    ['office.rating_type', o.chief_arbiter || o.federation ? t(`office.rating.${tour.rating_type || 'standard'}`) : ''],
    ['office.event_code', o.event_code || ''],
  ].filter(([, v]) => v);
  if (!items.length) return html``;
  return html`<dl class="office-summary">${items.map(([k, v]) => html`<dt data-i18n="${k}"></dt><dd>${v}</dd>`)}</dl>`;
}
