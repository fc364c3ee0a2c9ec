// The last known state a page shows on a warm load while its live reads are
// on their way (js/kept.js): the public page's table and the tablet's game
// are drawn at once, marked as not current, and nothing in them can be
// acted on (the tablet takes no move, its buttons are off, its clock stands
// still) until the server's answers replace them.  The network is slowed
// (eight seconds a round trip) so that the kept state stays long enough to
// be looked at.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document */

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage, dragMove, ApiClient } from './harness.mjs';

let daemon; let browser; let arbiter;
const fx = {};
test.before(async () => {
  ({ daemon, browser, arbiter } = await startAll());
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Kept Open', time_control: '900+10', system: 'manual', rounds: 1 });
  const ids = []; fx.pins = [];
  for (const name of ['White, Mila', 'Black, Todor']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name });
    ids.push(r.player.id); fx.pins.push(r.credentials.pin);
  }
  const r1 = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true, pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }] });
  // Both players at the board (Art. 6.7), or the start forfeits the game.
  for (const pin of fx.pins) {
    const player = new ApiClient(daemon.url);
    await player.call('POST', 'auth/player', { tournament_id: tour.id, pin });
    await player.call('POST', `games/${r1.games[0].id}/checkin`, {});
  }
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  fx.tid = tour.id; fx.gid = r1.games[0].id;
});
test.after(() => stopAll(daemon, browser));

// Every read and stream of PAGE takes MS more from now on (0: none).
async function slow(page, ms) {
  page.cdp = page.cdp || await page.context().newCDPSession(page);
  await page.cdp.send('Network.enable');
  await page.cdp.send('Network.emulateNetworkConditions', { offline: false, latency: ms, downloadThroughput: -1, uploadThroughput: -1 });
}

test('a reloaded tablet shows its last game, marked, and acts on nothing until the live state is in', async () => {
  const tab = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await tab.request.post(`${daemon.url}/api/v1/auth/player`, { data: { tournament_id: fx.tid, pin: fx.pins[0] } });
  await tab.goto(`${daemon.url}/board.html?t=${fx.tid}`);
  await tab.waitForSelector('#b-resign:not([disabled])');
  let sent = 0;
  tab.on('request', (req) => { if (req.method() === 'POST' && req.url().includes(`/games/${fx.gid}/`)) sent++; });
  await slow(tab, 8000);
  await tab.reload({ waitUntil: 'commit' });
  await tab.waitForSelector('.kept[aria-live]');
  await tab.waitForSelector('.cg-wrap piece');
  assert.match(await tab.textContent('.kept'), /Updating/);
  for (const id of ['#b-offer', '#b-claim', '#b-resign', '#b-call', '#typed']) assert.ok(await tab.isDisabled(id), `${id} is off`);
  // White is on move and its clock runs on the server; the kept one stands still.
  const clock = await tab.textContent('#my-clock');
  await dragMove(tab, 'e2', 'e4');
  await tab.waitForTimeout(1200);
  assert.ok(await tab.locator('.kept').count() === 1, 'still the kept state');
  assert.equal(await tab.textContent('#my-clock'), clock);
  assert.equal(sent, 0, 'nothing was sent from the kept state');
  // The live state: the banner goes, the buttons and the clock come alive.
  await slow(tab, 0);
  await tab.waitForSelector('.kept', { state: 'detached', timeout: 15000 });
  await tab.waitForSelector('#b-resign:not([disabled])');
  await tab.waitForFunction((c) => document.querySelector('#my-clock').textContent !== c, clock);
  assert.equal((await arbiter.call('GET', `games/${fx.gid}`)).state.moves.length, 0);
  assert.deepEqual(tab.errors, []);
  await tab.context().close();
});

test('the public page shows the table it drew last, inert and marked, until the live one', async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
  const url = `${daemon.url}/?lang=ru#/t/${fx.tid}/pairings`;
  await page.goto(url);
  await page.waitForSelector('table.pairings tbody tr');
  await slow(page, 8000);
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForSelector('.kept[aria-live]');
  assert.match(await page.textContent('.kept'), /Обновление/);
  assert.equal(await page.locator('.kept-view[inert] table.pairings tbody tr').count(), 1);
  await slow(page, 0);
  await page.waitForSelector('.kept', { state: 'detached', timeout: 15000 });
  assert.equal(await page.locator('table.pairings tbody tr').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
