// PIN slips in bulk: one confirmation issues fresh PINs for a round's
// boards (or every player) and prints the slips in the same step; the new
// PINs sign in, the old ones no longer do.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global window */

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage, ADMIN } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

const playerLogin = (tid, pin) => fetch(`${daemon.url}/api/v1/auth/player`, {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tournament_id: tid, pin }),
}).then((r) => r.status);

test('slips for round 1 in one step, in Bulgarian; new PINs work, old ones not', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Slip Open', time_control: '5400+30', rounds: 3 });
  const old = [];
  for (let i = 0; i < 7; i++) old.push((await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: `Играч ${i + 1}`, rating: 2000 - i * 10, title: i ? '' : 'FM' })).credentials.pin);
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, {});
  assert.equal(round.games.length, 3);
  const desk = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await desk.addInitScript(() => { window.printed = 0; window.print = () => { window.printed++; }; });
  await desk.goto(`${daemon.url}/desk.html`);
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#tform');
  await desk.goto(`${daemon.url}/desk.html?lang=bg#/t/${tour.id}/players`);
  await desk.click('#p-slips');
  assert.equal(await desk.inputValue('dialog.ask select[name="round"]'), '1');
  await desk.click('dialog.ask button.danger, dialog.ask button.primary');
  await desk.waitForSelector('#pin-slips .slip');
  const slips = await desk.locator('#pin-slips .slip').evaluateAll((els) => els.map((e) => ({
    pid: Number(e.dataset.pid), text: e.textContent.replace(/\s+/g, ' ').trim(), pin: e.querySelector('code').textContent,
  })));
  assert.equal(slips.length, 6, 'two players on each of the three boards; the bye has no slip');
  assert.match(slips[0].text, /Slip Open · Кръг 1 FM Играч 1 \(1\) Дъска 1 · (Белите|Черните) ПИН: \d{10}/);
  assert.equal(await desk.evaluate(() => window.printed), 1, 'printed in the same step');
  // The players' table shows the new PINs in this tab.
  const shown = await desk.locator('#players tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelector('.pin').textContent));
  assert.equal(shown.filter((p) => /^\d{10}$/.test(p)).length, 6);
  assert.equal(await playerLogin(tour.id, slips[0].pin), 200);
  const players = await arbiter.call('GET', `tournaments/${tour.id}/players`);
  const firstOld = old[players.findIndex((p) => p.id === slips[0].pid)];
  assert.equal(await playerLogin(tour.id, firstOld), 401);
  // All players: the seventh (the bye) too.
  await desk.click('#p-slips');
  await desk.selectOption('dialog.ask select[name="round"]', '');
  await desk.click('dialog.ask button.danger, dialog.ask button.primary');
  await desk.waitForFunction(() => window.printed === 2);
  assert.equal(await desk.locator('#pin-slips .slip').count(), 7);
  assert.deepEqual(desk.errors, []);
});
