#!/usr/bin/env python3
"""soak.py — a simulated Olympiad on loopback against `arbiter serve`:
BOARDS boards with two tablets each (one keep-alive connection per tablet)
playing random legal games with short think times (accelerated play), and
VIEWERS spectators holding live streams (Server-Sent Events) of the games,
for DURATION seconds.  So that the load lasts, ROUNDS rounds are paired up
front; rounds after the first are started and paused at once, and when a
board's game ends the arbiter resumes that board's next game (its viewers
follow it to the new game).  Samples the daemon's memory (RSS) and open
descriptors, and measures the latency of every move.

Passes (exit 0) when: no request failed and no stream broke, the p99 move
latency is within --p99-ms, and the RSS after the warm-up stays flat (grows
by less than --rss-growth percent plus 8 MB).  Prints the figures.

usage: soak.py --bin ARBITER [--boards 1000] [--viewers 5000] [--duration 600]
               [--think 4] [--rounds 8] [--p99-ms 250]
Standard library only; the file descriptor limit is raised to the hard limit.
"""
import argparse
import asyncio
import gc
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))
from arbclient import Conn, Daemon, login, make_event, pick_move  # noqa: E402


class Errors(list):
    """The errors, each also printed when it happens (with the time)."""

    def append(self, e):
        print("soak: error at %s: %s" % (time.strftime("%H:%M:%S"), e), flush=True)
        super().append(e)


class Stats:
    def __init__(self):
        self.lat = []          # ms of every acknowledged move
        self.moves = 0
        self.errors = Errors()
        self.games_over = 0
        self.events = 0        # stream events received by viewers
        self.streams_open = 0
        self.streams_broken = 0
        self.games_started = 0
        self.lag_ms = 0.0      # the load generator's own worst delay this window


async def request(reader, writer, method, path, body=None, token=None, arbiter=None):
    """One request on a keep-alive connection: with a player's bearer TOKEN,
    or as the arbiter (ARBITER = (cookie, csrf))."""
    data = json.dumps(body).encode() if body is not None else b""
    head = "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n" % (method, path)
    if token:
        head += "Authorization: Bearer %s\r\n" % token
    if arbiter:
        head += "Cookie: %s\r\nX-CSRF-Token: %s\r\n" % arbiter
    if body is not None:
        head += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(data)
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("connection closed")
    status = int(status_line.split()[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        k, _, v = line.decode().partition(":")
        if k.lower() == "content-length":
            length = int(v)
    raw = await reader.readexactly(length) if length else b""
    return status, json.loads(raw) if raw else None


async def board(port, rounds, rng, st, stop_at, think, arbiter, follow):
    """Plays the board's game of each round in turn (ROUNDS: (gid, white
    token, black token) per round); FOLLOW[0] is the game being played, for
    the board's viewers."""
    conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
    gid = rounds[0][0]
    try:
        for r, (gid, wt, bt) in enumerate(rounds):
            tokens = [wt, bt]
            if r > 0:
                # The arbiter resumes this board's game of the next round (on
                # a connection of its own: an idle one is closed by the
                # server after its timeout).
                ar, aw = await asyncio.open_connection("127.0.0.1", port)
                s, js = await request(ar, aw, "POST", "/api/v1/games/%d/arbiter/resume" % gid,
                                      {}, arbiter=arbiter)
                aw.close()
                if s != 200:
                    st.errors.append("resume game %d: %s %s" % (gid, s, js))
                    return
            follow[0] = gid
            st.games_started += 1
            s, game = await request(*conns[0], "GET", "/api/v1/games/%d" % gid, token=wt)
            while time.time() < stop_at:
                state = game["state"]
                if state["over"]:
                    st.games_over += 1
                    break
                await asyncio.sleep(rng.expovariate(1.0 / think))
                move = pick_move(game, rng)
                if move is None:
                    break
                side = state["ply"] % 2
                t0 = time.perf_counter()
                s, js = await request(*conns[side], "POST", "/api/v1/games/%d/move" % gid,
                                      {"ply": state["ply"], "move": move}, tokens[side])
                ms = (time.perf_counter() - t0) * 1000
                if s != 200:
                    code = ((js or {}).get("error") or {}).get("code")
                    # A flag that fell while thinking ends the game: not an error.
                    s2, game = await request(*conns[0], "GET", "/api/v1/games/%d" % gid, token=wt)
                    if not game["state"]["over"]:
                        st.errors.append("game %d: %s %s" % (gid, s, code))
                        return
                    continue
                st.lat.append(ms)
                st.moves += 1
                game = js["game"]
            if time.time() >= stop_at:
                return
    except (OSError, asyncio.IncompleteReadError, ConnectionError, ValueError) as e:
        st.errors.append("game %d: %r" % (gid, e))
    finally:
        for _, w in conns:
            w.close()


async def viewer(port, follow, st, stop_at):
    """Watches a board: the live stream of the game it plays, then of its
    next game when that one starts."""
    gid = None
    try:
        while time.time() < stop_at:
            gid = follow[0]
            r, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(("GET /api/v1/games/%d/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Accept: text/event-stream\r\n\r\n" % gid).encode())
            await w.drain()
            line = await r.readline()
            if b" 200 " not in line:
                st.errors.append("stream of game %d: %r" % (gid, line))
                return
            st.streams_open += 1
            while time.time() < stop_at and follow[0] == gid:
                try:
                    chunk = await asyncio.wait_for(r.read(65536), timeout=1.0)
                except asyncio.TimeoutError:
                    continue
                if not chunk:
                    st.streams_broken += 1
                    break
                st.events += chunk.count(b"\ndata:") + chunk.startswith(b"data:")
            st.streams_open -= 1
            w.close()
            if follow[0] == gid:
                return
    except (OSError, asyncio.IncompleteReadError) as e:
        st.errors.append("viewer of game %s: %r" % (gid, e))


def more_rounds(arb, tid, games, n):
    """Rounds 2..N with round 1's boards (colours alternating), each checked
    in, started and paused at once: a board's next game waits, clocks
    stopped, for the arbiter to resume it.  Returns per board the list of
    (gid, white token, black token) by round."""
    boards = [[g] for g in games]
    for r in range(2, n + 1):
        st, js, _ = arb.req("GET", "/api/v1/tournaments/%d/rounds/%d" % (tid, r - 1))
        assert st == 200, (st, js)
        prev = js["games"]
        body = {"pairings": [{"white_id": g["black_id"], "black_id": g["white_id"]} for g in prev]}
        st, js, _ = arb.req("POST", "/api/v1/tournaments/%d/rounds" % tid, body)
        assert st == 201, (st, js)
        for b, g in zip(boards, js["games"]):
            _, wt, bt = b[-1]
            b.append((g["id"], bt, wt))
        for b in boards:
            gid, wt, bt = b[-1]
            for tok in (wt, bt):
                st, js, _ = Conn(arb.port, bearer=tok).req("POST", "/api/v1/games/%d/checkin" % gid, {})
                assert st == 200, (st, js)
        for action in ("start", "pause"):
            st, js, _ = arb.req("POST", "/api/v1/tournaments/%d/rounds/%d/%s" % (tid, r, action), {})
            assert st == 200, (st, js)
    return boards


def proc_sample(pid):
    rss = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return rss, len(os.listdir("/proc/%d/fd" % pid))


def pct(v, p):
    if not v:
        return 0.0
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))]


async def loop_lag(st, stop_at):
    """How late this process's event loop wakes up: a move's latency as
    measured here includes it, so the figures can tell the load
    generator's delays from the server's."""
    while time.time() < stop_at:
        t0 = time.perf_counter()
        await asyncio.sleep(0.01)
        st.lag_ms = max(st.lag_ms, (time.perf_counter() - t0) * 1000 - 10)


async def run(a, d, boards, arbiter):
    st = Stats()
    rng = random.Random(a.seed)
    start = time.time()
    stop_at = start + a.duration
    tasks = []
    follow = [[rounds[0][0]] for rounds in boards]
    tasks.append(asyncio.create_task(loop_lag(st, stop_at)))
    # Viewers first (they join as the round starts), spread over the boards.
    for i in range(a.viewers):
        tasks.append(asyncio.create_task(viewer(d.port, follow[i % len(boards)], st, stop_at)))
        if i % 200 == 199:
            await asyncio.sleep(0.05)
    for b, rounds in enumerate(boards):
        tasks.append(asyncio.create_task(board(d.port, rounds, random.Random(rng.random()),
                                               st, stop_at, a.think, arbiter, follow[b])))
        await asyncio.sleep(0.002)
    samples = []
    last_moves, last_lat = 0, 0
    while time.time() < stop_at:
        await asyncio.sleep(min(a.sample, max(0.1, stop_at - time.time())))
        rss, fds = proc_sample(d.proc.pid)
        t = time.time() - start
        window = st.lat[last_lat:]
        samples.append((t, rss, fds, st.moves))
        print("soak: t=%4.0fs rss=%6.1f MB fds=%5d streams=%5d moves=%7d (%5.0f/s) p99=%6.1f ms "
              "events=%8d errors=%d generator-lag-max=%.0f ms"
              % (t, rss / 1024, fds, st.streams_open, st.moves,
                 (st.moves - last_moves) / a.sample, pct(window, 0.99),
                 st.events, len(st.errors), st.lag_ms), flush=True)
        st.lag_ms = 0.0
        last_moves, last_lat = st.moves, len(st.lat)
    await asyncio.gather(*tasks, return_exceptions=True)
    return st, samples


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("ARBITER_BIN"))
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--viewers", type=int, default=5000)
    ap.add_argument("--duration", type=float, default=600)
    ap.add_argument("--think", type=float, default=4.0, help="mean seconds per move")
    ap.add_argument("--rounds", type=int, default=8, help="rounds paired up front")
    ap.add_argument("--time-control", default="1800+10")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sample", type=float, default=10)
    ap.add_argument("--warmup", type=float, default=60)
    ap.add_argument("--p99-ms", type=float, default=250)
    ap.add_argument("--rss-growth", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not a.bin:
        sys.exit("soak: --bin or ARBITER_BIN is needed")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * a.boards + a.viewers + 256
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < need:
        sys.exit("soak: %d descriptors needed, the hard limit is %d" % (need, hard))
    tmp = tempfile.mkdtemp(prefix="arbiter-soak-")
    d = Daemon(a.bin, tmp, ["--threads", str(a.threads)])
    d.start()
    t0 = time.time()
    arb = login(d.port, d.password)
    tid, games = make_event(arb, a.boards, a.time_control)
    boards = more_rounds(arb, tid, games, a.rounds)
    print("soak: %d boards, %d tablets, %d viewers, %d rounds; set-up took %.0f s" %
          (a.boards, 2 * a.boards, a.viewers, a.rounds, time.time() - t0), flush=True)
    gc.freeze()  # the set-up's objects need no more collecting
    st, samples = asyncio.run(run(a, d, boards, (arb.cookie, arb.csrf)))
    d.kill(15)
    warm = [s for s in samples if s[0] >= a.warmup] or samples
    rss0, rss1 = warm[0][1], warm[-1][1]
    rss_max = max(s[1] for s in samples)
    growth = (rss1 - rss0) / rss0 * 100 if rss0 else 0
    p50, p99, mx = pct(st.lat, 0.5), pct(st.lat, 0.99), max(st.lat) if st.lat else 0
    print("soak: %.0f s, %d boards (%d tablets), %d viewers; %d moves (%.0f/s), %d games over; "
          "%d games started; move latency p50 %.1f ms, p99 %.1f ms, max %.1f ms; "
          "%d stream events delivered, "
          "%d streams broken; RSS %.1f MB after warm-up -> %.1f MB at the end (%+.1f%%), "
          "max %.1f MB; max fds %d; %d errors"
          % (a.duration, a.boards, 2 * a.boards, a.viewers, st.moves, st.moves / a.duration,
             st.games_over, st.games_started, p50, p99, mx, st.events, st.streams_broken, rss0 / 1024, rss1 / 1024,
             growth, rss_max / 1024, max(s[2] for s in samples), len(st.errors)))
    for e in st.errors[:20]:
        print("ERROR:", e)
    ok = (not st.errors and st.streams_broken == 0 and p99 <= a.p99_ms and
          rss1 - rss0 <= rss0 * a.rss_growth / 100 + 8 * 1024)
    print("soak:", "PASS" if ok else "FAIL")
    if ok:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print("soak: directory kept:", tmp)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
