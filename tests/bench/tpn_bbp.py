#!/usr/bin/env python3
"""tpn_bbp.py — Swiss tournaments played through the daemon's API with
titles, equal ratings, unrated players and requested half- and zero-point
byes, exported as TRF and re-paired round by round by bbpPairings' checker
(`--dutch FILE -c`): how many rounds agree.

With --renumber, ratings are corrected and late entries arrive between
rounds; C.04.2 lets that renumber players until round 4 is paired, so only
the rounds from 4 on are expected to agree (the earlier ones were paired
with other numbers than the final file has).

usage: BBPPAIRINGS=/path/to/bbpPairings.exe tests/bench/tpn_bbp.py \\
           [--arbiter build/server/arbiter] [--seeds 1-3] [--renumber]
Prints one line per tournament and exits 0 when every expected round
agrees, 1 otherwise (keeping the files), 77 (skip) without bbpPairings.
"""
import argparse
import http.cookiejar
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

TITLES = ['GM', 'IM', 'WGM', 'FM', 'WIM', 'CM', 'WFM', 'WCM', '', '', '', '']


class Api:
    def __init__(self, port):
        self.base = f'http://127.0.0.1:{port}/api/v1'
        self.op = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = None

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        for _ in range(50):
            rq = urllib.request.Request(self.base + path, data=data, method=method)
            if data:
                rq.add_header('Content-Type', 'application/json')
            if self.csrf:
                rq.add_header('X-CSRF-Token', self.csrf)
            try:
                with self.op.open(rq) as r:
                    raw = r.read()
                    return json.loads(raw) if raw[:1] in (b'{', b'[') else raw
            except urllib.error.HTTPError as e:
                if e.code != 429:  # the daemon's rate limit: wait and retry
                    raise RuntimeError(f'{method} {path}: {e.code} {e.read().decode()}')
                time.sleep(0.5)
        raise RuntimeError(f'{method} {path}: rate limited')


def play(api, seed, renumber, rounds=7):
    rnd = random.Random(seed)
    tid = api.call('POST', '/tournaments', {'name': f'TPN {seed}', 'time_control': '60',
                                            'rounds': rounds, 'bye_limit': 2})['id']
    pids = []

    def add():
        body = {'name': 'N%03d, X' % rnd.randint(0, 999), 'title': rnd.choice(TITLES),
                'rating': rnd.choice([0, 1800, 2000, 2000, 2200, 2200, 2400])}
        pids.append(api.call('POST', f'/tournaments/{tid}/players', body)['player']['id'])

    for _ in range(14):
        add()
    for rn in range(1, rounds + 1):
        if renumber and rn in (2, 5):
            add()
            add()
        for _ in range(2 if renumber else 0):
            api.call('PATCH', f'/tournaments/{tid}/players/{rnd.choice(pids)}',
                     {'rating': rnd.choice([1900, 2100, 2300])})
        for _ in range(2):
            try:
                api.call('POST', f'/tournaments/{tid}/players/{rnd.choice(pids)}/byes',
                         {'round': rn, 'kind': rnd.choice(['half', 'zero'])})
            except RuntimeError:
                pass  # over the limit or a second request: refused, as it should be
        games = api.call('POST', f'/tournaments/{tid}/rounds', {})['games']
        api.call('POST', f'/tournaments/{tid}/rounds/{rn}/start', {})
        for g in games:
            w = rnd.choice([(1, 0), (0, 1), (0.5, 0.5)])
            api.call('POST', f'/games/{g["id"]}/arbiter/result', {'white': w[0], 'black': w[1]})
    return api.call('GET', f'/tournaments/{tid}/trf')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arbiter', default='build/server/arbiter')
    ap.add_argument('--seeds', default='1-3')
    ap.add_argument('--renumber', action='store_true')
    args = ap.parse_args()
    bbp = os.environ.get('BBPPAIRINGS', '')
    if not bbp or not os.access(bbp, os.X_OK):
        print('tpn_bbp: set BBPPAIRINGS to a bbpPairings binary to run this check')
        return 77
    first, _, last = args.seeds.partition('-')
    seeds = range(int(first), int(last or first) + 1)
    work = tempfile.mkdtemp(prefix='tpn-bbp-')
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    log = open(os.path.join(work, 'serve.log'), 'w+')
    daemon = subprocess.Popen([args.arbiter, 'serve', '--listen', f'127.0.0.1:{port}', '--db',
                               os.path.join(work, 't.db'), '--threads', '2'],
                              stdout=log, stderr=subprocess.STDOUT)
    status = 0
    try:
        password = None
        for _ in range(100):
            time.sleep(0.1)
            log.seek(0)
            m = re.search(r'password is in (\S+)', log.read())
            if m:
                with open(m.group(1)) as f:
                    password = f.read().strip()
                break
        api = Api(port)
        api.csrf = api.call('POST', '/auth/login',
                            {'username': 'arbiter', 'password': password})['csrf_token']
        for seed in seeds:
            path = os.path.join(work, f'seed{seed}.trf')
            with open(path, 'wb') as f:
                f.write(play(api, seed, args.renumber))
            out = subprocess.run([bbp, '--dutch', path, '-c'], capture_output=True, text=True)
            text = out.stdout.replace('\r', '\n')
            checked = re.findall(r'Round #(\d+)', text)
            differ = [int(r) for r in re.findall(r'Round #(\d+)\n\s*Checker pairings', text)]
            bad = [r for r in differ if r >= 4] if args.renumber else differ
            print(f'seed {seed}: {len(checked)} rounds checked, differing {differ or "none"}'
                  f'{" (before the freeze)" if differ and not bad else ""}')
            if out.returncode != 0 or bad:
                status = 1
    finally:
        daemon.terminate()
        daemon.wait()
    if status == 0:
        shutil.rmtree(work)
    else:
        print(f'tpn_bbp: the files are in {work}')
    return status


if __name__ == '__main__':
    sys.exit(main())
