// The tournament office in the desk: a Swiss's pairing system and
// acceleration set in the tournament form, the virtual points of a
// Baku-accelerated round in the desk's pairing view and never in the
// standings, and a whole tournament imported from a TRF file (a refused
// file shows the server's message with its line; an accepted one opens).

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document */

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startAll, stopAll, WEB_ROOT, deskSignedIn } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

const TRF = path.resolve(WEB_ROOT, '..', 'tests', 'data', 'trf-desk', 'desk-open.trf');

const deskAt = (hash = '') => deskSignedIn(browser, daemon, hash);

// Polls the tournament until CHECK(tour) holds.
async function until(id, check) {
  for (let i = 0; i < 50; i++) {
    const tour = await arbiter.call('GET', `tournaments/${id}`);
    if (check(tour)) return tour;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`tournament ${id} never got there`);
}

test('pairing system and acceleration in the tournament form', async () => {
  const desk = await deskAt();
  await desk.fill('#t-name', 'Form Swiss');
  assert.equal(await desk.isVisible('#t-swiss'), true);
  await desk.selectOption('#t-psys', 'burstein');
  await desk.selectOption('#t-accel', 'baku');
  await desk.click('#tform button.primary');
  await desk.waitForURL(/#\/t\/\d+\/players/);
  const id = Number(desk.url().match(/#\/t\/(\d+)/)[1]);
  let tour = await arbiter.call('GET', `tournaments/${id}`);
  assert.equal(tour.pairing_system, 'burstein');
  assert.equal(tour.acceleration, 'baku');
  // The settings show what is stored and change it.
  await desk.goto(`${daemon.url}/desk.html#/t/${id}/settings`);
  await desk.waitForSelector('#t-psys');
  assert.equal(await desk.inputValue('#t-psys'), 'burstein');
  assert.equal(await desk.inputValue('#t-accel'), 'baku');
  await desk.selectOption('#t-psys', 'dutch');
  await desk.selectOption('#t-accel', 'none');
  await desk.click('#tform button.primary');
  tour = await until(id, (x) => x.acceleration === 'none');
  assert.equal(tour.pairing_system, 'dutch');
  // Only a Swiss has them.
  await desk.waitForSelector('#t-psys');
  await desk.selectOption('#t-system', 'roundrobin');
  assert.equal(await desk.isVisible('#t-swiss'), false);
  assert.deepEqual(desk.errors, []);
});

test('virtual points of a Baku round in the pairing view, never in the standings', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Baku Open', time_control: '5400+30', rounds: 5, acceleration: 'baku' });
  for (let i = 0; i < 8; i++) await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: `Baku ${i + 1}`, rating: 2400 - i * 25 });
  // Five rounds: the upper half carries a point in rounds 1 and 2 (C.04.7).
  const r1 = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, {});
  assert.equal(r1.virtual_points.length, 4);
  for (const g of r1.games) await arbiter.call('POST', `games/${g.id}/arbiter/result`, { white: 1, black: 0 });
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {}).catch(() => {});
  const r2 = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, {});
  assert.equal(r2.virtual_points.length, 4);
  const desk = await deskAt(`#/t/${tour.id}/results/1`);
  for (const rn of [1, 2]) {
    await desk.goto(`${daemon.url}/desk.html#/t/${tour.id}/results/${rn}`);
    await desk.waitForFunction((n) => document.querySelector('#re-table caption')?.textContent.includes(String(n)), rn);
    const marked = await desk.locator('#re-table td.pts[data-virtual]').allTextContents();
    assert.equal(marked.length, 4, `round ${rn}: ${marked}`);
    for (const text of marked) assert.match(text, /\(\+1\)$/);
    assert.match(await desk.textContent('#re-table tfoot'), /virtual points/);
  }
  await desk.goto(`${daemon.url}/desk.html#/t/${tour.id}/standings`);
  // The results view's table stays until the standings are drawn.
  await desk.waitForFunction(() => !document.querySelector('#re-table') && document.querySelector('#app table tbody tr'));
  const standings = await desk.textContent('#app');
  assert.doesNotMatch(standings, /\(\+|virtual/i);
  assert.deepEqual(desk.errors, []);
});

test('a tournament imported from a TRF file opens in the desk', async () => {
  const desk = await deskAt();
  await desk.click('details.import-trf summary');
  // A refused file: the server's message with the line it names.
  await desk.fill('#trf-text', '012 Broken\n001    1 m    Alpha, Ann                        2100 BUL      1234567 1990/01/01  1.0    1     2 w 1\n'
    + '001    2 m    Beta, Bob                         2000 BUL      7654321 1991/01/01  1.0    2     1 b 1\n');
  await desk.click('#trf-form button.primary');
  await desk.waitForSelector('#trf-error .banner');
  assert.match(await desk.textContent('#trf-error'), /line 2/);
  // The committed report: six players after two rounds of a Burstein open.
  await desk.setInputFiles('#trf-file', TRF);
  await desk.waitForFunction(() => document.querySelector('#trf-text').value.includes('Desk Import Open'));
  await desk.click('#trf-form button.primary');
  await desk.waitForURL(/#\/t\/\d+\/players/);
  const id = Number(desk.url().match(/#\/t\/(\d+)/)[1]);
  await desk.waitForSelector('#players tbody tr');
  assert.equal(await desk.locator('#players tbody tr').count(), 6);
  const tour = await arbiter.call('GET', `tournaments/${id}`);
  assert.equal(tour.name, 'Desk Import Open');
  assert.equal(tour.pairing_system, 'burstein');
  assert.equal((await arbiter.call('GET', `tournaments/${id}/rounds`)).length, 2);
  assert.deepEqual(desk.errors, []);
});
