// The tablet around the board: a header with tournament, round and board,
// the players with title and rating, a full-screen button, the screen wake
// lock while the game runs, touch targets of at least 44 px in landscape
// and portrait, and the confirm-move step: optional at a tablet, or required
// by the tournament (settings.confirm_moves), when the tablet cannot turn it
// off and a cancelled move sends nothing; a change of that setting at the
// desk reaches an open tablet without a reload.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document, window */

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage, dragMove, checkedIn } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

async function signIn(tid, pin, viewport) {
  const tab = await newPage(browser, { viewport });
  // Count the wake lock requests; the headless browser has no screen to keep on.
  await tab.addInitScript(() => {
    window.wakeRequests = 0;
    Object.defineProperty(navigator, 'wakeLock', { value: { request: async () => { window.wakeRequests++; return { addEventListener() {} }; } } });
  });
  await tab.goto(`${daemon.url}/board.html?t=${tid}`);
  // Checked in before the round starts: present at the board (6.7).
  const present = checkedIn(tab);
  await tab.fill('#pin', pin);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.cg-wrap');
  await present;
  return tab;
}

test('header, names with title and rating, wake lock, touch targets, confirm move', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Tablet Head Open', time_control: '900+10', system: 'manual', rounds: 1 });
  const ids = []; const pins = [];
  for (const [name, rating, title] of [['White, Wanda', 2310, 'WGM'], ['Black, Boris', 2250, '']]) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name, rating, title });
    ids.push(r.player.id); pins.push(r.credentials.pin);
  }
  await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true, pairings: [{ board: 7, white_id: ids[0], black_id: ids[1] }] });
  const white = await signIn(tour.id, pins[0], { width: 1280, height: 800 });
  const black = await signIn(tour.id, pins[1], { width: 800, height: 1280 });
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  await white.waitForFunction(() => document.querySelector('#t-head').textContent === 'Tablet Head Open · Round 1 · Board 7');
  assert.equal(await white.textContent('#my-name'), '○ WGM White, Wanda · 2310');
  assert.equal(await white.textContent('#opp-name'), '● Black, Boris · 2250');
  assert.ok(await white.evaluate(() => window.wakeRequests) >= 1, 'the screen wake lock was asked for');
  assert.equal(await white.locator('#b-full').count(), 1);
  // Every button a finger needs is at least 44 px high and wide, in both orientations.
  for (const tab of [white, black]) {
    const small = await tab.evaluate(() => [...document.querySelectorAll('.tablet-game button, .tablet-game input[type=checkbox]')]
      .filter((b) => b.offsetParent && !b.closest('.promo'))
      .map((b) => { const r = b.getBoundingClientRect(); const box = b.closest('label') ? b.closest('label').getBoundingClientRect() : r; return [b.id || b.textContent.trim(), Math.round(box.width), Math.round(box.height)]; })
      .filter(([, w, h]) => w < 44 || h < 44));
    assert.deepEqual(small, []);
  }
  // The confirm step, turned on at this tablet: a move waits for Confirm; Take back undoes it.
  await white.check('#confirm-moves');
  await dragMove(white, 'e2', 'e4');
  await white.waitForSelector('.confirm-move');
  assert.match(await white.textContent('.confirm-move'), /Play e2–e4\?/);
  await white.click('#b-move-back');
  await white.waitForSelector('.confirm-move', { state: 'detached' });
  assert.equal((await arbiter.call('GET', `games/${(await arbiter.call('GET', `tournaments/${tour.id}/rounds/1`)).games[0].id}`)).state.moves.length, 0);
  await dragMove(white, 'e2', 'e4');
  await white.click('#b-move-ok');
  await black.waitForFunction(() => document.querySelector('#moves')?.textContent.includes('e4'));
  assert.deepEqual([...white.errors, ...black.errors], []);
});

// A one-board tournament of two signed-in tablets (1280x800), round 1
// published but not started.
async function match(name, players, settings) {
  const tour = await arbiter.call('POST', 'tournaments', { name, time_control: '900+10', system: 'manual', rounds: 1, settings });
  const ids = []; const pins = [];
  for (const player of players) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: player });
    ids.push(r.player.id); pins.push(r.credentials.pin);
  }
  await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true, pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }] });
  const white = await signIn(tour.id, pins[0], { width: 1280, height: 800 });
  const black = await signIn(tour.id, pins[1], { width: 1280, height: 800 });
  return { tour, white, black };
}

test('a tournament that requires it: every move waits for Confirm, Take back sends nothing', async () => {
  const { tour, white, black } = await match('Confirm Open', ['White, Vera', 'Black, Ivan'], { confirm_moves: true });
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  // The tablet's own switch shows the step on and cannot turn it off.
  await white.waitForSelector('#confirm-moves:checked:disabled');
  await white.evaluate(() => localStorage.setItem('arbiter.confirmMoves', '0'));
  const gid = (await arbiter.call('GET', `tournaments/${tour.id}/rounds/1`)).games[0].id;
  const moves = async () => (await arbiter.call('GET', `games/${gid}`)).state.moves.length;
  // Count every move request the tablet sends.
  let sent = 0;
  white.on('request', (req) => { if (req.method() === 'POST' && req.url().endsWith(`/games/${gid}/move`)) sent++; });
  await white.waitForSelector('#b-resign:not([disabled])');
  await dragMove(white, 'e2', 'e4');
  await white.waitForSelector('.confirm-move');
  assert.match(await white.textContent('.confirm-move'), /Play e2–e4\?/);
  await white.click('#b-move-back');
  await white.waitForSelector('.confirm-move', { state: 'detached' });
  await white.waitForTimeout(300);
  assert.equal(sent, 0, 'no move was sent');
  assert.equal(await moves(), 0);
  // Typed moves wait for the same step.
  await white.fill('#typed', 'd4');
  await white.press('#typed', 'Enter');
  await white.waitForSelector('.confirm-move');
  await white.click('#b-move-back');
  await white.waitForTimeout(300);
  assert.equal(sent, 0, 'no typed move was sent');
  await dragMove(white, 'e2', 'e4');
  await white.click('#b-move-ok');
  await black.waitForFunction(() => document.querySelector('#moves')?.textContent.includes('e4'));
  assert.equal(sent, 1);
  assert.equal(await moves(), 1);
  assert.deepEqual([...white.errors, ...black.errors], []);
});

test('the desk turns the confirm step on and off: an open tablet follows without a reload', async () => {
  const { tour, white, black } = await match('Switch Open', ['White, Olga', 'Black, Petar']);
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  await white.waitForSelector('#confirm-moves:not(:checked):not(:disabled)');
  // The change comes by the game's stream: both are open.
  for (const tab of [white, black]) await tab.waitForSelector('.conn.live');
  let loads = 0;
  for (const tab of [white, black]) tab.on('load', () => loads++);
  await arbiter.call('PATCH', `tournaments/${tour.id}`, { settings: { confirm_moves: true } });
  await white.waitForSelector('#confirm-moves:checked:disabled');
  await black.waitForSelector('#confirm-moves:checked:disabled');
  await white.waitForSelector('#b-resign:not([disabled])');
  await dragMove(white, 'e2', 'e4');
  await white.waitForSelector('.confirm-move');
  await white.click('#b-move-ok');
  await black.waitForFunction(() => document.querySelector('#moves')?.textContent.includes('e4'));
  // Off again: Black's move goes at once.
  await arbiter.call('PATCH', `tournaments/${tour.id}`, { settings: { confirm_moves: false } });
  await black.waitForSelector('#confirm-moves:not(:checked):not(:disabled)');
  await dragMove(black, 'e7', 'e5');
  await white.waitForFunction(() => document.querySelector('#moves')?.textContent.includes('e5'));
  assert.equal(await black.locator('.confirm-move').count(), 0);
  assert.equal(loads, 0, 'no tablet was reloaded');
  assert.deepEqual([...white.errors, ...black.errors], []);
});
