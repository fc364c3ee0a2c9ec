// Time controls typed as arbiters write them (minutes) and the seconds form
// of the PGN tag the API keeps: the page's parser in node, then the desk's
// form in the browser with a preset and a typed multi-period control.

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { WEB_ROOT, startAll, stopAll, newPage, ADMIN } from './harness.mjs';

const tc = await import(path.join(WEB_ROOT, 'js', 'time-control.js'));

test('the arbiter\'s minutes become the PGN seconds form and back', () => {
  const cases = [
    ['90+30', '5400+30', 'standard'], ['40/90+30+30', '40/5400+30:1800+30', 'standard'], ['40/90+30', '40/5400:1800', 'standard'],
    ['40/120+20/60+15+30', '40/7200+30:20/3600+30:900+30', 'standard'], ['15+10', '900+10', 'rapid'], ['3+2', '180+2', 'blitz'],
    ['10', '600', 'blitz'], ['60', '3600', 'standard'], ['25 + 10', '1500+10', 'rapid'], ['1.5+1', '90+1', 'blitz'],
  ];
  for (const [typed, pgn, cat] of cases) {
    const r = tc.parseTimeControl(typed);
    assert.equal(r.pgn, pgn, typed);
    assert.equal(tc.timeControlCategory(r), cat, typed);
    assert.equal(tc.formatTimeControl(pgn), typed.replace(/\s/g, ''), pgn);
  }
  // The seconds form is passed on as it is, for the server to check.
  for (const s of ['5400+30', '40/5400+30:1800+30', '900d5', '-']) assert.deepEqual(tc.parseTimeControl(s), { pgn: s, seconds: true });
  for (const bad of ['', 'abc', '90+30+5', '40/90', '0+5', '/90']) assert.ok(tc.parseTimeControl(bad).error, bad);
  // What the arbiter form cannot say stays in seconds.
  assert.equal(tc.formatTimeControl('40/5400+30:1800'), '40/5400+30:1800');
  assert.equal(tc.formatTimeControl('900d5'), '900d5');
});

test('the desk\'s form: presets, a typed control, the reading beside it', async () => {
  const { daemon, browser, arbiter } = await startAll();
  try {
    const desk = await newPage(browser);
    await desk.goto(`${daemon.url}/desk.html`);
    await desk.fill('#user', ADMIN.username);
    await desk.fill('#pass', ADMIN.password);
    await desk.click('#login button.primary');
    await desk.waitForSelector('#tform');
    assert.equal(await desk.inputValue('#t-tc'), '90+30');
    await desk.click('.tc-preset[data-tc="3+2"]');
    assert.equal(await desk.textContent('#t-tc-read'), '= 180+2 · Blitz');
    await desk.fill('#t-tc', '40/90+30+30');
    assert.equal(await desk.textContent('#t-tc-read'), '= 40/5400+30:1800+30 · Standard');
    await desk.fill('#t-name', 'Minutes Open');
    await desk.click('#tform button.primary');
    await desk.waitForSelector('#padd');
    const list = await arbiter.call('GET', 'tournaments');
    assert.equal(list.find((x) => x.name === 'Minutes Open').time_control, '40/5400+30:1800+30');
    const id = list.find((x) => x.name === 'Minutes Open').id;
    await desk.goto(`${daemon.url}/desk.html#/t/${id}/settings`);
    await desk.waitForSelector('#tform');
    assert.equal(await desk.inputValue('#t-tc'), '40/90+30+30');
    await desk.fill('#t-tc', 'ninety');
    await desk.click('#tform button.primary');
    await desk.waitForSelector('.toast.error, [role="alert"]');
    assert.deepEqual(desk.errors, []);
  } finally { await stopAll(daemon, browser); }
});
