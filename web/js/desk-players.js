// Arbiter web: the desk's players tab: the list in pairing-number order with
// each player's PIN as far as this browser has seen it (sessionStorage), and
// edit, new PIN, withdraw or reinstate, and bye actions; adding one player or
// many from pasted or chosen CSV text (a preview with the column mapping and
// each row's problems first); the PIN slips; and the forbidden pairs the
// pairing must never put on one board.

import * as api from './api.js';
import { t } from './i18n.js';
import { html, render, $, $$, ask, toast, errorText } from './ui.js';
import { parsePlayers, rowToPlayer, FIELDS } from './player-import.js';
import { issueSlips } from './pin-slips.js';
import { app, route } from './desk-page.js';

// ---------- players ----------
function pinStore(tid) {
  const key = `arbiter.pins.${tid}`;
  return {
    all: () => JSON.parse(sessionStorage.getItem(key) || '{}'),
    put(pid, pin) { const a = this.all(); a[pid] = pin; sessionStorage.setItem(key, JSON.stringify(a)); },
  };
}

// The players tab of tournament TOUR under the tab bar HEAD.
export async function viewPlayers(tour, head) {
  const players = await api.get(`tournaments/${tour.id}/players`);
  const pins = pinStore(tour.id);
  const known = pins.all();
  // Forbidden pairs: players the pairing must never put on one board.
  const forbidden = await api.get(`tournaments/${tour.id}/forbidden`).catch(() => []);
  // The server's pairing numbers (C.04.2), shown in the # column.
  players.sort((a, b) => (a.tpn ?? Infinity) - (b.tpn ?? Infinity) || a.id - b.id);
  render(app, html`${head}
    <div class="toolbar no-print"><button type="button" id="p-print" data-i18n="desk.print_pins"></button>
      <button type="button" id="p-slips" class="primary" data-i18n="slips.issue"></button></div><section id="pin-slips"></section>
    <table id="players"><thead><tr><th class="num">#</th><th data-i18n="view.name"></th><th data-i18n="desk.title_col"></th>
    <th class="num" data-i18n="view.rating"></th><th data-i18n="view.federation"></th><th data-i18n="desk.fide_id"></th>
    <th data-i18n="desk.status"></th><th data-i18n="desk.pin"></th><th class="no-print"></th></tr></thead>
    <tbody>${players.map((p, i) => html`<tr data-pid="${p.id}"><td class="num">${p.tpn ?? i + 1}</td><td>${p.name}</td><td>${p.title || ''}</td>
      <td class="num">${p.rating || ''}</td><td>${p.federation || ''}</td><td>${p.fide_id || ''}</td>
      <td><span class="pill ${p.status || 'active'}">${t(`pstatus.${p.status || 'active'}`)}</span></td>
      <td class="pin"><code>${known[p.id] || '••••'}</code></td>
      <td class="no-print"><button type="button" data-act="edit" data-i18n="desk.edit"></button>
      <button type="button" data-act="pin" data-i18n="desk.new_pin"></button>
      <button type="button" data-act="status" data-i18n="${p.status === 'withdrawn' ? 'desk.reinstate' : 'desk.withdraw'}"></button>
      <button type="button" data-act="bye" data-i18n="desk.bye"></button></td></tr>`)}</tbody></table>
    <h2 class="no-print" data-i18n="desk.add_player"></h2>
    <form id="padd" class="toolbar no-print" autocomplete="off">
      <label for="pa-name" class="sr-only" data-i18n="view.name"></label><input id="pa-name" name="name" required data-i18n-attr="placeholder:view.name">
      <label for="pa-title" class="sr-only" data-i18n="desk.title_col"></label><input id="pa-title" name="title" size="4" data-i18n-attr="placeholder:desk.title_col">
      <label for="pa-rating" class="sr-only" data-i18n="view.rating"></label><input id="pa-rating" name="rating" type="number" min="0" max="4000" class="w-6" data-i18n-attr="placeholder:view.rating">
      <label for="pa-fed" class="sr-only" data-i18n="view.federation"></label><input id="pa-fed" name="federation" size="4" data-i18n-attr="placeholder:view.federation">
      <label for="pa-fide" class="sr-only" data-i18n="desk.fide_id"></label><input id="pa-fide" name="fide_id" size="9" data-i18n-attr="placeholder:desk.fide_id">
      <button class="primary" data-i18n="desk.add"></button></form>
    <details class="no-print" id="pimport-box"><summary data-i18n="desk.import"></summary>
      <p class="muted" data-i18n="desk.import_hint"></p>
      <textarea id="pimport" class="w-full" rows="6" data-i18n-attr="aria-label:desk.import"></textarea>
      <div class="toolbar"><label for="pimport-file" data-i18n="desk.import_file"></label><input id="pimport-file" type="file" accept=".csv,.tsv,.txt,text/csv,text/plain">
      <button type="button" id="pimport-preview" data-i18n="desk.import_preview"></button></div>
      <div id="pimport-table"></div></details>
    <section id="forbidden" class="no-print"><h2 data-i18n="desk.forbidden"></h2>
      <p class="muted" data-i18n="desk.forbidden_hint"></p>
      ${forbidden.length ? html`<ul id="fb-list">${forbidden.map((f) => html`<li data-a="${f.players[0]}" data-b="${f.players[1]}">${f.names[0]} – ${f.names[1]}
        ${f.first_round || f.last_round ? html`<span class="muted">(${t('desk.forbidden_rounds', { from: f.first_round || 1, to: f.last_round || '…' })})</span>` : ''}
        <button type="button" data-act="fb-remove" data-i18n="desk.forbidden_remove"></button></li>`)}</ul>`
    : html`<p class="muted" data-i18n="desk.forbidden_none"></p>`}
      <form id="fb-add" class="toolbar" autocomplete="off">
        <label for="fb-a" class="sr-only" data-i18n="desk.forbidden_player1"></label><select id="fb-a" name="a" required>${players.map((p) => html`<option value="${p.id}">${p.name}</option>`)}</select>
        <label for="fb-b" class="sr-only" data-i18n="desk.forbidden_player2"></label><select id="fb-b" name="b" required>${players.map((p, i) => html`<option value="${p.id}" ${i === 1 ? html`selected` : ''}>${p.name}</option>`)}</select>
        <button class="primary" data-i18n="desk.forbidden_add"></button></form></section>`);
  const names = (ids) => ids.map((id) => (players.find((p) => p.id === id) || { name: `#${id}` }).name);
  $('#fb-add').addEventListener('submit', async (e) => {
    e.preventDefault();
    const ids = [Number(e.target.a.value), Number(e.target.b.value)];
    try {
      await api.post(`tournaments/${tour.id}/forbidden`, { players: ids });
      const [a, b] = names(ids);
      toast(t('desk.forbidden_added', { a, b }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  $('#forbidden').addEventListener('click', async (e) => {
    if (e.target.dataset.act !== 'fb-remove') return;
    const li = e.target.closest('li');
    const ids = [Number(li.dataset.a), Number(li.dataset.b)];
    try {
      await api.post(`tournaments/${tour.id}/forbidden/remove`, { players: ids });
      const [a, b] = names(ids);
      toast(t('desk.forbidden_removed', { a, b }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  const add = async (body) => {
    const r = await api.post(`tournaments/${tour.id}/players`, body);
    pins.put(r.player.id, r.credentials.pin);
    return r;
  };
  const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined && !Number.isNaN(v)));
  $('#padd').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = e.target;
    try {
      const r = await add(clean({ name: f.name.value.trim(), title: f.title.value.trim(), rating: f.rating.value ? Number(f.rating.value) : undefined, federation: f.federation.value.trim(), fide_id: f.fide_id.value.trim() }));
      toast(t('desk.player_added', { name: r.player.name, pin: r.credentials.pin }));
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
  bindImport(tour, add, clean);
  $('#p-print').addEventListener('click', () => { document.body.classList.remove('printing-slips'); window.print(); });
  $('#p-slips').addEventListener('click', async () => issueSlips(tour, await api.get(`tournaments/${tour.id}/rounds`), $('#pin-slips'), (pid, pin) => {
    pins.put(pid, pin);
    const cell = $(`#players tr[data-pid="${pid}"] .pin code`);
    if (cell) cell.textContent = pin;
  }));
  $('#players').addEventListener('click', async (e) => {
    const act = e.target.dataset.act;
    if (!act) return;
    const pid = Number(e.target.closest('tr').dataset.pid);
    const p = players.find((x) => x.id === pid);
    try {
      if (act === 'edit') {
        const r = await ask({ title: t('desk.edit'), fields: [
          { name: 'name', label: t('view.name'), value: p.name, required: true }, { name: 'title', label: t('desk.title_col'), value: p.title },
          { name: 'rating', label: t('view.rating'), type: 'number', value: p.rating }, { name: 'federation', label: t('view.federation'), value: p.federation },
          { name: 'fide_id', label: t('desk.fide_id'), value: p.fide_id },
          { name: 'rating_estimate', label: t('desk.estimate'), type: 'number', value: p.rating_estimate || '' }] });
        if (!r) return;
        await api.patch(`tournaments/${tour.id}/players/${pid}`, { ...r, rating: r.rating ? Number(r.rating) : 0, rating_estimate: r.rating_estimate ? Number(r.rating_estimate) : 0 });
      } else if (act === 'pin') {
        if (!await ask({ title: t('desk.new_pin'), message: t('desk.new_pin_confirm', { name: p.name }) })) return;
        const c = await api.post(`tournaments/${tour.id}/players/${pid}/credentials`, {});
        pins.put(pid, c.pin);
        toast(t('desk.pin_is', { name: p.name, pin: c.pin }));
      } else if (act === 'status') {
        const to = p.status === 'withdrawn' ? 'active' : 'withdrawn';
        if (!await ask({ title: t(to === 'withdrawn' ? 'desk.withdraw' : 'desk.reinstate'), message: p.name, danger: to === 'withdrawn' })) return;
        await api.patch(`tournaments/${tour.id}/players/${pid}`, { status: to });
      } else if (act === 'bye') {
        const rounds = await api.get(`tournaments/${tour.id}/rounds`);
        const r = await ask({ title: t('desk.bye'), message: p.name, fields: [
          { name: 'round', label: t('desk.bye_round'), type: 'number', value: rounds.length + 1, required: true },
          { name: 'kind', label: t('desk.bye_kind'), type: 'select', value: 'half',
            options: [['half', t('desk.bye_half')], ['zero', t('desk.bye_zero')], ['none', t('desk.bye_cancel')]] }] });
        if (!r) return;
        await api.post(`tournaments/${tour.id}/players/${pid}/byes`, { round: Number(r.round), kind: r.kind });
        toast(t(r.kind === 'none' ? 'desk.bye_cancelled' : 'desk.bye_done', { name: p.name, n: Number(r.round) }));
      }
      route();
    } catch (err) { toast(errorText(err), 'error'); }
  });
}

// ---------- player import: preview, column mapping, per-row errors ----------
function bindImport(tour, add, clean) {
  let parsed = null;
  const rowsOf = () => parsed.rows.map((row) => ({ row, ...rowToPlayer(row, parsed.columns) }));
  const draw = () => {
    const rows = rowsOf();
    const ok = rows.filter((r) => !r.errors.length).length;
    const width = Math.max(parsed.columns.length, ...parsed.rows.map((r) => r.length));
    const cols = Array.from({ length: width }, (_, i) => parsed.columns[i] || '');
    render($('#pimport-table'), html`<div class="scroll-x"><table id="pimport-rows"><thead><tr><th class="num">#</th>
      ${cols.map((f, i) => html`<th><label class="sr-only" for="pcol-${i}">${t('desk.import_column', { n: i + 1 })}</label><select id="pcol-${i}" data-col="${i}">
        <option value="" ${f ? '' : html`selected`}>${t('desk.import_ignore')}</option>
        ${FIELDS.map((x) => html`<option value="${x}" ${x === f ? html`selected` : ''}>${t(`desk.import_field.${x}`)}</option>`)}</select></th>`)}
      <th data-i18n="desk.import_problems"></th></tr></thead>
      <tbody>${rows.map((r, n) => html`<tr class="${r.errors.length ? 'bad' : ''}"><td class="num">${n + 1}</td>${cols.map((_, i) => html`<td>${r.row[i] ?? ''}</td>`)}
        <td class="err">${r.errors.map((e) => t(`desk.import_err.${e.field}`, { value: e.value ?? '' })).join('; ')}</td></tr>`)}</tbody></table></div>
      <p class="toolbar"><button type="button" class="primary" id="pimport-go" ${ok ? '' : html`disabled`}>${t('desk.import_go', { n: ok })}</button>
      <span class="muted">${t('desk.import_summary', { rows: rows.length, bad: rows.length - ok })}</span></p>`);
    $$('#pimport-rows select').forEach((sel) => sel.addEventListener('change', () => {
      const i = Number(sel.dataset.col);
      while (parsed.columns.length <= i) parsed.columns.push('');
      if (sel.value) parsed.columns = parsed.columns.map((f) => (f === sel.value ? '' : f));
      parsed.columns[i] = sel.value;
      draw();
    }));
    $('#pimport-go').addEventListener('click', async () => {
      let n = 0; const failed = [];
      for (const r of rowsOf()) {
        if (r.errors.length) continue;
        try { await add(clean(r.player)); n++; } catch (err) { failed.push(`${r.player.name}: ${errorText(err)}`); }
      }
      toast(t('desk.imported', { n }));
      for (const f of failed) toast(f, 'error');
      route();
    });
  };
  const preview = () => {
    parsed = parsePlayers($('#pimport').value);
    draw();
  };
  $('#pimport-preview').addEventListener('click', preview);
  $('#pimport-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $('#pimport').value = await file.text();
    preview();
  });
}
