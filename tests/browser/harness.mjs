// Browser test harness: starts the real daemon on a free port with a fresh
// database, and Debian's chromium through playwright-core, each browser
// context with its own cookies (one per tablet, one for the arbiter).
//   ARBITER  path of the arbiter binary (set by meson)
//   WEB_ROOT the web/ directory the daemon serves
//   CHROMIUM the browser (default /usr/bin/chromium)
//   ARBITER_TEST_CONSOLE=1 prints every page's console and API traffic

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document, window */

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

export const WEB_ROOT = process.env.WEB_ROOT || path.resolve(import.meta.dirname, '../../web');
export const ARBITER = process.env.ARBITER || path.resolve(import.meta.dirname, '../../build/server/arbiter');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ADMIN = { username: 'chief', password: 'correct horse battery' };

const require = createRequire(path.join(WEB_ROOT, 'package.json'));
const { chromium } = require('playwright-core');

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The daemon, restartable on the same port and database.
export class Daemon {
  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-browser-'));
    this.db = path.join(this.dir, 'arbiter.db');
    this.log = path.join(this.dir, 'daemon.log');
  }

  // Create the arbiter account from the command line, as an organiser would.
  createUser({ username, password }) {
    const r = spawnSync(ARBITER, ['user', 'add', username, '--db', this.db], { input: password + '\n', encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`arbiter user add failed (${r.status}): ${r.stderr}${r.stdout}`);
  }

  async start() {
    if (!this.port) this.port = await freePort();
    this.url = `http://127.0.0.1:${this.port}`;
    const out = fs.openSync(this.log, 'a');
    // Every page and tablet of a test comes from 127.0.0.1, at test speed: no rate limit.
    this.proc = spawn(ARBITER, ['serve', '--listen', `127.0.0.1:${this.port}`, '--db', this.db, '--web', WEB_ROOT,
      '--rate-limit', '0'],
      { stdio: ['ignore', out, out] });
    this.exited = new Promise((r) => this.proc.once('exit', (code, sig) => r({ code, sig })));
    for (let i = 0; i < 100; i++) {
      try {
        const res = await fetch(`${this.url}/api/v1/health`);
        if (res.ok) return this;
      } catch { /* not listening yet */ }
      if (this.proc.exitCode !== null) break;
      await sleep(100);
    }
    throw new Error(`the daemon did not start; log:\n${fs.readFileSync(this.log, 'utf8')}`);
  }

  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }

  async restart() { await this.stop(); await this.start(); }

  cleanup() { fs.rmSync(this.dir, { recursive: true, force: true }); }
}

// Playwright gives every launch a fresh temporary profile (--user-data-dir)
// and removes it at close; each newContext() is a separate cookie jar.
/* A fresh daemon with the chief arbiter, Chromium, and an API client
 * signed in as that arbiter: what every page test starts from. */
export async function startAll() {
  const daemon = new Daemon();
  daemon.createUser(ADMIN);
  await daemon.start();
  const browser = await launchBrowser();
  const arbiter = new ApiClient(daemon.url);
  await arbiter.login(ADMIN);
  return { daemon, browser, arbiter };
}

/* Undoes startAll(), whatever part of it ran. */
export async function stopAll(daemon, browser) {
  await browser?.close();
  await daemon?.stop();
  daemon?.cleanup();
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A page that fails the test on any script error or CSP violation, and keeps console output for the report.
export async function newPage(browser, { viewport = { width: 1280, height: 800 }, locale = 'en-GB' } = {}) {
  const ctx = await browser.newContext({ viewport, locale });
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  if (process.env.ARBITER_TEST_CONSOLE) page.on('console', (m) => console.error('console:', m.type(), m.text()));
  if (process.env.ARBITER_TEST_CONSOLE) page.on('response', (r) => { if (r.url().includes('/api/')) console.error('http:', r.status(), r.request().method(), r.url()); });
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource|ERR_CONNECTION_REFUSED|EventSource/.test(m.text())) page.errors.push(m.text()); });
  // Whatever the Content-Security-Policy blocks (an inline style or script,
  // a foreign source) is an error of the page, reported with what was blocked.
  page.csp = [];
  await page.exposeFunction('__arbiterCspViolation', (v) => { page.csp.push(v); page.errors.push(`CSP violation: ${v}`); });
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => {
    window.__arbiterCspViolation(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber} ${e.sample || ''}`);
  }));
  return page;
}

// The centre of a square on a chessground board, for either orientation.
/* A desk page signed in as the chief arbiter, then at HASH (e.g. '#/t/3'). */
export async function deskSignedIn(browser, daemon, hash = '', opts = { viewport: { width: 1440, height: 900 } }) {
  const desk = await newPage(browser, opts);
  await desk.goto(`${daemon.url}/desk.html`);
  await desk.fill('#user', ADMIN.username);
  await desk.fill('#pass', ADMIN.password);
  await desk.click('#login button.primary');
  await desk.waitForSelector('#tform');
  if (hash) await desk.goto(`${daemon.url}/desk.html${hash}`);
  return desk;
}

/* The answer to the check-in of the tablet PAGE (6.7).  A player signed in
 * is present only once that is in, not when the board shows: a round
 * started before finds him absent and, with no default time, forfeits his
 * game.  Ask before the sign-in is submitted. */
export function checkedIn(page) {
  return page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/v1\/games\/\d+\/checkin$/.test(r.url()) && r.ok());
}

export async function squareCenter(page, square, root = '') {
  const box = await page.locator(`${root} cg-board`).first().boundingBox();
  const orientation = await page.locator(`${root} .cg-wrap`).first().evaluate((el) => (el.classList.contains('orientation-black') ? 'black' : 'white'));
  const f = square.charCodeAt(0) - 97;
  const r = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = orientation === 'white' ? f : 7 - f;
  const row = orientation === 'white' ? 7 - r : r;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}

export async function dragMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

export async function tapMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.click(a.x, a.y);
  await page.mouse.click(b.x, b.y);
}

// A JSON client for setting the stage from the test itself: keeps the session
// cookie and sends the CSRF token the login returned.
export class ApiClient {
  constructor(base) { this.base = base; this.cookie = ''; this.csrf = ''; }

  async call(method, path, body) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.cookie) headers.Cookie = this.cookie;
    if (this.csrf && method !== 'GET') headers['X-CSRF-Token'] = this.csrf;
    const res = await fetch(`${this.base}/api/v1/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0];
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
    if (data && data.csrf_token) this.csrf = data.csrf_token;
    return data;
  }

  login(user) { return this.call('POST', 'auth/login', user); }
}
