"""arbclient.py — a small HTTP client of the Arbiter API for the reliability
tests (standard library only): the daemon as a child process,
keep-alive connections, sign-in, tournaments, rounds, moves.
"""
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Daemon:
    """`arbiter serve` on 127.0.0.1:PORT with its database in DIR."""

    def __init__(self, binary, directory, extra=()):
        self.binary, self.dir, self.extra = binary, directory, list(extra)
        self.db = os.path.join(directory, "arbiter.db")
        self.port = free_port()
        self.proc = None
        self.password = None

    def start(self, timeout=20.0):
        out = open(os.path.join(self.dir, "stdout.txt"), "ab")
        err = open(os.path.join(self.dir, "stderr.txt"), "ab")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--listen", "127.0.0.1:%d" % self.port, "--db", self.db,
             "--quiet", "--rate-limit", "0"] + self.extra, stdout=out, stderr=err)
        out.close()
        err.close()
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the daemon exited with %s" % self.proc.returncode)
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/api/v1/health")
                if c.getresponse().status == 200:
                    c.close()
                    break
            except OSError:
                time.sleep(0.02)
        else:
            raise RuntimeError("the daemon did not answer within %.0f s" % timeout)
        if self.password is None:
            with open(os.path.join(self.dir, "stdout.txt")) as f:
                m = re.search(r"password is in (\S+)", f.read())
            self.password = None
            if m:
                with open(m.group(1)) as pf:
                    self.password = pf.read().strip()

    def kill(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        return self.proc.wait()

    def rss_kb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


class Conn:
    """One keep-alive connection with an identity (bearer token or cookie)."""

    def __init__(self, port, bearer=None, cookie=None, csrf=None, timeout=10):
        self.port, self.bearer, self.cookie, self.csrf = port, bearer, cookie, csrf
        self.timeout = timeout
        self.c = None

    def close(self):
        if self.c:
            self.c.close()
            self.c = None

    def req(self, method, path, body=None):
        """(status, parsed JSON or None, headers); raises OSError when the
        connection fails (then nothing is known of the request's fate)."""
        if self.c is None:
            self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        h = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        if self.bearer:
            h["Authorization"] = "Bearer " + self.bearer
        if self.cookie:
            h["Cookie"] = self.cookie
            if self.csrf:
                h["X-CSRF-Token"] = self.csrf
        try:
            self.c.request(method, path, body=data, headers=h)
            r = self.c.getresponse()
            raw = r.read()
        except (OSError, http.client.HTTPException) as e:
            self.close()
            raise OSError(str(e))
        try:
            js = json.loads(raw) if raw else None
        except ValueError:
            js = None
        return r.status, js, r.getheaders()


def login(port, password):
    c = Conn(port)
    st, js, hdrs = c.req("POST", "/api/v1/auth/login", {"username": "arbiter", "password": password})
    if st != 200:
        raise RuntimeError("login: %s %s" % (st, js))
    cookie = [v for k, v in hdrs if k.lower() == "set-cookie"][0].split(";")[0]
    c.cookie, c.csrf = cookie, js["csrf_token"]
    return c


def make_event(arb, boards, time_control="5400+30"):
    """A tournament with 2*BOARDS players and round 1 paired board by board
    and started; returns (tid, [(gid, white_token, black_token)])."""
    st, js, _ = arb.req("POST", "/api/v1/tournaments", {"name": "Load", "time_control": time_control})
    assert st == 201, (st, js)
    tid = js["id"]
    players = []
    for i in range(2 * boards):
        st, js, _ = arb.req("POST", "/api/v1/tournaments/%d/players" % tid,
                            {"name": "Player %d" % (i + 1), "rating": 2400 - i % 1000})
        assert st == 201, (st, js)
        players.append((js["credentials"]["player_id"], js["credentials"]["token"]))
    pairings = [{"white_id": players[i][0], "black_id": players[boards + i][0]}
                for i in range(boards)]
    st, js, _ = arb.req("POST", "/api/v1/tournaments/%d/rounds" % tid,
                        {"pairings": pairings, "publish": True})
    assert st == 201, (st, js)
    games = []
    for i, g in enumerate(js["games"]):
        games.append((g["id"], players[i][1], players[boards + i][1]))
    for gid, wt, bt in games:
        for tok in (wt, bt):
            st, js, _ = Conn(arb.port, bearer=tok).req("POST", "/api/v1/games/%d/checkin" % gid, {})
            assert st == 200, (st, js)
    st, js, _ = arb.req("POST", "/api/v1/tournaments/%d/rounds/1/start" % tid)
    assert st == 200, (st, js)
    return tid, games


def pick_move(game, rng):
    """A random legal move (UCI) from a game's JSON ("legal" and "fen"), or
    None when there is none."""
    legal = game.get("legal") or {}
    froms = sorted(legal)
    if not froms:
        return None
    f = rng.choice(froms)
    t = rng.choice(sorted(legal[f]))
    uci = f + t
    # A pawn reaching the last rank promotes (to a queen).
    rows = game["fen"].split()[0].split("/")
    rank, file = int(f[1]), ord(f[0]) - 97
    row = rows[8 - rank]
    col = 0
    piece = None
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                piece = ch
            col += 1
    if piece in ("P", "p") and t[1] in "18":
        uci += "q"
    return uci
