// The public pages of a Swiss tournament with byes: a player without a game
// this round (a requested half-point bye, the pairing-allocated bye) still
// finds their name on the round's pairings, on the phone and at the desk;
// numbers and times follow the reader's language.

/* global document */
import test from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, newPage, stopAll, startAll } from './harness.mjs';

let daemon; let browser; let arbiter;

test.before(async () => {
  ({ daemon, browser, arbiter } = await startAll());
});

test.after(() => stopAll(daemon, browser));

test('byes are listed with the round\'s pairings (public page in Bulgarian, desk in English)', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Swiss with byes', time_control: '900+10', system: 'swiss', rounds: 3 });
  const ids = {};
  for (const [name, rating] of [['Alpha, Ana', 2200], ['Bravo, Bojan', 2100], ['Charlie, Chavdar', 2000], ['Delta, Dora', 1900], ['Echo, Emil', 1800], ['Fox, Filip', 1700]]) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name, rating });
    ids[name] = r.player.id;
  }
  // Filip asks for a half point in round 1; the five others leave one without an opponent.
  await arbiter.call('POST', `tournaments/${tour.id}/players/${ids['Fox, Filip']}/byes`, { round: 1, kind: 'half' });
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true });
  assert.equal(round.games.length, 2);
  const paired = new Set(round.games.flatMap((g) => [g.white_id, g.black_id]));
  const allocated = Object.keys(ids).find((n) => n !== 'Fox, Filip' && !paired.has(ids[n]));
  assert.ok(allocated, 'one player has the pairing-allocated bye');

  const pub = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await pub.goto(`${daemon.url}/?lang=bg#/t/${tour.id}/pairings`);
  await pub.waitForSelector('table.pairings tbody tr');
  // The page's landmarks are named in the reader's language too.
  assert.equal(await pub.locator('#nav').getAttribute('aria-label'), 'Турнир');
  const rows = (await pub.locator('table.pairings tbody tr').allInnerTexts()).map((x) => x.replace(/\s+/g, ' ').trim());
  assert.equal(rows.length, 4, rows.join(' | '));
  assert.ok(rows.some((x) => x.includes('Fox, Filip') && x.includes('Половин точка')), rows.join(' | '));
  assert.ok(rows.some((x) => x.includes(allocated)), rows.join(' | '));

  const desk = await newPage(browser);
  await desk.goto(`${daemon.url}/desk.html?lang=en`);
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#tform');
  await desk.goto(`${daemon.url}/desk.html?lang=en#/t/${tour.id}/rounds`);
  await desk.waitForSelector('table.pairings tbody tr');
  const bye = desk.locator('table.pairings tr.bye');
  assert.equal(await bye.count(), 2);
  assert.match((await bye.allInnerTexts()).join(' | '), /Fox, Filip\s+Half point/);
  assert.deepEqual([...pub.errors, ...desk.errors], []);

  // Numbers and times in the reader's language: the round played, Bulgarian
  // standings write tie-break fractions with a decimal comma, and a Russian
  // desk opened in an American browser shows the log's times without AM/PM.
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  await arbiter.call('POST', `games/${round.games[0].id}/arbiter/result`, { white: 0.5, black: 0.5 });
  await arbiter.call('POST', `games/${round.games[1].id}/arbiter/result`, { white: 1, black: 0 });
  await pub.goto(`${daemon.url}/?lang=bg#/t/${tour.id}/standings`);
  await pub.waitForSelector('table.standings tbody tr');
  const cells = await pub.locator('table.standings td.num').allInnerTexts();
  assert.ok(cells.some((c) => /^\d+,\d+$/.test(c)), cells.join(' '));
  assert.deepEqual(cells.filter((c) => /\d\.\d/.test(c)), []);
  // Results set by the arbiter: nobody has confirmed them, and the live boards say so.
  await pub.goto(`${daemon.url}/?lang=bg#/t/${tour.id}/live`);
  await pub.locator('#grid', { hasText: 'Играчите още не са потвърдили резултата' }).waitFor();
  assert.doesNotMatch(await pub.locator('#grid').innerText(), /потвърден/);
  const us = await newPage(browser, { locale: 'en-US' });
  await us.goto(`${daemon.url}/desk.html?lang=ru`);
  await us.fill('#user', ADMIN.username);
  await us.fill('#pass', ADMIN.password);
  await us.click('#login button.primary');
  await us.waitForSelector('#tform');
  await us.goto(`${daemon.url}/desk.html?lang=ru#/g/${round.games[0].id}`);
  await us.waitForSelector('table.eventlog tbody tr');
  const times = await us.locator('table.eventlog tbody tr td:nth-child(2)').allInnerTexts();
  assert.ok(times.length > 0);
  assert.deepEqual(times.filter((x) => /AM|PM/.test(x)), []);
  assert.deepEqual([...pub.errors, ...us.errors], []);
});

test('under a broadcast delay the public game page follows the delayed stream', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Delayed Open', time_control: '5400+30', system: 'manual', rounds: 1, settings: { public_delay: 3 } });
  const ids = []; const tokens = [];
  for (const n of ['Alpha, Ana', 'Bravo, Bojan']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: n });
    ids.push(r.player.id); tokens.push(r.credentials.token);
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true, pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }] });
  const gid = round.games[0].id;
  const as = (i) => (path, body = {}) => fetch(`${daemon.url}/api/v1/games/${gid}/${path}`, {
    method: 'POST', headers: { Authorization: `Bearer ${tokens[i]}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  }).then((res) => { assert.ok(res.ok, `${path}: ${res.status}`); });
  await as(0)('checkin'); await as(1)('checkin');
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});

  const pub = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await pub.goto(`${daemon.url}/?lang=ru#/g/${gid}`);
  await pub.waitForSelector('p.banner.info');
  assert.match(await pub.locator('p.banner.info').innerText(), /3 с/);
  await pub.waitForTimeout(500);
  const t0 = Date.now();
  await as(0)('move', { ply: 0, move: 'e4' });
  const sheet = () => pub.locator('#g-sheet').innerText();
  await pub.waitForTimeout(1500);
  assert.doesNotMatch(await sheet(), /e4/, 'the move was shown before the delay');
  await pub.waitForFunction(() => /e4/.test(document.querySelector('#g-sheet').innerText), null, { timeout: 8000 });
  assert.ok(Date.now() - t0 >= 2900, `shown after ${Date.now() - t0} ms`);
  assert.deepEqual(pub.errors, []);
});

// The board library and the boards' views are a bundle of their own
// (web/bundle.mjs): a reader of the tables does not download them; the live
// tab and a game page load them and draw their boards.
test('the tables load no board code; the live tab and a game page load it and draw their boards', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Boards Later', time_control: '900+10', system: 'manual', rounds: 1 });
  const ids = [];
  for (const n of ['Alpha, Ana', 'Bravo, Bojan']) ids.push((await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: n })).player.id);
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true, pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }] });
  const boardCode = (page) => page.evaluate(() => performance.getEntriesByType('resource')
    .map((r) => new URL(r.name).pathname).filter((p) => /chessground|-later\.|board-view/.test(p)));
  const pub = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await pub.goto(`${daemon.url}/#/t/${tour.id}/pairings`);
  await pub.waitForSelector('table.pairings tbody tr');
  assert.equal(await pub.locator('meta[name="arbiter-later"]').count(), 1, 'the page is the built one');
  const main = await pub.locator('link[rel="modulepreload"][data-main]').getAttribute('href');
  assert.doesNotMatch(await (await fetch(`${daemon.url}${main}`)).text(), /cg-board/, 'the page\'s module holds no board library');
  await pub.waitForTimeout(500);
  assert.deepEqual(await boardCode(pub), []);
  await pub.click('#nav a[href$="/live"]');
  await pub.waitForSelector('#grid .cg-wrap piece');
  assert.equal((await boardCode(pub)).length, 1);
  // A game page opened at its address fetches the boards with the page's module.
  const game = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await game.goto(`${daemon.url}/#/g/${round.games[0].id}`);
  await game.waitForSelector('#g-main .cg-wrap piece');
  assert.equal((await boardCode(game)).length, 1);
  assert.deepEqual(pub.errors, []);
  assert.deepEqual(game.errors, []);
  await pub.context().close();
  await game.context().close();
});
