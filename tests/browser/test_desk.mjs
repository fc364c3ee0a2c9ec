// The arbiter's desk against the real daemon, for what daily work trips
// over: importing a player list (delimiters, "Surname, Given" names, a
// preview with per-row problems before anything is stored), the alert
// queue and its details in the reader's language, the game log and the
// state of rounds and buttons.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document */

import test from 'node:test';
import assert from 'node:assert/strict';
import { startAll, stopAll, newPage, deskSignedIn, checkedIn } from './harness.mjs';

let daemon; let browser; let arbiter;
test.before(async () => { ({ daemon, browser, arbiter } = await startAll()); });
test.after(() => stopAll(daemon, browser));

const deskAt = (hash, opts = {}) => deskSignedIn(browser, daemon, hash, opts);

test('a pasted list is previewed, checked row by row and imported whole', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Import Open', time_control: '5400+30' });
  const desk = await deskAt(`#/t/${tour.id}/players`);
  await desk.waitForSelector('#padd');
  await desk.click('#pimport-box summary');
  await desk.fill('#pimport', [
    'Name;Rtg;Tit;Fed',
    'Василев, Георги;2210;FM;BUL',
    'Petrova, Maria;1990;;bul',
    'Bad Title;2100;1990;BUL',
    'Low Rating;900;;BUL',
  ].join('\n'));
  await desk.click('#pimport-preview');
  await desk.waitForSelector('#pimport-rows');
  const rows = await desk.locator('#pimport-rows tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    cells: [...tr.children].map((td) => td.textContent.trim()), bad: tr.classList.contains('bad'),
  })));
  assert.equal(rows.length, 4);
  assert.deepEqual(rows[0].cells.slice(1, 5), ['Василев, Георги', '2210', 'FM', 'BUL']);
  assert.equal(rows[0].bad, false);
  assert.equal(rows[1].bad, false);
  assert.equal(rows[2].bad, true);
  assert.match(rows[2].cells.at(-1), /title "1990"/);
  assert.equal(rows[3].bad, true);
  assert.match(rows[3].cells.at(-1), /rating "900"/);
  // Nothing is stored before the arbiter confirms.
  assert.equal((await arbiter.call('GET', `tournaments/${tour.id}/players`)).length, 0);
  assert.match(await desk.textContent('#pimport-go'), /Import 2 players/);
  await desk.click('#pimport-go');
  await desk.locator('#players tbody tr').nth(1).waitFor();
  const stored = await arbiter.call('GET', `tournaments/${tour.id}/players`);
  assert.deepEqual(stored.map((p) => [p.name, p.rating, p.title, p.federation]),
    [['Василев, Георги', 2210, 'FM', 'BUL'], ['Petrova, Maria', 1990, '', 'BUL']]);
  assert.deepEqual(desk.errors, []);
});

test('delimiters are found by the first lines; a column can be remapped', async () => {
  const desk = await deskAt('#/');
  const parsed = await desk.evaluate(async () => {
    const m = await import('/js/player-import.js');
    const pick = (text) => { const p = m.parsePlayers(text); return { d: p.delimiter, rows: p.rows.map((r) => m.rowToPlayer(r, p.columns)) }; };
    return {
      semi: pick('Василев, Георги;2210;FM;BUL'),
      tab: pick('Name\tFed\tRtg\nVasilev, Georgi\tBUL\t2210'),
      comma: pick('Name,Rtg,Tit,Fed\n"Vasilev, Georgi",2210,FM,BUL\nPetrov, Ivan,2000,,BUL'),
      plain: pick('Ivanov Ivan,2300,IM,RUS'),
    };
  });
  assert.equal(parsed.semi.d, ';');
  assert.deepEqual(parsed.semi.rows[0].player, { name: 'Василев, Георги', rating: 2210, title: 'FM', federation: 'BUL' });
  assert.equal(parsed.tab.d, '\t');
  assert.deepEqual(parsed.tab.rows[0].player, { name: 'Vasilev, Georgi', federation: 'BUL', rating: 2210 });
  assert.equal(parsed.comma.d, ',');
  assert.equal(parsed.comma.rows[0].player.name, 'Vasilev, Georgi');
  assert.deepEqual(parsed.comma.rows[1].player, { name: 'Petrov, Ivan', rating: 2000, federation: 'BUL' });
  assert.deepEqual(parsed.plain.rows[0].player, { name: 'Ivanov Ivan', rating: 2300, title: 'IM', federation: 'RUS' });
  // The column mapping of the preview: the second column read as the federation.
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Mapping Open', time_control: '5400+30' });
  await desk.goto(`${daemon.url}/desk.html#/t/${tour.id}/players`);
  await desk.waitForSelector('#padd');
  await desk.click('#pimport-box summary');
  await desk.fill('#pimport', 'Vasilev, Georgi;BUL');
  await desk.click('#pimport-preview');
  await desk.waitForSelector('#pimport-rows');
  assert.match(await desk.textContent('#pimport-rows tbody tr'), /rating "BUL"/);
  await desk.selectOption('#pcol-1', 'federation');
  assert.equal(await desk.locator('#pimport-rows tbody tr.bad').count(), 0);
  assert.deepEqual(desk.errors, []);
});

// A two-player game set up through the API; each player acts with the
// bearer token of their credentials, as a tablet's fetch would.
async function twoPlayerGame(name, extra = {}) {
  const tour = await arbiter.call('POST', 'tournaments', { name, time_control: '5400+30', system: 'manual', rounds: 1, ...extra });
  const ids = []; const tokens = []; const pins = [];
  for (const n of ['Василев, Георги', 'Petrova, Maria']) {
    const r = await arbiter.call('POST', `tournaments/${tour.id}/players`, { name: n });
    ids.push(r.player.id); tokens.push(r.credentials.token); pins.push(r.credentials.pin);
  }
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }], publish: true });
  const gid = round.games[0].id;
  const as = (i) => async (path, body = {}) => {
    const res = await fetch(`${daemon.url}/api/v1/games/${gid}/${path}`, {
      method: 'POST', headers: { Authorization: `Bearer ${tokens[i]}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return { tid: tour.id, gid, pins, white: as(0), black: as(1) };
}

test('alerts: one line each with board and names, calls first, gone once settled, in Russian', async () => {
  const g = await twoPlayerGame('Alert Open');
  await g.white('checkin'); await g.black('checkin');
  await arbiter.call('POST', `tournaments/${g.tid}/rounds/1/start`, {});
  await g.white('move', { ply: 0, move: 'e4' });
  await g.black('resign');
  await g.white('call', { note: 'noise' });
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=ru#/t/${g.tid}/live`);
  await desk.waitForSelector('#alerts li[data-kind="result"]');
  await desk.waitForSelector('#alerts li[data-kind="call"]');
  const lines = await desk.locator('#alerts li').evaluateAll((lis) => lis.map((li) => [li.dataset.kind, li.className, li.querySelector('.line').textContent.replace(/\s+/g, ' ').trim()]));
  assert.deepEqual(lines.map((l) => l[0]), ['call', 'result'], 'the call comes first');
  assert.match(lines[0][1], /sev-high/);
  assert.match(lines[1][1], /sev-low/);
  assert.match(lines[0][2], /^\d\d:\d\d Вызов судьи · доска 1, тур 1 · Василев, Георги – Petrova, Maria$/);
  assert.match(await desk.textContent('#alerts summary'), /Сигналы \(2\)/);
  // The arbiter answers the call, the players confirm: the queue empties by itself.
  await arbiter.call('POST', `games/${g.gid}/arbiter/result`, { white: 1, black: 0 });
  await desk.waitForSelector('#alerts li', { state: 'detached', timeout: 10000 });
  assert.deepEqual(desk.errors, []);
});

test('the tournament form requires the tablets\' confirm-move step, in Russian', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Confirm Form Open', time_control: '5400+30' });
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=ru#/t/${tour.id}/settings`);
  await desk.waitForSelector('#s-confirm');
  assert.equal(await desk.textContent('label[for="s-confirm"]'), 'Планшеты: подтверждение каждого хода');
  assert.equal(await desk.isChecked('#s-confirm'), false);
  await desk.check('#s-confirm');
  await desk.click('#tform button.primary');
  await desk.waitForFunction(async (id) => (await (await fetch(`/api/v1/tournaments/${id}`)).json()).settings.confirm_moves === true, tour.id);
  await desk.reload();
  await desk.waitForSelector('#s-confirm:checked');
  await desk.uncheck('#s-confirm');
  await desk.click('#tform button.primary');
  await desk.waitForFunction(async (id) => (await (await fetch(`/api/v1/tournaments/${id}`)).json()).settings.confirm_moves === false, tour.id);
  assert.deepEqual(desk.errors, []);
});

test('alert details are written in the reader\'s language, not the server\'s English', async () => {
  const g = await twoPlayerGame('Alert Words', { time_control: '900', settings: { guidelines_iii: true } });
  await g.white('checkin'); await g.black('checkin');
  await arbiter.call('POST', `tournaments/${g.tid}/rounds/1/start`, {});
  await g.white('move', { ply: 0, move: 'e2e5' });
  await arbiter.call('POST', `games/${g.gid}/arbiter/adjust`, { side: 'white', set_ms: 60000 });
  await g.white('claim', { ply: 0, claim: 'no_effort' });
  const desk = await deskAt('#/');
  const english = /[A-Za-z]{3,}/g;
  for (const [lng, illegal, claim] of [
    ['ru', /^Белые: невозможный ход e2e5, № 1\/3 \(7\.5\.1\); Чёрные \+60 с\. Ходить нужно фигурой: пешка e2\.$/, /^Белые требуют: соперник не пытается выиграть/],
    ['bg', /^Белите: неправилен ход e2e5, № 1\/3 \(7\.5\.1\); Черните \+60 с\. Трябва да се играе с фигурата: пешка e2\.$/, /^Белите искат: противникът не се опитва/],
  ]) {
    await desk.goto(`${daemon.url}/desk.html?lang=${lng}#/t/${g.tid}/live`);
    await desk.waitForSelector('#alerts li[data-kind="illegal"] .detail');
    await desk.waitForSelector('#alerts li[data-kind="claim"] .detail');
    const details = await desk.locator('#alerts li').evaluateAll((lis) => Object.fromEntries(lis.map((li) => [li.dataset.kind, [li.querySelector('.detail').textContent, li.title]])));
    assert.match(details.illegal[0], illegal);
    assert.match(details.claim[0], claim);
    for (const [kind, [text, title]] of Object.entries(details)) {
      // Roman III of the Guidelines' articles is no English word.
      assert.deepEqual((text.match(english) || []).filter((w) => w !== 'III'), [], `${lng} ${kind}: ${text}`);
      assert.equal(title, text);
    }
  }
  assert.deepEqual(desk.errors, []);
});

test('the game log reads as sentences in the reader\'s language', async () => {
  const g = await twoPlayerGame('Log Open');
  await g.white('checkin'); await g.black('checkin');
  await arbiter.call('POST', `tournaments/${g.tid}/rounds/1/start`, {});
  await g.white('move', { ply: 0, move: 'e4', offer: true });
  await g.black('decline', { ply: 1 });
  await g.black('call', {});
  await arbiter.call('POST', `games/${g.gid}/arbiter/resume`, { note: 'all clear' });
  await arbiter.call('POST', `games/${g.gid}/arbiter/penalty`, { side: 'black', penalty: 'warning' });
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=bg#/g/${g.gid}`);
  await desk.waitForSelector('#g-log tr[data-type="penalty"]');
  const rows = await desk.locator('#g-log tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  const text = rows.map((r) => r.join(' | ')).join('\n');
  assert.doesNotMatch(text, /undefined|\b\w+: (true|false|\d)/, text);
  assert.match(text, /Белите: ход e4 и предложение за реми\./);
  assert.match(text, /Съдията пусна часовниците\. \| „?“?all clear/);
  assert.match(text, /Съдията наказа \(Черните\): /);
  for (const r of rows) assert.match(r[1], /^\d\d:\d\d:\d\d( ч\.)?$/, `24-hour time: ${r[1]}`);
  assert.deepEqual(desk.errors, []);
});

test('board events from the desk: a touched piece binds; an undecided dead position waits for the ruling', async () => {
  const g = await twoPlayerGame('Board Open');
  await g.white('checkin'); await g.black('checkin');
  await arbiter.call('POST', `tournaments/${g.tid}/rounds/1/start`, {});
  await g.white('move', { ply: 0, move: 'e4' });
  await g.black('move', { ply: 1, move: 'e5' });
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=en#/g/${g.gid}`);
  await desk.waitForSelector('[data-arb="touch"]:not([disabled])');
  assert.equal(await desk.isVisible('#arb-dead'), false);
  await desk.click('[data-arb="touch"]');
  await desk.fill('dialog.ask input[name=square]', 'g1');
  await desk.click('dialog.ask button.primary');
  await desk.waitForSelector('#g-log tr[data-type="touch"]');
  assert.match(await desk.textContent('#g-log'), /The arbiter recorded a piece touched by White \(4\.3\)\./);
  await assert.rejects(g.white('move', { ply: 2, move: 'd4' }), /409/);
  await g.white('move', { ply: 2, move: 'Nf3' });
  // Black's first illegal move (the king steps into the pawns' check) is
  // the last allowed; whether White (king, rook and bishops shut in
  // behind a pawn chain) can still mate is undecided (it can, by a long
  // helpmate in which its f-pawn queens), so the arbiter rules it alive
  // and Black loses.
  const d = await twoPlayerGame('Dead Open', { settings: { fen: '8/8/2B2p2/2p1pPp1/2PbPk1b/2pBp1p1/2P1P1P1/5BRK b - - 0 1', illegal_moves_to_lose: 1 } });
  await d.white('checkin'); await d.black('checkin');
  await arbiter.call('POST', `tournaments/${d.tid}/rounds/1/start`, {});
  await d.black('move', { ply: 0, move: 'Kf3' });
  await desk.goto(`${daemon.url}/desk.html?lang=en#/g/${d.gid}`);
  await desk.waitForSelector('#arb-dead:not(.hidden)');
  assert.match(await desk.textContent('#arb-dead'), /Dead position\? Decide: Black loses \(illegal moves\) if White can still checkmate/);
  assert.equal(await desk.isDisabled('[data-arb="dead_position"]'), true);
  await desk.click('[data-ruling="alive"]');
  await desk.click('dialog.ask button.danger');
  await desk.waitForSelector('#arb-dead.hidden', { state: 'attached' });
  assert.equal((await arbiter.call('GET', `games/${d.gid}`)).state.result, '1-0');
  assert.deepEqual(desk.errors, []);
});

test('a two-player match: forfeit, round over, nothing left to pair, no action that cannot apply', async () => {
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Match', time_control: '5400+30', system: 'roundrobin', rounds: 1 });
  const tokens = [];
  for (const name of ['Василев, Георги', 'Petrova, Maria']) tokens.push((await arbiter.call('POST', `tournaments/${tour.id}/players`, { name, rating: 2000 })).credentials.token);
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { publish: true });
  assert.equal(round.games.length, 1);
  const gid = round.games[0].id;
  for (const token of tokens) {
    await fetch(`${daemon.url}/api/v1/games/${gid}/checkin`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
  }
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=en#/g/${gid}`);
  await desk.waitForSelector('table.eventlog tbody tr');
  // Running, no offer waiting: accepting or declining could only be refused.
  await desk.waitForSelector('[data-law="pause"]:not([disabled])');
  assert.equal(await desk.isDisabled('[data-law="accept"]'), true);
  assert.equal(await desk.isDisabled('[data-law="decline"]'), true);
  assert.equal(await desk.isDisabled('[data-law="resume"]'), true);
  await arbiter.call('POST', `games/${gid}/arbiter/result`, { white: 1, black: 0, forfeit: true });
  await desk.waitForSelector('[data-law="pause"][disabled]');
  assert.doesNotMatch(await desk.textContent('#g-main'), /not yet confirmed/);
  assert.match(await desk.textContent('#g-main'), /Forfeit: no game to confirm/);
  await desk.goto(`${daemon.url}/desk.html?lang=en#/t/${tour.id}/rounds`);
  await desk.waitForSelector('#r-pair');
  assert.equal(await desk.isDisabled('#r-pair'), true, 'the only round is paired');
  assert.equal(await desk.locator('section.round button[data-act="pause"]').count(), 0, 'no clocks left to stop');
  assert.equal((await arbiter.call('GET', `tournaments/${tour.id}/rounds/1`)).status, 'finished');
  assert.deepEqual(desk.errors, []);
});

test('numbers: tie-breaks as decimals in the reader\'s style, printables alike, BOM on the CSV, a favicon', async () => {
  const desk = await deskAt('#/');
  await desk.goto(`${daemon.url}/desk.html?lang=ru#/`);
  await desk.waitForSelector('#tform');
  const out = await desk.evaluate(async () => {
    const v = await import('/js/views.js');
    const rows = [1, 2].map((i) => ({ rank: i, player: { id: i, name: `P${i}` }, points: 1.5, games: 2, tiebreaks: { SB: i === 1 ? 0.5 : 0.25 } }));
    const div = document.createElement('div');
    div.innerHTML = v.standingsTable(rows).__raw;
    return { sb: [...div.querySelectorAll('tbody tr')].map((tr) => tr.lastElementChild.textContent), csv: v.standingsCsv(rows).charCodeAt(0) };
  });
  assert.deepEqual(out.sb, ['0,5', '0,25']);
  assert.equal(out.csv, 0xFEFF);
  // The printable standings of a drawn match in Russian: "0,5" as on the desk.
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Draw match', time_control: '5400+30', system: 'manual', rounds: 1 });
  const ids = [];
  for (const name of ['A', 'B']) ids.push((await arbiter.call('POST', `tournaments/${tour.id}/players`, { name })).player.id);
  const round = await arbiter.call('POST', `tournaments/${tour.id}/rounds`, { pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }], publish: true });
  await arbiter.call('POST', `tournaments/${tour.id}/rounds/1/start`, {});
  await arbiter.call('POST', `games/${round.games[0].id}/arbiter/result`, { white: 0.5, black: 0.5 });
  const page = await (await fetch(`${daemon.url}/api/v1/tournaments/${tour.id}/standings?format=html&lang=ru`)).text();
  assert.match(page, />0,5</);
  assert.doesNotMatch(page, />0\.5</);
  for (const [file, type] of [['favicon.ico', 'image/x-icon'], ['favicon.svg', 'image/svg+xml']]) {
    const res = await fetch(`${daemon.url}/${file}`);
    assert.equal(res.status, 200, file);
    assert.equal(res.headers.get('content-type'), type);
  }
  assert.equal(await desk.locator('link[rel="icon"]').count(), 2);
  assert.deepEqual(desk.errors, []);
});

test('tablet: nothing to offer, claim or resign before the start; an illegal move names the piece that must move', async () => {
  const g = await twoPlayerGame('Tablet Open');
  const tab = await newPage(browser, { viewport: { width: 800, height: 1280 } });
  await tab.goto(`${daemon.url}/board.html?t=${g.tid}&lang=en`);
  const present = checkedIn(tab);
  await tab.fill('#pin', g.pins[0]);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.cg-wrap');
  await present;
  await g.black('checkin');
  for (const id of ['#b-offer', '#b-claim', '#b-resign']) assert.equal(await tab.isDisabled(id), true, `${id} before the start`);
  await arbiter.call('POST', `tournaments/${g.tid}/rounds/1/start`, {});
  await tab.waitForSelector('#b-resign:not([disabled])');
  await g.white('move', { ply: 0, move: 'e2e5' }).catch(() => {});
  await tab.locator('#notices', { hasText: /Move the pawn on e2/ }).waitFor({ timeout: 10000 });
  // Upright at 800×1280 every action stays on screen, and a toast leaves the player's clock free.
  for (const id of ['#b-offer', '#b-claim', '#b-resign', '#b-call']) {
    const box = await tab.locator(id).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 1280, `${id} on screen: ${JSON.stringify(box)}`);
  }
  await tab.evaluate(async () => (await import('/js/ui.js')).toast('A message for the player'));
  const toast = await tab.locator('#toasts .toast').last().boundingBox();
  const clock = await tab.locator('.me').boundingBox();
  assert.ok(toast.y + toast.height <= clock.y || toast.y >= clock.y + clock.height, 'the toast is off the player\'s clock');
  assert.deepEqual(tab.errors, []);
});
