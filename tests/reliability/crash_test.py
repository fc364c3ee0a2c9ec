#!/usr/bin/env python3
"""crash_test.py — kills `arbiter serve` with SIGKILL at random moments
while simulated tablets play real games over keep-alive HTTP, restarts it on
the same database and checks, after every restart, against the tablets' log
of acknowledged moves:

  * no acknowledged move is lost: each game's scoresheet starts with exactly
    the moves the tablets saw acknowledged, in order (plus at most the one
    move in flight at the kill, which may or may not have been recorded);
  * PRAGMA integrity_check of the database says ok;
  * every running game came back paused, and the clock of the side on move
    shows what it showed at the kill, within the heartbeat interval (the
    downtime is not charged);
  * the other side's clock did not move.

Then the arbiter resumes the games and play goes on.  Standard library only.
usage: crash_test.py --bin ARBITER [--kills N] [--boards N] [--seed N]
Exit status 0 when every check passed; the figures are printed at the end.
"""
import argparse
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arbclient import Conn, Daemon, login, make_event, pick_move  # noqa: E402

HEARTBEAT_MS = 250  # db/writer.h
SLACK_MS = 60       # kill delivery, scheduling


class Board(threading.Thread):
    """Two tablets (one keep-alive connection each) playing one game."""

    def __init__(self, port, gid, wt, bt, seed, ctl):
        super().__init__(daemon=True)
        self.gid, self.ctl = gid, ctl
        self.tablets = [Conn(port, bearer=wt, timeout=5), Conn(port, bearer=bt, timeout=5)]
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.acked = []          # UCI of every acknowledged move, in order
        self.last_clock = None   # the clock JSON of the last acknowledged move
        self.inflight = None     # a move sent whose answer never came
        self.over = False
        self.parked = threading.Event()
        self.errors = []

    def resync(self):
        st, js, _ = self.tablets[0].req("GET", "/api/v1/games/%d" % self.gid)
        if st != 200:
            raise OSError("GET game: %s" % st)
        return js

    def run(self):
        game = None
        while not self.ctl.stop:
            if self.ctl.down.is_set() or game is None:
                self.parked.set()
                self.ctl.up.wait()
                self.parked.clear()
                if self.ctl.stop:
                    break
                try:
                    game = self.resync()
                except OSError:
                    game = None
                    time.sleep(0.05)
                    continue
                with self.lock:
                    # The clock reference must come from a move acknowledged
                    # after this restart: the pause in between is not charged.
                    self.last_clock = None
                    uci = game["state"]["uci"]
                    if self.inflight and len(uci) == len(self.acked) + 1 and uci[-1] == self.inflight:
                        self.acked.append(self.inflight)  # known now: it was recorded
                    self.inflight = None
            state = game["state"]
            if state["over"]:
                self.over = True
                self.parked.set()
                return
            if state["clock"]["paused"]:
                self.ctl.up.wait(0.05)
                game = None
                continue
            ply = state["ply"]
            move = pick_move(game, self.rng)
            if move is None:
                game = None
                continue
            time.sleep(self.rng.random() * 0.01)  # a human would take longer
            with self.lock:
                self.inflight = move
            try:
                st, js, _ = self.tablets[ply % 2].req("POST", "/api/v1/games/%d/move" % self.gid,
                                                     {"ply": ply, "move": move})
            except OSError:
                game = None  # the server went away; the fate of MOVE is unknown
                continue
            with self.lock:
                self.inflight = None
                if st == 200:
                    self.acked.append(move)
                    self.last_clock = js["game"]["state"]["clock"]
                    self.ctl.count()
                    game = js["game"]
                else:
                    code = (js or {}).get("error", {}).get("code")
                    if code not in ("state", "conflict", "stale", "paused"):
                        self.errors.append("game %d ply %d %s: %s %s" % (self.gid, ply, move, st, js))
                    game = None


class Control:
    def __init__(self):
        self.stop = False
        self.up = threading.Event()
        self.down = threading.Event()
        self.acks = 0
        self.mu = threading.Lock()

    def count(self):
        with self.mu:
            self.acks += 1


def integrity(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=10)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("ARBITER_BIN"))
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--boards", type=int, default=6)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--keep", action="store_true", help="keep the directory")
    a = ap.parse_args()
    if not a.bin:
        sys.exit("crash_test: --bin or ARBITER_BIN is needed")
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="arbiter-crash-")
    d = Daemon(a.bin, tmp)
    d.start()
    ctl = Control()
    arb = login(d.port, d.password)
    boards = []

    def new_boards():
        _, games = make_event(arb, a.boards)
        for gid, wt, bt in games:
            b = Board(d.port, gid, wt, bt, rng.randrange(1 << 30), ctl)
            boards.append(b)
            b.start()

    ctl.up.set()
    new_boards()
    failures = []
    checked_clocks = inflight_total = lost_total = 0
    deviations = []  # remaining after the restart minus remaining at the kill, ms
    t0 = time.time()
    for k in range(a.kills):
        time.sleep(0.3 + rng.random() * 1.2)
        ctl.up.clear()
        ctl.down.set()
        kill_ms = time.time() * 1000
        d.kill()
        # Every tablet stops once its connection fails (or it is between
        # moves); then the logs are final for this crash.
        for b in boards:
            if not b.over:
                b.parked.wait(10)
        snapshot = {}
        for b in boards:
            with b.lock:
                snapshot[b.gid] = (list(b.acked), b.inflight, b.last_clock)
        downtime = 0.4 + rng.random() * 0.6
        time.sleep(downtime)
        d.start()
        arb.close()  # its keep-alive connection died with the server
        res = integrity(d.db)
        if res != "ok":
            failures.append("kill %d: integrity_check: %s" % (k + 1, res))
        for b in boards:
            acked, inflight, clock = snapshot[b.gid]
            st, js, _ = arb.req("GET", "/api/v1/games/%d" % b.gid)
            if st != 200:
                failures.append("kill %d: game %d: GET %s" % (k + 1, b.gid, st))
                continue
            state = js["state"]
            uci = state["uci"]
            if uci[:len(acked)] != acked:
                same = 0
                while same < min(len(uci), len(acked)) and uci[same] == acked[same]:
                    same += 1
                lost = len(acked) - same
                lost_total += lost
                failures.append("kill %d: game %d: acknowledged moves lost or changed "
                                "(%d acknowledged, %d recorded, lost %s)"
                                % (k + 1, b.gid, len(acked), len(uci), lost))
                clock = None
                continue
            extra = len(uci) - len(acked)
            if extra > 1 or (extra == 1 and uci[-1] != inflight):
                failures.append("kill %d: game %d: %d moves recorded that nobody sent"
                                % (k + 1, b.gid, extra))
            if extra == 1:
                inflight_total += 1
            if state["over"] or not clock or extra:
                continue
            c = state["clock"]
            if not c["paused"]:
                failures.append("kill %d: game %d: running after the restart" % (k + 1, b.gid))
                continue
            side = clock["running"]
            other = "black" if side == "white" else "white"
            expect = clock["deadline_ms"] - kill_ms
            got = c[side + "_ms"]
            deviations.append(got - expect)
            if not (-SLACK_MS <= got - expect <= HEARTBEAT_MS + SLACK_MS):
                failures.append("kill %d: game %d: %s had %.0f ms at the kill, %d after the "
                                "restart (downtime %.0f ms)" % (k + 1, b.gid, side, expect, got,
                                                                downtime * 1000))
            if c[other + "_ms"] != clock[other + "_ms"]:
                failures.append("kill %d: game %d: %s's clock moved: %d -> %d"
                                % (k + 1, b.gid, other, clock[other + "_ms"], c[other + "_ms"]))
            checked_clocks += 1
        for b in boards:
            if not b.over:
                st, js, _ = arb.req("POST", "/api/v1/games/%d/arbiter/resume" % b.gid, {})
                code = (js or {}).get("error", {}).get("code")
                if st == 409 and code == "game_over":
                    # A move in flight at the kill was recorded and ended
                    # the game (mate, dead position): nothing to resume.
                    b.over = True
                    continue
                if st != 200 and code not in ("state",):
                    failures.append("kill %d: resume game %d: %s %s" % (k + 1, b.gid, st, js))
        if sum(1 for b in boards if not b.over) < a.boards // 2:
            new_boards()
        ctl.down.clear()
        ctl.up.set()
        if failures:
            break
    ctl.stop = True
    ctl.up.set()
    for b in boards:
        b.join(10)
        failures.extend(b.errors)
    d.kill(15)
    elapsed = time.time() - t0
    print("crash_test: seed %d, %d kills in %.0f s, %d boards played, %d moves acknowledged, "
          "lost %d of them%s; %d clocks checked after restarts (side on move within -%d/+%d ms "
          "of its time at the kill; seen %+.0f..%+.0f ms); %d moves in flight at a kill were recorded; "
          "integrity_check ok after every restart"
          % (a.seed, k + 1, elapsed, len(boards), ctl.acks, lost_total,
             "" if not failures else " (FAILED, see below)", checked_clocks, SLACK_MS,
             HEARTBEAT_MS + SLACK_MS, min(deviations or [0]), max(deviations or [0]),
             inflight_total))
    for f in failures[:30]:
        print("FAIL:", f)
    if failures or a.keep:
        print("crash_test: directory kept:", tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
