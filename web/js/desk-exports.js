// Arbiter web: the desk's standings, crosstable and exports tabs, and the
// links every list has to the server's printable (HTML, a new tab) and
// downloadable (CSV, JSON) forms of it, the hall documents among them.

import * as api from './api.js';
import { html, render, $, $$, download } from './ui.js';
import { standingsTable, standingsCsv } from './views.js';
import { crosstableFor } from './crosstable-view.js';
import { app } from './desk-page.js';

// Links to the server's printable (HTML, new tab) and downloadable (CSV, JSON) lists.
const exportHref = (path, format) => `${api.BASE}/${path}${path.includes('?') ? '&' : '?'}format=${format}${
  format === 'html' ? `&lang=${document.documentElement.lang || 'en'}` : ''}`;
const printLink = (path, key) => html`<a class="button" href="${exportHref(path, 'html')}" target="_blank" rel="noopener" data-i18n="${key}"></a>`;
const fileLink = (path, format, key) => html`<a class="button" href="${exportHref(path, format)}" download data-i18n="${key}"></a>`;

// The hall documents' paper: US Letter where that is the usual size.
const hallPaper = /-(US|CA)$/.test(navigator.language) ? 'letter' : 'a4';

// Each round's pairing lists, below its table (by board, alphabetical, CSV),
// and its hall documents.
export function roundExports(tour) {
  for (const sec of $$('section.round', app)) {
    const path = `tournaments/${tour.id}/rounds/${sec.dataset.rn}/pairings`;
    const bar = document.createElement('div');
    bar.className = 'toolbar no-print round-exports';
    render(bar, html`${printLink(path, 'desk.pairings_board')}${printLink(`${path}?order=alpha`, 'desk.pairings_alpha')}
      ${fileLink(path, 'csv', 'desk.pairings_csv')}${['board', 'alpha', 'cards', 'slips'].map((d) =>
        printLink(`tournaments/${tour.id}/rounds/${sec.dataset.rn}/hall?paper=${hallPaper}&doc=${d}`, `hall.link_${d}`))}`);
    const table = $('table', sec);
    if (table) table.after(bar); else sec.append(bar);
  }
}

// The standings tab of tournament TOUR under the tab bar HEAD.
export async function viewStandings(tour, head) {
  const rows = await api.get(`tournaments/${tour.id}/standings`);
  const path = `tournaments/${tour.id}/standings`;
  render(app, html`${head}<div class="toolbar no-print"><button type="button" id="print" data-i18n="desk.print"></button>
    ${printLink(path, 'desk.export_print')}${fileLink(path, 'csv', 'desk.export_csv_file')}</div>${standingsTable(rows)}`);
  $('#print').addEventListener('click', () => window.print());
}

// The crosstable tab of tournament TOUR under the tab bar HEAD.
export async function viewCrosstable(tour, head) {
  const table = await crosstableFor(tour);
  const path = `tournaments/${tour.id}/crosstable`;
  render(app, html`${head}<div class="toolbar no-print"><button type="button" id="print" data-i18n="desk.print"></button>
    ${printLink(path, 'desk.export_print')}${fileLink(path, 'csv', 'desk.export_csv_file')}${fileLink(path, 'json', 'desk.export_json_file')}</div><div class="scroll-x">${table}</div>`);
  $('#print').addEventListener('click', () => window.print());
}

// The exports tab: the whole tournament as PGN, TRF, CSV and HTML.
export async function viewExports(tour, head) {
  render(app, html`${head}<ul class="exports">
    <li><a href="${api.BASE}/tournaments/${tour.id}/pgn" download="tournament-${tour.id}.pgn" data-i18n="desk.export_pgn"></a></li>
    <li><a href="${api.BASE}/tournaments/${tour.id}/trf" download="tournament-${tour.id}.trf" data-i18n="desk.export_trf"></a></li>
    <li><button type="button" id="csv" data-i18n="desk.export_csv"></button></li>
    <li><a href="${exportHref(`tournaments/${tour.id}/standings`, 'html')}" target="_blank" rel="noopener" data-i18n="desk.export_html"></a></li>
    <li><a href="${exportHref(`tournaments/${tour.id}/crosstable`, 'html')}" target="_blank" rel="noopener" data-i18n="desk.export_crosstable_html"></a></li>
    <li><a href="${exportHref(`tournaments/${tour.id}/crosstable`, 'csv')}" download data-i18n="desk.export_crosstable_csv"></a></li>
    <li>${printLink(`tournaments/${tour.id}/hall?paper=${hallPaper}`, 'hall.link_wall')}</li></ul>`);
  $('#csv').addEventListener('click', async () => {
    download(`standings-${tour.id}.csv`, standingsCsv(await api.get(`tournaments/${tour.id}/standings`)), 'text/csv');
  });
}
