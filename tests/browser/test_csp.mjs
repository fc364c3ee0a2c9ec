// The pages under their Content-Security-Policy, which allows no inline
// styles: the desk (sign-in form, players with the CSV import, crosstable),
// the public crosstable and the tablet's board report no violation, and the
// layout that style attributes used to give comes from the style sheet.  A
// style attribute put in on purpose is blocked and reported, which shows the
// policy is enforced and the listener hears it.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document, getComputedStyle */

import test from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, newPage, stopAll, startAll } from './harness.mjs';

let daemon; let browser; let arbiter;
let tid; const pins = [];

test.before(async () => {
  ({ daemon, browser, arbiter } = await startAll());
  const tour = await arbiter.call('POST', 'tournaments', { name: 'Policy Open', time_control: '900+10', system: 'manual', rounds: 1 });
  tid = tour.id;
  const ids = [];
  for (const [name, rating] of [['Alpha, Anna', 2100], ['Beta, Boris', 2000]]) {
    const r = await arbiter.call('POST', `tournaments/${tid}/players`, { name, rating });
    pins.push(r.credentials.pin);
    ids.push(r.player.id);
  }
  await arbiter.call('POST', `tournaments/${tid}/rounds`, { pairings: [{ board: 1, white_id: ids[0], black_id: ids[1] }], publish: true });
});

test.after(() => stopAll(daemon, browser));

const css = (page, sel, prop) => page.locator(sel).first().evaluate((el, p) => getComputedStyle(el)[p], prop);

test('the policy blocks inline styles', async () => {
  const page = await newPage(browser);
  const res = await page.goto(`${daemon.url}/desk.html`);
  const policy = res.headers()['content-security-policy'];
  assert.match(policy, /style-src 'self'[;' ]/);
  assert.doesNotMatch(policy, /unsafe-inline/);
  await page.waitForSelector('#login');
  await page.evaluate(() => { const d = document.createElement('div'); d.innerHTML = '<p id="styled" style="color: rgb(255, 0, 0)">x</p>'; document.body.append(d); });
  for (let i = 0; i < 50 && !page.csp.length; i++) await page.waitForTimeout(20);
  assert.equal(page.csp.length, 1, 'the inline style was not reported');
  assert.match(page.csp[0], /style-src-attr/);
  assert.notEqual(await css(page, '#styled', 'color'), 'rgb(255, 0, 0)');
  await page.context().close();
});

test('desk, public page and tablet run without a violation', async () => {
  const desk = await newPage(browser);
  await desk.goto(`${daemon.url}/desk.html`);
  await desk.waitForSelector('#login');
  // Sign-in form: narrow, heading and message across both columns.
  assert.equal(await css(desk, '#login', 'maxWidth'), '448px');
  assert.equal(await css(desk, '#login h2', 'gridColumnStart'), '1');
  assert.equal(await css(desk, '#login h2', 'gridColumnEnd'), '-1');
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#login', { state: 'detached', timeout: 10000 });
  await desk.goto(`${daemon.url}/desk.html#/t/${tid}/players`);
  await desk.waitForSelector('#padd');
  assert.equal(await css(desk, '#pa-rating', 'width'), '96px');
  await desk.locator('#pimport').evaluate((el) => { el.closest('details').open = true; });
  const [area, box] = await Promise.all([
    desk.locator('#pimport').evaluate((el) => el.getBoundingClientRect().width),
    desk.locator('#pimport').evaluate((el) => el.parentElement.getBoundingClientRect().width),
  ]);
  assert.ok(Math.abs(area - box) < 2, `CSV box ${area}px in ${box}px`);
  await desk.goto(`${daemon.url}/desk.html#/t/${tid}/settings`);
  await desk.waitForSelector('fieldset.span-all');
  assert.equal(await css(desk, 'fieldset.span-all', 'gridColumnEnd'), '-1');
  await desk.goto(`${daemon.url}/desk.html#/t/${tid}/crosstable`);
  await desk.waitForSelector('table.cross td.left');
  assert.equal(await css(desk, 'table.cross td.left', 'textAlign'), 'left');

  const pub = await newPage(browser, { viewport: { width: 360, height: 700 } });
  await pub.goto(`${daemon.url}/#/t/${tid}/crosstable`);
  await pub.waitForSelector('.scroll-x table.cross');
  assert.equal(await css(pub, '.scroll-x', 'overflowX'), 'auto');

  const tab = await newPage(browser, { viewport: { width: 1024, height: 600 } });
  await tab.goto(`${daemon.url}/board.html?t=${tid}`);
  await tab.fill('#pin', pins[0]);
  await tab.click('#signin button[type=submit].primary >> nth=-1');
  await tab.waitForSelector('.cg-wrap piece');
  const [board, boardArea] = await Promise.all([
    tab.locator('#board').evaluate((el) => el.getBoundingClientRect().width),
    tab.locator('#board-area').evaluate((el) => el.getBoundingClientRect().width),
  ]);
  assert.ok(board > 200 && Math.abs(board - boardArea) < 2, `board ${board}px in ${boardArea}px`);

  await tab.waitForTimeout(300);
  for (const [name, p] of [['desk', desk], ['public', pub], ['tablet', tab]]) {
    assert.deepEqual(p.csp, [], `${name}: CSP violations`);
    assert.deepEqual(p.errors, [], `${name}: errors`);
  }
});
