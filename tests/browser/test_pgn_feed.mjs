// The live PGN feeds read by an outside parser: four games of one round are
// played through the API (a mate, a game in progress, one with castling on
// both sides and a promotion, a resignation), then the round's and the
// tournament's feeds are parsed with chessops (the PGN reader the broadcast
// platforms use) and checked: every game parses, carries the tags the
// platforms read, replays to legal moves that reach the position the API
// reports, has a [%clk] on every move, and a game in progress ends with "*".
// pgn-extract (PGN_EXTRACT, or /usr/games/pgn-extract) must read the same
// feeds without a complaint when it is installed.
// No browser is needed: run on its own (meson test pgn-feed) it exits 77
// when web/node_modules lacks chessops.

import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WEB = process.env.WEB_ROOT || path.resolve(import.meta.dirname, '../../web');
if (!fs.existsSync(path.join(WEB, 'node_modules/chessops')) || !fs.existsSync(path.join(WEB, 'node_modules/playwright-core'))) {
  console.log("skip: run 'npm ci' in web/ first");
  process.exit(77);
}
const { Daemon, ADMIN, ApiClient } = await import('./harness.mjs');
const mod = (m) => import(path.join(WEB, 'node_modules/chessops/dist/esm', m));
const { parsePgn, startingPosition, parseComment } = await mod('pgn.js');
const { parseSan } = await mod('san.js');
const { makeFen } = await mod('fen.js');

// Each game of the round: its moves, then how it ends (null: still playing).
const GAMES = [
  { moves: ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#'], result: '1-0' },
  { moves: ['d4', 'd5', 'c4'], result: '*' },
  {
    moves: ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'e6', 'Nf3', 'Be7', 'Be2', 'O-O', 'O-O', 'Nc6',
      'bxa8=Q', 'Qc7', 'Nc3', 'Bd7', 'd3', 'Rxa8'],
    draw: true, result: '1/2-1/2',
  },
  { moves: ['f3', 'e5', 'g4'], resign: 0, result: '0-1' },
];
const NAMES = ['Alpha, Ann', 'Bravo, Ben', 'Charlie, Cy', 'Delta, Di', 'Echo, Ed', 'Foxtrot, Fay', 'Golf, Gus', 'Hotel, Hal'];

let daemon; let tid; const games = [];
test.before(async () => {
  daemon = new Daemon();
  daemon.createUser(ADMIN);
  await daemon.start();
  const api = new ApiClient(daemon.url);
  await api.login(ADMIN);
  const tour = await api.call('POST', 'tournaments', { name: 'Feed Open', time_control: '5400+30', system: 'manual', rounds: 1 });
  tid = tour.id;
  const players = [];
  for (const [i, name] of NAMES.entries()) {
    const r = await api.call('POST', `tournaments/${tid}/players`, { name, rating: 2400 - 25 * i });
    players.push({ id: r.player.id, token: r.credentials.token, name, rating: 2400 - 25 * i });
  }
  // Titles and FIDE ids on some players only: their tags appear when set.
  await api.call('PATCH', `tournaments/${tid}/players/${players[0].id}`, { title: 'GM', fide_id: '1503014' });
  await api.call('PATCH', `tournaments/${tid}/players/${players[5].id}`, { title: 'WIM', fide_id: '4100018' });
  Object.assign(players[0], { title: 'GM', fide: '1503014' });
  Object.assign(players[5], { title: 'WIM', fide: '4100018' });
  const pairings = GAMES.map((_, i) => ({ board: i + 1, white_id: players[i].id, black_id: players[i + 4].id }));
  const round = await api.call('POST', `tournaments/${tid}/rounds`, { pairings, publish: true });
  const as = (p, gid, act, body) => fetch(`${daemon.url}/api/v1/games/${gid}/${act}`, {
    method: 'POST', headers: { Authorization: `Bearer ${p.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  }).then(async (r) => { if (!r.ok) throw new Error(`${act} ${r.status} ${await r.text()}`); });
  for (const [i, g] of round.games.entries()) {
    games.push({ ...GAMES[i], gid: g.id, white: players[i], black: players[i + 4], board: i + 1 });
    await as(players[i], g.id, 'checkin', {});
    await as(players[i + 4], g.id, 'checkin', {});
  }
  await api.call('POST', `tournaments/${tid}/rounds/1/start`, {});
  for (const g of games) {
    for (const [ply, move] of g.moves.entries()) await as(ply % 2 ? g.black : g.white, g.gid, 'move', { ply, move });
    if (g.resign !== undefined) await as(g.resign ? g.black : g.white, g.gid, 'resign', { ply: g.moves.length });
    if (g.draw) await api.call('POST', `games/${g.gid}/arbiter/result`, { white: 0.5, black: 0.5 });
    g.fen = (await api.call('GET', `games/${g.gid}`)).fen;
  }
});
test.after(async () => { await daemon?.stop(); daemon?.cleanup(); });

async function feed(route) {
  const res = await fetch(`${daemon.url}/api/v1/tournaments/${tid}/${route}`);
  assert.equal(res.status, 200, route);
  return res.text();
}

// The FEN fields both sides must agree on: placement, side to move, castling rights.
const essential = (fen) => fen.split(' ').slice(0, 3).join(' ');

function checkFeed(text) {
  const parsed = parsePgn(text);
  assert.equal(parsed.length, games.length, text);
  for (const g of games) {
    const pgn = parsed.find((p) => p.headers.get('Round') === `1.${g.board}`);
    assert.ok(pgn, `no game with Round "1.${g.board}" in\n${text}`);
    const h = pgn.headers;
    for (const tag of ['Event', 'Site', 'Date']) assert.ok(h.get(tag), `${tag} missing`);
    assert.match(h.get('Date'), /^\d{4}\.\d\d\.\d\d$/);
    assert.equal(h.get('White'), g.white.name);
    assert.equal(h.get('Black'), g.black.name);
    assert.equal(h.get('Result'), g.result);
    assert.equal(h.get('TimeControl'), '5400+30');
    assert.equal(h.get('WhiteElo'), String(g.white.rating));
    assert.equal(h.get('BlackElo'), String(g.black.rating));
    assert.equal(h.get('WhiteTitle'), g.white.title);
    assert.equal(h.get('WhiteFideId'), g.white.fide);
    assert.equal(h.get('BlackTitle'), g.black.title);
    assert.equal(h.get('BlackFideId'), g.black.fide);
    // The movetext's own termination marker agrees with the tag.
    const body = text.slice(text.indexOf(`[Round "1.${g.board}"]`)).split(/\n\s*\n/)[1].trim();
    assert.ok(body.endsWith(` ${g.result}`) || body === g.result, body);

    const pos = startingPosition(h).unwrap();
    const sans = [];
    for (const node of pgn.moves.mainline()) {
      const move = parseSan(pos, node.san);
      assert.ok(move, `illegal ${node.san} in round 1.${g.board} after ${sans.join(' ')}`);
      pos.play(move);
      sans.push(node.san);
      const clocks = (node.comments || []).map((c) => parseComment(c).clock).filter((c) => c !== undefined);
      assert.equal(clocks.length, 1, `no [%clk] after ${node.san} in round 1.${g.board}`);
      // 90 minutes plus 30 s for each of the side's moves, less the few seconds they took.
      const most = 5400 + 30 * Math.ceil(sans.length / 2);
      assert.ok(clocks[0] > most - 60 && clocks[0] <= most, `clock ${clocks[0]} after ${node.san}`);
    }
    assert.deepEqual(sans, g.moves);
    assert.equal(essential(makeFen(pos.toSetup())), essential(g.fen), `round 1.${g.board}`);
  }
}

function pgnExtract(text) {
  const tool = process.env.PGN_EXTRACT ?? '/usr/games/pgn-extract';
  if (!tool || !fs.existsSync(tool)) return 'skipped';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-feed-'));
  const file = path.join(dir, 'feed.pgn');
  fs.writeFileSync(file, text);
  const r = spawnSync(tool, ['-s', '-r', file], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  const said = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, said);
  assert.doesNotMatch(said, /error|warning/i, `pgn-extract says:\n${said}\non\n${text}`);
  return 'read';
}

test('the round feed parses, replays to the API positions, and pgn-extract reads it', async (t) => {
  const text = await feed('rounds/1/pgn');
  checkFeed(text);
  t.diagnostic(`pgn-extract: ${pgnExtract(text)}`);
});

test('the tournament feed holds the same games', async (t) => {
  const text = await feed('pgn');
  checkFeed(text);
  t.diagnostic(`pgn-extract: ${pgnExtract(text)}`);
});
