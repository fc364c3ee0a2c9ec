// The built pages' board style (web/bundle.mjs folds the board library's
// twelve piece images into one, and writes its SVG images as text) draws a
// board exactly as the library's own style sheets do: every piece of either
// colour on both square colours, at a phone's, a tablet's and a desk's size
// and pixel density, compared pixel by pixel.

// The functions given to page.evaluate and its kind run in the page, with its globals.
/* global document, Image */

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startAll, stopAll, WEB_ROOT } from './harness.mjs';

const LIBRARY = ['chessground.base.css', 'chessground.brown.css', 'chessground.cburnett.css']
  .map((f) => fs.readFileSync(path.join(WEB_ROOT, 'node_modules', 'chessground', 'assets', f), 'utf8')).join('\n');
const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

let daemon; let browser;
test.before(async () => { ({ daemon, browser } = await startAll()); });
test.after(() => stopAll(daemon, browser));

// A PNG of a board SIZE pixels wide drawn under the style sheet CSS: four
// ranks, each piece of each colour on a light and on a dark square.
async function board(css, size, scale) {
  const ctx = await browser.newContext({ deviceScaleFactor: scale, viewport: { width: size, height: size / 2 } });
  const page = await ctx.newPage();
  await page.setContent(`<!doctype html><style>${css}</style><style>body { margin: 0 }</style>` +
    `<div class="cg-wrap" id="w"><cg-container><cg-board></cg-board></cg-container></div>`);
  await page.evaluate(([size, roles]) => {
    const wrap = document.getElementById('w');
    wrap.style.width = `${size}px`; wrap.style.height = `${size / 2}px`;
    const b = document.querySelector('cg-board');
    for (let k = 0; k < 32; k++) {
      const p = document.createElement('piece');
      p.className = `${k < 16 ? 'white' : 'black'} ${roles[(k + Math.floor(k / 8)) % 6]}`;
      p.style.width = p.style.height = `${size / 8}px`;
      p.style.transform = `translate(${(k % 8) * size / 8}px, ${Math.floor(k / 8) * size / 8}px)`;
      b.append(p);
    }
  }, [size, ROLES]);
  const png = await page.screenshot();
  await ctx.close();
  return png.toString('base64');
}

test('the built board style draws every piece as the board library does', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${daemon.url}/board.html`);
  const href = await page.evaluate(() => document.querySelector('link[rel="stylesheet"]').href);
  if (!href.includes('/dist/')) { t.skip('no built pages (web/dist/): the sources are served'); return; }
  const built = await (await fetch(href)).text();
  // One piece image for the set, not one per piece.
  assert.equal(built.match(/piece[^{}]*\{[^}]*background-image/g).length, 1);
  for (const [size, scale] of [[360, 3], [800, 1], [1000, 1.5]]) {
    const diff = await page.evaluate(async (pngs) => {
      const pixels = async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width; c.height = img.height;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, c.width, c.height).data;
      };
      const [a, b] = [await pixels(pngs[0]), await pixels(pngs[1])];
      let n = 0;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
      // Nothing drawn at all would match too: count the pixels that are
      // neither square colour (the pieces' black and white).
      let ink = 0;
      for (let i = 0; i < a.length; i += 4) if (a[i] < 60 || (a[i] > 250 && a[i + 1] > 250)) ink++;
      return { n, ink, of: a.length / 4 };
    }, [await board(LIBRARY, size, scale), await board(built, size, scale)]);
    assert.equal(diff.n, 0, `${size}px at ${scale}x: ${diff.n} channels differ`);
    assert.ok(diff.ink > diff.of / 20, `${size}px at ${scale}x: no pieces drawn (${diff.ink} of ${diff.of})`);
  }
  await page.close();
});
