#!/usr/bin/env python3
# nchan-relay.py — feeds nginx's Nchan module with Arbiter's public events, so
# that nginx, not the daemon, serves the spectators' live streams: one
# connection to the daemon per tournament, however many viewers.
#
# For every tournament the daemon lists it follows the public tournament stream
# (/api/v1/tournaments/ID/stream, anonymously: under a broadcast delay the
# daemon already holds each event back by the delay) and publishes each event
# once to the Nchan publisher: a game's event to channels games-GID and
# tournaments-TID, a round's to tournaments-TID, with its SSE event name
# (X-EventSource-Event).  A dropped stream is resumed with Last-Event-ID.
# Viewers subscribe through deploy/nginx/arbiter-fanout.conf.
#
# The daemon does the same itself with `arbiter serve --nchan-publish URL`
# (deploy/README.md); the relay is the fallback for a daemon started
# without it, and feeds a second nginx machine that has no shared Redis.
#
#   nchan-relay.py [--api http://127.0.0.1:8080] [--pub http://127.0.0.1:8090/pub]
#                  [--poll SECONDS]
#
# Licence: AGPL-3.0-or-later, as the rest of Arbiter.
import argparse
import http.client
import json
import sys
import threading
import time
import urllib.parse


class Publisher:
    """Keeps one keep-alive connection to the publisher per relay thread."""

    def __init__(self, pub):
        self.pub = pub
        u = urllib.parse.urlsplit(pub)
        self.host, self.port, self.base = u.hostname, u.port or 80, u.path
        self.conn = None

    def send(self, channel, event, data):
        for _ in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
                self.conn.request('POST', f'{self.base}/{channel}', body=data.encode(),
                                  headers={'Content-Type': 'application/json',
                                           'X-EventSource-Event': event})
                r = self.conn.getresponse()
                r.read()
                return r.status in (200, 201, 202)
            except (OSError, http.client.HTTPException):
                self.conn = None
        return False


def follow(api, pub, tid, stop):
    """Relays tournament TID's public stream until STOP is set."""
    u = urllib.parse.urlsplit(api)
    out = Publisher(pub)
    last = None
    while not stop.is_set():
        try:
            c = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=60)
            headers = {'Accept': 'text/event-stream'}
            if last:
                headers['Last-Event-ID'] = last
            c.request('GET', f'/api/v1/tournaments/{tid}/stream', headers=headers)
            r = c.getresponse()
            if r.status != 200:
                c.close()
                time.sleep(5)
                continue
            event, data, ident = 'message', [], None
            while not stop.is_set():
                line = r.readline()
                if not line:
                    break
                line = line.decode('utf-8', 'replace').rstrip('\r\n')
                if line == '':
                    if data:
                        body = '\n'.join(data)
                        if event == 'game':
                            gid = json.loads(body).get('game_id')
                            if gid:
                                out.send(f'games-{gid}', event, body)
                        out.send(f'tournaments-{tid}', event, body)
                        if ident:
                            last = ident
                    event, data, ident = 'message', [], None
                elif line.startswith(':'):
                    continue
                elif line.startswith('event:'):
                    event = line[6:].strip()
                elif line.startswith('data:'):
                    data.append(line[5:].lstrip(' '))
                elif line.startswith('id:'):
                    ident = line[3:].strip()
            c.close()
        except (OSError, http.client.HTTPException, ValueError):
            time.sleep(1)


def tournaments(api):
    u = urllib.parse.urlsplit(api)
    c = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=10)
    try:
        c.request('GET', '/api/v1/tournaments')
        r = c.getresponse()
        return [t['id'] for t in json.loads(r.read()) if t.get('status') != 'finished']
    finally:
        c.close()


def main():
    ap = argparse.ArgumentParser(description='relays Arbiter public events to Nchan')
    ap.add_argument('--api', default='http://127.0.0.1:8080')
    ap.add_argument('--pub', default='http://127.0.0.1:8090/pub')
    ap.add_argument('--poll', type=float, default=10.0, help='seconds between tournament lists')
    a = ap.parse_args()
    running = {}
    while True:
        try:
            for tid in tournaments(a.api):
                if tid not in running:
                    stop = threading.Event()
                    th = threading.Thread(target=follow, args=(a.api, a.pub, tid, stop),
                                          daemon=True)
                    th.start()
                    running[tid] = stop
        except (OSError, http.client.HTTPException, ValueError) as e:
            print(f'nchan-relay: {e}', file=sys.stderr, flush=True)
        time.sleep(a.poll)


if __name__ == '__main__':
    main()
