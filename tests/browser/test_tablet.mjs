// The tablet's other controls against the real daemon, from a set position
// (the tournament's start FEN): promotion through the piece picker, calling
// the arbiter, an unfounded draw claim, resignation with its confirmation,
// and typed moves with Russian piece letters.

import test from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, ApiClient, checkedIn, newPage, dragMove, stopAll, startAll } from './harness.mjs';

let daemon; let browser; let arbiter;
const pins = {};
let gid; let tid;

test.before(async () => {
  ({ daemon, browser, arbiter } = await startAll());
  // White: Ke1, Ra1, pawn e7; Black: Kh8, pawn a6.
  const tour = await arbiter.call('POST', 'tournaments', {
    name: 'Tablet checks', time_control: '900+10', system: 'manual', rounds: 1,
    settings: { fen: '7k/4P3/p7/8/8/8/8/R3K3 w - - 0 1' },
  });
  const ids = [];
  for (const name of ['White, Wanda', 'Black, Boris']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name });
    pins[name] = r.credentials.pin;
    ids.push(r.player.id);
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }], publish: true });
  gid = round.games[0].id;
  tid = tour.id;
});

test.after(() => stopAll(daemon, browser));

const expectText = (locator, re, timeout = 10000) => locator.filter({ hasText: re }).first().waitFor({ timeout });

// Signed in and checked in: present at the board when the round starts.
async function signIn(name, viewport) {
  const tab = await newPage(browser, { viewport });
  await tab.goto(`${daemon.url}/board.html?t=${tid}`);
  const present = checkedIn(tab);
  await tab.fill('#pin', pins[name]);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.cg-wrap');
  await present;
  return tab;
}

test('tablet controls from a set position', async (t) => {
  const white = await signIn('White, Wanda', { width: 1024, height: 600 });
  const black = await signIn('Black, Boris', { width: 800, height: 1280 });
  await arbiter.call('POST', `tournaments/${tid}/rounds/1/start`, {});
  await expectText(white.locator('#status'), /Your move/);
  const moves = async (tab) => (await tab.locator('#moves li').allTextContents()).join(' ').replace(/\s+/g, ' ').trim();

  await t.test('a draw offer armed before the move goes with it (9.1.2); a pawn reaching the last rank asks for the piece', async () => {
    await white.click('#b-offer');
    await white.waitForSelector('#b-offer[aria-pressed="true"]');
    await dragMove(white, 'e7', 'e8');
    await white.waitForSelector('.promo button');
    assert.equal(await white.locator('.promo button').count(), 4);
    await white.click('.promo button[aria-label="Rook"]');
    await expectText(black.locator('#status'), /Your move/);
    assert.match(await moves(black), /e8=R\+/);
    await black.waitForSelector('#n-decline');
    await black.click('#n-decline');
    await black.waitForSelector('#n-decline', { state: 'detached' });
  });

  await t.test('calling the arbiter stops the clocks until the arbiter restarts them', async () => {
    await black.click('#b-call');
    await black.click('dialog.ask button.primary');
    await expectText(black.locator('#status'), /arbiter is on the way/);
    await expectText(white.locator('#status'), /arbiter is on the way/);
    await arbiter.call('POST', `games/${gid}/arbiter/resume`, { note: 'all clear' });
    await expectText(black.locator('#status'), /Your move/);
  });

  await t.test('an unfounded threefold claim is refused and play goes on', async () => {
    await black.click('#b-claim');
    await black.selectOption('dialog.ask select[name=kind]', 'threefold');
    await black.click('dialog.ask button.primary');
    // The arbiter's verdict, in the server's words; the "arbiter called"
    // toast of the step before may still be on screen for a few seconds.
    await black.locator('#toasts .toast', { hasText: 'the claim is incorrect' }).waitFor();
    await expectText(black.locator('#status'), /Your move/);
    const state = await arbiter.call('GET', `games/${gid}`);
    assert.equal(state.state.over, false);
    assert.ok(state.events.some((e) => e.type === 'claim' && e.claim === 'threefold'));
  });

  await t.test('a move typed with Russian letters while the Wi-Fi is down arrives when it is back', async () => {
    await black.selectOption('.lang-picker', 'ru');
    await expectText(black.locator('#status'), /Ваш ход/);
    await black.context().setOffline(true);
    await black.fill('#typed', 'Крg7');
    await black.press('#typed', 'Enter');
    await expectText(black.locator('#status'), /Ход отправляется/);
    await expectText(black.locator('.conn'), /нет связи/);
    await black.waitForTimeout(1500);
    await black.context().setOffline(false);
    await expectText(white.locator('#status'), /Your move/, 15000);
    await expectText(black.locator('.conn'), /на связи/, 15000);
    assert.match(await moves(white), /Kg7$/);
    assert.match(await moves(black), /Крg7$/);
  });

  await t.test('resigning asks first; the result reaches both tablets', async () => {
    await dragMove(white, 'a1', 'a6');
    await expectText(black.locator('#status'), /Ваш ход/);
    await black.click('#b-resign');
    await black.click('dialog.ask button.cancel');
    await expectText(black.locator('#status'), /Ваш ход/);
    await black.click('#b-resign');
    await black.click('dialog.ask button.danger');
    await expectText(white.locator('#status'), /1–0/);
    await expectText(black.locator('#status'), /1–0/);
    assert.deepEqual([...white.errors, ...black.errors], []);
  });
});

test('every tab of the desk and of the public page opens without a script error', async () => {
  const desk = await newPage(browser);
  await desk.goto(`${daemon.url}/desk.html?lang=bg`);
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#tform');
  for (const tab of ['players', 'rounds', 'live', 'standings', 'crosstable', 'exports', 'settings']) {
    await desk.goto(`${daemon.url}/desk.html?lang=bg#/t/${tid}/${tab}`);
    await desk.waitForSelector(`#nav a[aria-current="page"][href$="/${tab}"]`);
    await desk.waitForSelector('main h2');
  }
  // Settings saved through the form come back as saved.
  await desk.fill('#s-illegal', '2');
  await desk.click('#tform button.primary');
  await desk.locator('#toasts .toast', { hasText: 'Запазено' }).waitFor();
  const tour = await arbiter.call('GET', `tournaments/${tid}`);
  assert.equal(tour.settings.illegal_moves_to_lose, 2);
  await desk.goto(`${daemon.url}/desk.html?lang=bg#/g/${gid}`);
  await desk.waitForSelector('table.eventlog tbody tr');
  // An arbiter action asks first; cancelling sends nothing.
  await desk.click('[data-law="penalty"]');
  await desk.click('dialog.ask button.cancel');
  const pub = await newPage(browser, { viewport: { width: 390, height: 844 } });
  for (const tab of ['live', 'pairings', 'standings', 'crosstable']) {
    await pub.goto(`${daemon.url}/?lang=ru#/t/${tid}/${tab}`);
    await pub.waitForSelector(`#nav a[aria-current="page"][href$="/${tab}"]`);
    await pub.waitForSelector('main h2');
  }
  await pub.goto(`${daemon.url}/?lang=ru#/g/${gid}`);
  await pub.waitForSelector('table.scoresheet tbody tr');
  assert.deepEqual([...desk.errors, ...pub.errors], []);
});

test('a tablet signed in before the pairing opens its game as soon as the round is made', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Early birds', time_control: '600+5', system: 'manual', rounds: 1 });
  const ids = []; const early = {};
  for (const name of ['Early, Eva', 'Late, Leo']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name });
    ids.push(r.player.id);
    early[name] = r.credentials.pin;
  }
  const tab = await newPage(browser, { viewport: { width: 600, height: 1024 } });
  await tab.goto(`${daemon.url}/board.html?t=${tour.id}`);
  await tab.fill('#pin', early['Early, Eva']);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.banner.info');
  assert.equal(await tab.locator('.cg-wrap').count(), 0);
  await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { pairings: [{ board: 1, white_id: ids[1], black_id: ids[0] }], publish: true });
  await tab.waitForSelector('.cg-wrap.orientation-black', { timeout: 10000 });
  await expectText(tab.locator('#status'), /not started/);
  assert.deepEqual(tab.errors, []);
});

test('the desk reports colours reversed after ten moves each: the game goes on with the names swapped (7.3)', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Reversed colours', time_control: '900+10', system: 'manual', rounds: 1 });
  const ids = []; const players = []; const pin = {};
  for (const name of ['Rossi, Rita', 'Santos, Sam']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name });
    ids.push(r.player.id);
    pin[name] = r.credentials.pin;
    const c = new ApiClient(daemon.url);
    await c.call('POST', 'auth/player', { tournament_id: tour.id, pin: r.credentials.pin });
    players.push(c);
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }], publish: true });
  const g = round.games[0].id;
  for (const c of players) await c.call('POST', `games/${g}/checkin`, {});
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  const ruy = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5', 'Bb3', 'd6', 'c3', 'O-O', 'h3', 'Nb8', 'd4', 'Nbd7'];
  for (let i = 0; i < ruy.length; i++) await players[i % 2].call('POST', `games/${g}/move`, { ply: i, move: ruy[i] });
  // Rita's tablet, at White's side of the board.
  const tab = await newPage(browser, { viewport: { width: 800, height: 1280 } });
  await tab.goto(`${daemon.url}/board.html?t=${tour.id}`);
  await tab.fill('#pin', pin['Rossi, Rita']);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.cg-wrap.orientation-white');
  const desk = await newPage(browser);
  await desk.goto(`${daemon.url}/desk.html?lang=en`);
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#tform');
  await desk.goto(`${daemon.url}/desk.html?lang=en#/g/${g}`);
  await desk.waitForSelector('table.eventlog tbody tr');
  await expectText(desk.locator('.g-white'), /Rossi/);
  assert.equal((await desk.locator('[data-law="colours"]').textContent()).trim(), 'Colours reversed (7.3)');
  await desk.click('[data-law="colours"]');
  await desk.click('dialog.ask button.danger');
  await desk.locator('#toasts .toast', { hasText: /the game continues/ }).waitFor();
  await expectText(desk.locator('.g-white'), /Santos/);
  await expectText(desk.locator('.g-black'), /Rossi/);
  const st = await arbiter.call('GET', `games/${g}`);
  assert.equal(st.white.id, ids[1]);
  assert.equal(st.state.ply, 20);
  // Rita plays Black now: her tablet turns to Black.
  await tab.waitForSelector('.cg-wrap.orientation-black', { timeout: 10000 });
  assert.deepEqual([...desk.errors, ...tab.errors], []);
});

test('in Russian: an offer armed under the Sofia rule is refused in Russian and disarmed, the move made again is played; an illegal move, an unfounded claim and a warning from the desk show no English', async () => {
  const tour = await arbiter.call('POST', 'tournaments', {
    name: 'Sofia rule', time_control: '900+10', system: 'manual', rounds: 1, settings: { draw_offers: 'sofia', sofia_moves: 30 },
  });
  const ids = []; const pin = {};
  for (const name of ['Petrov, Pyotr', 'Ivanova, Irina']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name });
    ids.push(r.player.id);
    pin[name] = r.credentials.pin;
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }], publish: true });
  const black = new ApiClient(daemon.url);
  await black.call('POST', 'auth/player', { tournament_id: tour.id, pin: pin['Ivanova, Irina'] });
  await black.call('POST', `games/${round.games[0].id}/checkin`, {});
  const tab = await newPage(browser, { viewport: { width: 1024, height: 600 } });
  await tab.goto(`${daemon.url}/board.html?t=${tour.id}&lang=ru`);
  const present = checkedIn(tab);
  await tab.fill('#pin', pin['Petrov, Pyotr']);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.cg-wrap');
  await present;
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  await expectText(tab.locator('#status'), /Ваш ход/);
  await tab.click('#b-offer');
  await tab.waitForSelector('#b-offer[aria-pressed="true"]');
  await dragMove(tab, 'e2', 'e4');
  // The refusal in Russian, with no English words of the server's.
  const refusal = tab.locator('#toasts .toast.error').first();
  await refusal.waitFor();
  const text = await refusal.textContent();
  assert.match(text, /нельзя соглашаться на ничью/);
  assert.doesNotMatch(text, /[A-Za-z]{3,}/);
  await tab.waitForSelector('#b-offer[aria-pressed="false"]');
  await dragMove(tab, 'e2', 'e4');
  await expectText(tab.locator('#status'), /Ход соперника|соперник/i);
  const game = await arbiter.call('GET', `games/${round.games[0].id}`);
  assert.deepEqual(game.state.moves, ['e4']);
  // Whatever the server answers in English stays out of a Russian player's toasts:
  // an unfounded claim and a completed illegal move (no knight reaches e5).
  await black.call('POST', `games/${round.games[0].id}/move`, { ply: 1, move: 'e5' });
  await expectText(tab.locator('#status'), /Ваш ход/);
  await tab.click('#b-claim');
  await tab.selectOption('dialog.ask select[name=kind]', 'threefold');
  await tab.click('dialog.ask button.primary');
  await expectText(tab.locator('#notices'), /не подтвердилось/);
  await tab.fill('#typed', 'Кe5');
  await tab.press('#typed', 'Enter');
  await expectText(tab.locator('#my-pen'), /1/);
  const toasts = (await tab.locator('#toasts .toast').allTextContents()).join(' | ');
  assert.match(toasts, /Невозможный ход/);
  assert.doesNotMatch(toasts, /[A-Za-z]{3,}/);
  // The same for an arbiter at a Russian desk: a warning given from the game view.
  const desk = await newPage(browser);
  await desk.goto(`${daemon.url}/desk.html?lang=ru`);
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#tform');
  await desk.goto(`${daemon.url}/desk.html?lang=ru#/g/${round.games[0].id}`);
  await desk.waitForSelector('table.eventlog tbody tr');
  await desk.click('[data-law="penalty"]');
  await desk.selectOption('dialog.ask select[name=penalty]', 'warning');
  await desk.click('dialog.ask button.primary, dialog.ask button.danger');
  const done = desk.locator('#toasts .toast').first();
  await done.waitFor();
  assert.doesNotMatch(await done.textContent(), /[A-Za-z]{3,}/);
  assert.deepEqual([...tab.errors, ...desk.errors], []);
});
