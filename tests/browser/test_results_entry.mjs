// The desk's result entry at the speed of a keyboard: a 100-player Swiss
// round, its 50 results typed one key per board by a robot at human speed
// (150 ms a key), with the count of missing results, forfeits and byes in
// the same list; the pairings show start numbers, titles, ratings and the
// points before the round.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document, window */

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage, deskSignedIn } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

const KEY_MS = 150;

const deskAt = (hash) => deskSignedIn(browser, daemon, hash);

test('50 results of a 100-player round from the keyboard, one key a board', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Keyboard Open', time_control: '5400+30', rounds: 5 });
  for (let i = 0; i < 100; i++) {
    await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: `Player ${String(i + 1).padStart(3, '0')}, A`, rating: 2600 - i * 8, title: i < 3 ? 'GM' : '' });
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, {});
  assert.equal(round.games.length, 50);
  const desk = await deskAt(`#/t/${tour.id}/results`);
  await desk.waitForSelector('#re-table input.re-cell');
  assert.equal(await desk.textContent('#re-missing'), 'Results missing: 50 of 50');
  // Board 1: the top seed, with title, start number and rating.
  const head = await desk.locator('#re-table tbody tr').first().locator('td').allTextContents();
  assert.match(head.join('|'), /^1\|1\|GM Player 001, A\|2600\|0\|/);
  // The first missing result has the focus: no click needed.
  assert.equal(await desk.evaluate(() => document.activeElement.dataset.gid), String(round.games.sort((a, b) => a.board - b.board)[0].id));
  const keys = ['1', '=', '0', '5', '+', '-'];
  const want = { 1: '1-0', '=': '1/2-1/2', 0: '0-1', 5: '1/2-1/2', '+': '+/-', '-': '-/+' };
  let strokes = 0;
  const t0 = Date.now();
  for (let b = 0; b < 50; b++) {
    await desk.keyboard.press(keys[b % keys.length], { delay: 20 });
    strokes++;
    await desk.waitForTimeout(KEY_MS);
  }
  await desk.waitForFunction(() => document.querySelector('#re-missing').textContent.startsWith('Results missing: 0 '), null, { timeout: 30000 });
  await desk.waitForFunction(() => !document.querySelector('#re-table input.pending'), null, { timeout: 30000 });
  const ms = Date.now() - t0;
  const stored = (await arbiter.call('GET', `tournaments/${tour.id}/rounds/1`)).games.sort((a, b) => a.board - b.board);
  assert.deepEqual(stored.map((g) => g.result), stored.map((g, i) => want[keys[i % keys.length]]));
  console.log(`# result entry: 50 boards, ${strokes} keystrokes (${(strokes / 50).toFixed(1)} per board), ${(ms / 1000).toFixed(1)} s at ${KEY_MS} ms a key`);
  assert.ok(strokes / 50 <= 3);
  assert.ok(ms < 120000, `${ms} ms`);
  assert.equal(await desk.inputValue('#re-table tbody tr:nth-child(5) input'), '+ – -');
  // Arrows go back up without changing anything; a key corrects a result.
  await desk.keyboard.press('ArrowUp');
  await desk.keyboard.press('ArrowUp');
  await desk.keyboard.press('1');
  await desk.waitForFunction(() => !document.querySelector('#re-table input.pending'));
  assert.equal((await arbiter.call('GET', `tournaments/${tour.id}/rounds/1`)).games.find((g) => g.board === 49).result, '1-0');
  assert.deepEqual(desk.errors, []);
});

test('round picker, points before the round, byes in the list, in Russian', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Picker Open', time_control: '5400+30', rounds: 3 });
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push((await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: `Игрок ${i + 1}`, rating: 2400 - i * 50 })).player.id);
  const r1 = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, {});
  for (const g of r1.games) await arbiter.call('POST', `games/${g.id}/arbiter/result`, { white: 1, black: 0 });
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {}).catch(() => {});
  await arbiter.call('POST', `tournaments/${tour.id}/rounds`, {});
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=ru#/t/${tour.id}/results`);
  await desk.waitForSelector('#re-table');
  assert.equal(await desk.inputValue('#re-round'), '2');
  assert.match(await desk.textContent('#re-missing'), /Нет результата: 2 из 2/);
  // The pairing-allocated bye of round 2 is in the list; points before round 2 are counted.
  assert.equal(await desk.locator('#re-table tr.bye').count(), 1);
  const pts = await desk.locator('#re-table tbody tr:not(.bye) td.pts').allTextContents();
  assert.ok(pts.some((p) => p === '1'), pts.join(','));
  await desk.selectOption('#re-round', '1');
  await desk.waitForFunction(() => document.querySelector('#re-missing')?.textContent.includes('0 из 2'));
  assert.equal(await desk.locator('#re-table tr.bye').count(), 1);
  assert.deepEqual(desk.errors, []);
});

test('the Swiss crosstable in chess-results form; public pairings per round on a phone', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Cross Open', time_control: '5400+30', rounds: 3 });
  for (let i = 0; i < 4; i++) await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: `Player ${i + 1}`, rating: 2300 - i * 50, title: i ? '' : 'IM' });
  const r1 = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true });
  await arbiter.call('POST', `games/${r1.games[0].id}/arbiter/result`, { white: 1, black: 0 });
  await arbiter.call('POST', `games/${r1.games[1].id}/arbiter/result`, { white: 0.5, black: 0.5 });
  await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true });
  const desk = await deskAt(`#/t/${tour.id}/crosstable`);
  await desk.waitForSelector('table.cross.swiss tbody tr');
  const cells = await desk.locator('table.cross.swiss tbody td.rc').allTextContents();
  assert.ok(cells.includes('3w1') || cells.includes('4w1'), cells.join('|'));
  assert.ok(cells.some((c) => /^\db½$/.test(c)), cells.join('|'));
  const pub = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await pub.goto(`${daemon.url}/#/t/${tour.id}/pairings`);
  await pub.waitForSelector('table.pairings-full tbody tr');
  assert.equal(await pub.inputValue('#p-round'), '2');
  const first = await pub.locator('table.pairings-full tbody tr').first().locator('td').allTextContents();
  assert.equal(first[0], '1');
  assert.match(first.join('|'), /\|1½?\|/, 'points before round 2');
  await pub.selectOption('#p-round', '1');
  await pub.waitForFunction(() => document.querySelector('table.pairings-full caption')?.textContent === 'Round 1');
  assert.match((await pub.locator('table.pairings-full tbody tr').first().locator('td').allTextContents()).join('|'), /^1\|1\|IM Player 1\|2300\|0\|1–0\|/);
  // Nothing wider than the phone: not the page, not the pairings table.
  const overflow = await pub.evaluate(() => [document.documentElement.scrollWidth - window.innerWidth,
    document.querySelector('table.pairings-full').getBoundingClientRect().right - window.innerWidth]);
  assert.ok(overflow[0] <= 0 && overflow[1] <= 0, `${overflow} px wider than the phone`);
  assert.deepEqual([...desk.errors, ...pub.errors], []);
});
