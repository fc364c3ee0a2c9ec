// The public game view on a phone: stepping through the moves with buttons
// and arrow keys, turning the board, the game's PGN, and page titles that
// say what is shown.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document */

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

test('replay, step with keys and buttons, flip, PGN link, titles', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Step Open', time_control: '5400+30', system: 'manual', rounds: 1 });
  const ids = []; const tokens = [];
  for (const n of ['Carlsen, M', 'Nepo, I']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: n });
    ids.push(r.player.id); tokens.push(r.credentials.token);
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true, pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }] });
  const gid = round.games[0].id;
  const as = (i, path, body) => fetch(`${daemon.url}/api/v1/games/${gid}/${path}`, {
    method: 'POST', headers: { Authorization: `Bearer ${tokens[i]}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  }).then((r) => { if (!r.ok) throw new Error(`${path} ${r.status}`); });
  await as(0, 'checkin', {}); await as(1, 'checkin', {});
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  const moves = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'O-O'];
  for (let i = 0; i < moves.length; i++) await as(i % 2, 'move', { ply: i, move: moves[i] });

  const pub = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await pub.goto(`${daemon.url}/#/g/${gid}`);
  await pub.waitForSelector('.stepper');
  await pub.waitForFunction(() => document.title.startsWith('Carlsen, M – Nepo, I · Round 1'));
  // The replay knows castling: after 7 plies the white king is on g1, the rook on f1.
  const fens = await pub.evaluate(async () => (await import('/js/move-stepper.js')).replay(null, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5', 'e1g1']));
  assert.equal(fens.length, 8);
  assert.equal(fens[7], 'r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1');
  await pub.keyboard.press('ArrowLeft');
  assert.equal(await pub.textContent('.step-at'), 'Move 6 of 7');
  await pub.keyboard.press('Home');
  assert.equal(await pub.textContent('.step-at'), 'Move 0 of 7');
  await pub.click('[data-step="next"]');
  assert.equal(await pub.textContent('.step-at'), 'Move 1 of 7');
  await pub.keyboard.press('End');
  assert.equal(await pub.textContent('.step-at'), '');
  await pub.click('[data-step="flip"]');
  await pub.waitForSelector('.cg-wrap.orientation-black');
  assert.equal(await pub.locator(`a[href="/api/v1/games/${gid}/pgn"]`).count(), 1);
  // The tournament's pages are titled by tournament and tab.
  await pub.goto(`${daemon.url}/#/t/${tour.id}/standings`);
  await pub.waitForFunction(() => document.title === 'Step Open · Standings — Arbiter');
  assert.deepEqual(pub.errors, []);
});
