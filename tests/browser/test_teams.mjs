// A team competition in the desk and on the public pages: the arbiter pairs
// a team round and starts it from the teams view, the live grid shows the
// boards grouped by match with each match's score as results come in, and
// the public team standings follow.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage, deskSignedIn } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

const deskAt = (hash) => deskSignedIn(browser, daemon, hash, {});

// Four teams of two players, two boards a match.
async function teamEvent() {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Club League', time_control: '5400+30', system: 'swiss', rounds: 3 });
  await arbiter.call('PATCH', `tournaments/${tour.id}/team-settings`, { kind: 'team', boards: 2 });
  for (let t = 1; t <= 4; t++) {
    const members = [];
    for (let k = 1; k <= 2; k++) {
      const p = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: `Player ${t}.${k}`, rating: 2300 - 50 * t - 10 * k });
      members.push({ player_id: p.player.id });
    }
    await arbiter.call('POST', `tournaments/${tour.id}/teams`, { name: `Team ${t}`, members });
  }
  return tour;
}

test('a team round is paired, started and followed match by match in the desk', async () => {
  const tour = await teamEvent();
  const desk = await deskAt(`#/t/${tour.id}/teams`);
  await desk.waitForSelector('#teams tbody tr');
  assert.equal(await desk.locator('#teams tbody tr').count(), 4);
  await desk.click('#tm-pair');
  await desk.click('dialog.ask button.primary');
  await desk.waitForSelector('section.match');
  assert.equal(await desk.locator('section.match').count(), 2);
  await desk.click('#tm-start');
  await desk.click('dialog.ask button.primary');
  await desk.waitForSelector('#tm-start', { state: 'detached' });
  // Nobody checked in at a tablet here: the boards start and end by default (6.7).
  const round = await arbiter.call('GET', `tournaments/${tour.id}/rounds/1`);
  assert.notEqual(round.status, 'pending');

  await desk.goto(`${daemon.url}/desk.html#/t/${tour.id}/live`);
  await desk.waitForSelector('section.match .board-card');
  assert.equal(await desk.locator('section.match').count(), 2);
  assert.equal(await desk.locator('section.match .board-card').count(), 4);
  // White wins everywhere: the first-named team is White on board 1 only, so every match is 1 : 1.
  for (const g of round.games) await arbiter.call('POST', `games/${g.id}/arbiter/result`, { white: 1, black: 0 });
  for (let i = 0; i < 2; i++) {
    await desk.locator('section.match .match-score').nth(i).filter({ hasText: '1 : 1' }).waitFor();
  }
  const matches = await arbiter.call('GET', `tournaments/${tour.id}/rounds/1/matches`);
  assert.deepEqual(matches.map((m) => [m.score.game_a, m.score.game_b, m.score.match_a]), [[1, 1, 1], [1, 1, 1]]);
  assert.deepEqual(desk.errors, []);

  const pub = await newPage(browser);
  await pub.goto(`${daemon.url}/#/t/${tour.id}/teams`);
  await pub.waitForSelector('table.team-standings tbody tr');
  assert.equal(await pub.locator('table.team-standings tbody tr').count(), 4);
  await pub.click('table.team-standings tbody tr a');
  await pub.waitForSelector('h3 >> text=Team');
  assert.deepEqual(pub.errors, []);
});
