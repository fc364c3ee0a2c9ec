// The printable lists in a real browser: the desk links each round's pairing
// lists and the standings and crosstable downloads; the server's HTML pages
// open in a new tab styled under their own Content-Security-Policy (a blocked
// style would leave the table without rules and shading), with names shown as
// text, and keep the table header on every printed page.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document, getComputedStyle */

import test from 'node:test';
import assert from 'node:assert/strict';
import { Daemon, ADMIN, ApiClient, launchBrowser, newPage, stopAll } from './harness.mjs';

let daemon; let browser; let tid;
test.before(async () => {
  daemon = new Daemon();
  daemon.createUser(ADMIN);
  await daemon.start();
  browser = await launchBrowser();
  // Five players, round 1 played, round 2 paired.
  const api = new ApiClient(daemon.url);
  await api.login(ADMIN);
  const tour = await api.call('POST', 'tournaments', { name: 'Export <Open>', time_control: '60' });
  tid = tour.id;
  await api.call('PATCH', `tournaments/${tid}`, { system: 'swiss', rounds: 3 });
  const names = ['<b>Bold</b>, Ben', 'Adams, Ann', 'Clark, Carl', 'Dunn, Dora', 'Evans, Eve'];
  for (const [i, name] of names.entries()) await api.call('POST', `tournaments/${tid}/players`, { name, rating: 2000 - 10 * i });
  const r1 = await api.call('POST', `tournaments/${tid}/rounds`, { publish: true });
  await api.call('POST', `tournaments/${tid}/rounds/1/start`);
  for (const g of r1.games) await api.call('POST', `games/${g.id}/arbiter/result`, { white: 1, black: 0 });
  await api.call('POST', `tournaments/${tid}/rounds`, { publish: true });
});
test.after(() => stopAll(daemon, browser));

async function login(page) {
  await page.goto(`${daemon.url}/desk.html`);
  await page.fill('#user', ADMIN.username);
  await page.fill('#pass', ADMIN.password);
  await page.click('#login button.primary');
  await page.waitForSelector('#login', { state: 'detached' });
}

// The export page is styled (the policy let its style in) and shows names as text.
async function checkPage(page) {
  await page.waitForSelector('table');
  const look = await page.evaluate(() => {
    const th = document.querySelector('th');
    const td = document.querySelector('td');
    return {
      bg: getComputedStyle(th).backgroundColor,
      border: getComputedStyle(td).borderTopStyle,
      collapse: getComputedStyle(document.querySelector('table')).borderCollapse,
      bold: document.querySelectorAll('td b').length,
      text: document.body.textContent,
      title: document.title,
    };
  });
  assert.equal(look.bg, 'rgb(232, 232, 232)');
  assert.equal(look.border, 'solid');
  assert.equal(look.collapse, 'collapse');
  assert.equal(look.bold, 0);
  assert.match(look.text, /<b>Bold<\/b>, Ben/);
  assert.match(look.title, /^Export <Open> — /);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('thead')).display), 'table-header-group');
  assert.deepEqual(page.errors, []);
}

test('the desk links the pairing lists of every round', async () => {
  const desk = await newPage(browser);
  await login(desk);
  await desk.goto(`${daemon.url}/desk.html#/t/${tid}/rounds`);
  await desk.waitForSelector('section.round .round-exports a');
  const hrefs = await desk.$$eval('section.round .round-exports a', (as) => as.map((a) => a.getAttribute('href')));
  for (const rn of [1, 2]) {
    assert.ok(hrefs.includes(`/api/v1/tournaments/${tid}/rounds/${rn}/pairings?format=html&lang=en`), hrefs.join(' '));
    assert.ok(hrefs.includes(`/api/v1/tournaments/${tid}/rounds/${rn}/pairings?order=alpha&format=html&lang=en`));
    assert.ok(hrefs.includes(`/api/v1/tournaments/${tid}/rounds/${rn}/pairings?format=csv`));
  }
  // The alphabetical list of round 2 opens in a new tab.
  const link = desk.locator(`section.round[data-rn="2"] a[href$="order=alpha&format=html&lang=en"]`);
  assert.equal(await link.textContent(), 'Alphabetical list');
  const [tab] = await Promise.all([desk.context().waitForEvent('page'), link.click()]);
  tab.errors = [];
  tab.on('console', (m) => { if (m.type() === 'error') tab.errors.push(m.text()); });
  await tab.waitForLoadState();
  await checkPage(tab);
  const names = await tab.$$eval('tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
  // Symbols and punctuation weigh less than letters (glibc's and the server's collation).
  const letters = (s) => s.replace(/[^\p{L}\p{N}, ]/gu, '');
  assert.deepEqual(names, [...names].sort((a, b) => letters(a).localeCompare(letters(b), 'en', { sensitivity: 'base' })));
  assert.equal(names.length, 5);
  assert.deepEqual(desk.errors, []);
});

test('standings and crosstable: printable pages and downloads', async () => {
  const desk = await newPage(browser);
  await login(desk);
  for (const view of ['standings', 'crosstable']) {
    await desk.goto(`${daemon.url}/desk.html#/t/${tid}/${view}`);
    const print = desk.locator(`a[href="/api/v1/tournaments/${tid}/${view}?format=html&lang=en"]`);
    await print.waitFor();
    assert.equal(await print.getAttribute('target'), '_blank');
    const csv = desk.locator(`a[href="/api/v1/tournaments/${tid}/${view}?format=csv"]`);
    assert.equal(await csv.count(), 1);
    const [download] = await Promise.all([desk.waitForEvent('download'), csv.click()]);
    assert.equal(download.suggestedFilename(), `${view}-${tid}.csv`);
    const page = await newPage(browser);
    await page.goto(`${daemon.url}/api/v1/tournaments/${tid}/${view}?format=html`);
    await checkPage(page);
    await page.context().close();
  }
  assert.deepEqual(desk.errors, []);
});

test('a desk in Bulgarian prints in Bulgarian', async () => {
  const desk = await newPage(browser, { locale: 'bg-BG' });
  await login(desk);
  await desk.goto(`${daemon.url}/desk.html#/t/${tid}/crosstable`);
  const print = desk.locator(`a[href="/api/v1/tournaments/${tid}/crosstable?format=html&lang=bg"]`);
  await print.waitFor();
  assert.equal(await print.textContent(), 'Версия за печат');
  const page = await newPage(browser);
  await page.goto(`${daemon.url}${await print.getAttribute('href')}`);
  await checkPage(page);
  assert.match(await page.textContent('p.sub'), /^Кръстосана таблица след кръг 1/);
  assert.equal(await page.getAttribute('html', 'lang'), 'bg');
  await page.context().close();
  assert.deepEqual(desk.errors, []);
});
