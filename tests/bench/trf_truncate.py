#!/usr/bin/env python3
"""Cut a TRF file after round R: keep rounds 1..R, recompute the points column
(standard 1 / 0.5 / 0 scoring, PAB and full-point bye 1, half-point bye 0.5)
and add an XXR line with the total number of rounds, so that the file asks
for round R+1 to be paired.

usage: trf_truncate.py IN.trf R TOTAL_ROUNDS > OUT.trf
"""
import sys

PTS = {'1': 10, '+': 10, 'W': 10, 'U': 10, 'F': 10, '=': 5, 'D': 5, 'H': 5}

def main():
    src, keep, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    text = open(src, 'rb').read().decode('utf-8', 'replace')
    lines = text.replace('\r\n', '\r').replace('\n', '\r').split('\r')
    out = []
    for line in lines:
        if line.startswith('XXR') or line.startswith('142'):
            continue
        if line.startswith('001'):
            games = line[91:91 + 10 * keep]
            pts = 0
            for k in range(keep):
                g = games[10 * k:10 * k + 8]
                if len(g) >= 8:
                    pts += PTS.get(g[7], 0)
            line = (line[:80] + '%4s' % ('%d.%d' % (pts // 10, pts % 10)) +
                    line[84:91] + games).rstrip()
        out.append(line)
    out.insert(1, 'XXR %d' % total)
    sys.stdout.write('\r'.join(out))

main()
