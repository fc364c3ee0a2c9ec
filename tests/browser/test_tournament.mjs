// A whole tournament day through the browser, against the real daemon: the
// arbiter creates a 4-player round robin on the desk, two tablets (separate
// browser contexts) play board 1 to mate with a draw offer declined and an
// illegal move penalised on the way, the daemon restarts mid-game and the
// tablets carry on, both players confirm the result, and the public standings
// show it, in Russian after a language switch.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document */

import test from 'node:test';
import assert from 'node:assert/strict';
import { Daemon, ADMIN, launchBrowser, newPage, dragMove, tapMove, stopAll } from './harness.mjs';

const PLAYERS = [
  ['Aronian, Levon', 2700], ['Bulgarian, Vesela', 2500], ['Chukova, Anna', 2300], ['Dimitrov, Petar', 2100],
];

let daemon; let browser;
test.before(async () => {
  daemon = new Daemon();
  daemon.createUser(ADMIN);
  await daemon.start();
  browser = await launchBrowser();
});
test.after(() => stopAll(daemon, browser));

const expectText = async (locator, re, timeout = 10000) => {
  await locator.filter({ hasText: re }).first().waitFor({ timeout });
};

test('a round robin game from the desk to the public standings', async (t) => {
  const desk = await newPage(browser);
  // The steps build on each other: after a failure the rest report that instead of timing out.
  // ARBITER_TEST_SHOTS=DIR keeps a screenshot of every page after each step.
  let broken = null;
  let stepNo = 0;
  const pages = { desk };
  const step = (name, fn) => t.test(name, async () => {
    if (broken) throw new Error(`not run: "${broken}" failed`);
    try { await fn(); } catch (e) { broken = name; throw e; } finally {
      stepNo++;
      if (process.env.ARBITER_TEST_SHOTS) {
        for (const [k, p] of Object.entries(pages)) await p.screenshot({ path: `${process.env.ARBITER_TEST_SHOTS}/${String(stepNo).padStart(2, '0')}-${k}.png` }).catch(() => {});
      }
    }
  });
  const url = daemon.url;
  const pins = {};
  let white; let black;

  await step('the arbiter logs in and creates a round robin', async () => {
    await desk.goto(`${url}/desk.html`);
    await desk.fill('#user', ADMIN.username);
    await desk.fill('#pass', ADMIN.password);
    await desk.click('#login button.primary');
    await desk.waitForSelector('#tform');
    await desk.fill('#t-name', 'Browser Open');
    await desk.selectOption('#t-system', 'roundrobin');
    await desk.fill('#t-rounds', '3');
    await desk.fill('#t-tc', '5400+30');
    await desk.fill('#s-illegal', '3');
    await desk.click('#tform button.primary');
    await desk.waitForSelector('#padd');
  });

  await step('four players are registered and get PINs', async () => {
    for (const [name, rating] of PLAYERS) {
      await desk.fill('#pa-name', name);
      await desk.fill('#pa-rating', String(rating));
      await desk.click('#padd button.primary');
      await expectText(desk.locator('#players td'), new RegExp(name.split(',')[0]));
      await desk.waitForSelector('#padd');
    }
    const rows = await desk.locator('#players tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.children[1].textContent, tr.querySelector('.pin').textContent]));
    assert.equal(rows.length, 4);
    for (const [name, pin] of rows) { assert.match(pin, /^\d{4,12}$/, `PIN of ${name}`); pins[name] = pin; }
  });

  await step('round 1 is paired by the Berger table and reviewed', async () => {
    await desk.click('a[href$="/rounds"]');
    await desk.click('#r-pair');
    await desk.click('dialog.ask button.primary');
    await desk.waitForSelector('section.round table.pairings');
    const board1 = desk.locator('section.round table.pairings tbody tr').first();
    const cells = await board1.locator('td').allTextContents();
    [white, black] = [cells[1], cells[3]];
    assert.ok(pins[white] && pins[black], `board 1: ${white} - ${black}`);
    // Berger round 1: player 1 (highest rating) has White against player 4.
    assert.equal(white, PLAYERS[0][0]);
    assert.equal(black, PLAYERS[3][0]);
    // The server's pairing check: nothing broken.
    await desk.waitForSelector('section.round .check');
    assert.equal(await desk.locator('section.round .check .banner').count(), 0);
  });

  await step('colours swapped on board 1 break the Berger table; swapped back, the warning goes', async () => {
    for (const expectWarn of [true, false]) {
      await desk.click('section.round button[data-act="swap"]');
      await desk.selectOption('dialog.ask select[name="first_id"]', { label: white });
      await desk.selectOption('dialog.ask select[name="second_id"]', { label: black });
      await desk.click('dialog.ask button.primary');
      if (expectWarn) await expectText(desk.locator('section.round .check .banner.warn[data-code="BERGER"]'), /Berger/);
      else await desk.waitForSelector('section.round .check .banner', { state: 'detached' });
    }
    const cells = await desk.locator('section.round table.pairings tbody tr').first().locator('td').allTextContents();
    assert.deepEqual([cells[1], cells[3]], [white, black]);
  });

  await step('the draft round is published: the tablets may find their boards', async () => {
    await desk.waitForSelector('section.round [data-state="draft"]');
    await desk.click('section.round button[data-act="publish"]');
    await desk.waitForSelector('section.round [data-state="published"]');
  });

  let tabW = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  const tabB = await newPage(browser, { viewport: { width: 600, height: 1024 } });
  Object.assign(pages, { white: tabW, black: tabB });

  await step('the players sign in on their tablets (check-in); each board turns to its colour', async () => {
    for (const [tab, name] of [[tabW, white], [tabB, black]]) {
      await tab.goto(`${url}/board.html`);
      await tab.fill('#pin', pins[name]);
      await tab.click('#signin button[type=submit].primary >> nth=-1');
      await tab.waitForSelector('.cg-wrap');
      await expectText(tab.locator('#my-name'), new RegExp(name.split(',')[0]));
    }
    assert.ok(await tabW.locator('.cg-wrap.orientation-white').count());
    assert.ok(await tabB.locator('.cg-wrap.orientation-black').count());
    await expectText(tabW.locator('#status'), /not started/);
  });

  await step('the arbiter starts the round: White\'s clock runs', async () => {
    await desk.click('section.round button[data-act="start"]');
    await desk.click('dialog.ask button.primary');
    await desk.waitForSelector('section.round button[data-act="pause"]');
    await expectText(tabW.locator('#status'), /Your move/);
    await expectText(tabW.locator('#my-clock.running'), /1:(29|30):/);
    await expectText(tabB.locator('#status'), /Opponent to move/);
  });

  await step('a wrong PIN is refused with a message', async () => {
    const other = await newPage(browser);
    await other.goto(`${url}/board.html`);
    await other.fill('#pin', '00000000');
    await other.click('#signin button[type=submit].primary >> nth=-1');
    await other.waitForSelector('#signin-msg:not(.hidden)');
    await other.context().close();
  });

  const moves = async (tab) => (await tab.locator('#moves li').allTextContents()).join(' ').replace(/\s+/g, ' ').trim();

  await step('1. e4 by tapping the pawn, then its square; the opponent sees it', async () => {
    await tapMove(tabW, 'e2', 'e4');
    await expectText(tabB.locator('#status'), /Your move/);
    assert.match(await moves(tabB), /1\. ?e4/);
  });

  await step('the daemon restarts; the tablets reconnect with the clocks stopped', async () => {
    await daemon.stop();
    await expectText(tabB.locator('.conn'), /offline/, 20000);
    await daemon.start();
    await expectText(tabB.locator('.conn'), /live/, 20000);
    await expectText(tabW.locator('.conn'), /live/, 20000);
    // Time lost while the server was down is nobody's: the daemon pauses the games (6.11).
    await expectText(tabB.locator('#status'), /Clocks stopped/);
    assert.match(await moves(tabW), /^1\. e4$/);
  });

  await step('the arbiter restarts the clocks from the game view; play goes on', async () => {
    await desk.goto(`${url}/desk.html#/t/1/live`);
    await desk.click('#grid .board-card >> nth=0 >> a');
    await desk.click('[data-law="resume"]');
    await desk.click('dialog.ask button.primary');
    await expectText(tabB.locator('#status'), /Your move/);
    await dragMove(tabB, 'e7', 'e5');
    await expectText(tabW.locator('#status'), /Your move/, 15000);
    assert.match(await moves(tabW), /e4 e5/);
  });

  await step('2. Qh5; Black types f6 with the pinned pawn and is penalised', async () => {
    await dragMove(tabW, 'd1', 'h5');
    await expectText(tabB.locator('#status'), /Your move/);
    const before = await tabW.locator('#my-clock').textContent();
    await tabB.fill('#typed', 'f6');
    await tabB.press('#typed', 'Enter');
    await expectText(tabB.locator('#my-pen'), /illegal moves: 1/);
    await expectText(tabW.locator('#opp-pen'), /illegal moves: 1/);
    await tabB.waitForSelector('#notices .banner.alert');
    // Art. 7.5.5: two minutes more for White (1:29:xx -> 1:31:xx).
    const after = await tabW.locator('#my-clock').textContent();
    const secs = (x) => x.split(':').map(Number).reduce((acc, n) => acc * 60 + n, 0);
    assert.ok(secs(after) - secs(before) >= 100, `white's clock ${before} -> ${after}`);
    await expectText(tabB.locator('#status'), /Your move/);
    assert.match(await moves(tabB), /e4 e5 2\. ?Qh5$/);
  });

  await step('the desk sees the illegal move as an alert, and resolves it', async () => {
    await desk.click('#nav a[href$="/live"]');
    const alert = desk.locator('#alerts .banner.alert', { hasText: /Illegal move/ });
    await alert.waitFor({ timeout: 10000 });
    assert.match(await desk.title(), /^\(\d+\) /);
    await alert.locator('button[data-act="resolve"]').click();
    await alert.waitFor({ state: 'detached' });
  });

  await step('2... Nc6: the answer is lost on the way back, the tablet retries, the move counts once', async () => {
    // The server commits the move, then the connection drops before the answer arrives.
    let lost = 0;
    await tabB.route('**/api/v1/games/*/move', async (route) => {
      if (lost++ === 0) { await route.fetch(); return route.abort('connectionreset'); }
      return route.continue();
    });
    await dragMove(tabB, 'b8', 'c6');
    await expectText(tabW.locator('#status'), /Your move/);
    await expectText(tabB.locator('#status'), /Opponent to move/);
    await tabB.unroute('**/api/v1/games/*/move');
    assert.ok(lost >= 2, `the move was sent ${lost} time(s)`);
    assert.match(await moves(tabW), /^1\. e4 e5 2\. Qh5 Nc6$/);
    assert.match(await moves(tabB), /^1\. e4 e5 2\. Qh5 Nc6$/);
  });

  await step('White\'s tablet is swapped: a new one signs in with the same PIN and carries on', async () => {
    const fresh = await newPage(browser, { viewport: { width: 1024, height: 600 } });
    await fresh.goto(`${url}/board.html`);
    await fresh.fill('#pin', pins[white]);
    await fresh.click('#signin button[type=submit].primary >> nth=-1');
    await expectText(fresh.locator('#status'), /Your move/);
    assert.match(await moves(fresh), /Qh5 Nc6$/);
    await tabW.context().close();
    tabW = fresh;
    pages.white = fresh;
  });

  await step('3. Bc4 with a draw offer, declined', async () => {
    await dragMove(tabW, 'f1', 'c4');
    await expectText(tabB.locator('#status'), /Your move/);
    await tabW.click('#b-offer');
    await tabW.click('dialog.ask button.primary');
    await tabB.waitForSelector('#n-decline', { timeout: 10000 });
    await tabB.click('#n-decline');
    await tabB.waitForSelector('#n-decline', { state: 'detached' });
    await tabW.waitForSelector('#notices .banner.info', { state: 'detached' });
  });

  await step('3... Nf6 4. Qxf7# ends the game 1-0', async () => {
    await tapMove(tabB, 'g8', 'f6');
    await expectText(tabW.locator('#status'), /Your move/);
    await dragMove(tabW, 'h5', 'f7');
    await expectText(tabW.locator('#status'), /1–0/);
    await expectText(tabB.locator('#status'), /1–0/);
    assert.match(await moves(tabB), /Qxf7#/);
  });

  await step('both players confirm the result', async () => {
    for (const tab of [tabW, tabB]) {
      await tab.click('#n-confirm');
      await tab.click('dialog.ask button.primary');
      await expectText(tab.locator('#notices'), /confirmed/);
    }
  });

  await step('the desk\'s scoresheet lists the moves with the clock readings', async () => {
    await desk.goto(`${url}/desk.html#/t/1/live`);
    await desk.click('#grid .board-card >> nth=0 >> a');
    await desk.waitForSelector('table.scoresheet tbody tr >> nth=3');
    const rows = await desk.locator('table.scoresheet tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(rows.map((r) => [r[1], r[3]]), [['e4', 'e5'], ['Qh5', 'Nc6'], ['Bc4', 'Nf6'], ['Qxf7#', '']]);
    await desk.waitForFunction(() => /^\d:\d\d:\d\d$/.test(document.querySelector('table.scoresheet tbody tr td:nth-child(3)')?.textContent || ''));
    const clocks = await desk.locator('table.scoresheet tbody tr td:nth-child(3)').allTextContents();
    // 90 minutes and 30 s a move: White's readings stay near 1:30:00, plus two minutes after Black's illegal move.
    for (const c of clocks) assert.match(c, /^1:3[0-3]:\d\d$/);
    assert.deepEqual(await desk.locator('table.eventlog tbody tr').count() > 10, true);
  });

  await step('the public standings show the win, live, in Russian after switching', async () => {
    const pub = await newPage(browser, { viewport: { width: 390, height: 844 } });
    pages.public = pub;
    await pub.goto(`${url}/`);
    await pub.click('ul.tournaments a');
    await pub.click('#nav a[href$="/standings"]');
    await pub.waitForSelector('table.standings');
    const first = await pub.locator('table.standings tbody tr').first().locator('td').allTextContents();
    assert.match(first[1], new RegExp(white.split(',')[0]));
    assert.equal(first[4], '1');
    await pub.selectOption('.lang-picker', 'ru');
    await expectText(pub.locator('#nav a'), /Положение/);
    await expectText(pub.locator('table.standings th'), /Очки/);
    assert.equal(await pub.evaluate(() => document.documentElement.lang), 'ru');
    // The crosstable: the win on board 1, and board 2 lost by both for absence (-/-).
    await pub.click('#nav a[href$="/crosstable"]');
    await pub.waitForSelector('table.cross tbody tr');
    const cells = await pub.locator('table.cross tbody td:not(.self)').allTextContents();
    assert.equal(cells.filter((c) => c === '1').length >= 1, true, cells.join('|'));
    assert.equal(cells.filter((c) => c === '−').length, 2, cells.join('|'));
    assert.deepEqual(pub.errors, []);
  });

  await step('no page reported a script error', () => {
    for (const p of [desk, tabW, tabB]) assert.deepEqual(p.errors, []);
  });
});
