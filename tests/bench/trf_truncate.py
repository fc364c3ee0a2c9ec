#!/usr/bin/env python3
"""Cut a TRF file after round R: keep rounds 1..R, recompute the points column
(standard 1 / 0.5 / 0 scoring, PAB and full-point bye 1, half-point bye 0.5)
and add an XXR line with the total number of rounds, so that the file asks
for round R+1 to be paired.

usage: trf_truncate.py IN.trf R TOTAL_ROUNDS [--absences] [--system NAME]
                       [--initial-colour] > OUT.trf

  --absences        keep the entries of round R+1 that are not pairings
                    (0000 - H / F / Z / -): the players absent from it
  --system NAME     replace the 092 / 192 line by "192 NAME"
  --initial-colour  add an XXC line when the file has none, read back from
                    round 1 the way bbpPairings infers it
"""
import sys

PTS = {'1': 10, '+': 10, 'W': 10, 'U': 10, 'F': 10, '=': 5, 'D': 5, 'H': 5}


def entry(line, k):
    """The 8 characters of round k (0-based) of a 001 line, or ''."""
    return line[91 + 10 * k:91 + 10 * k + 8]


def initial_colour(players):
    """Round-1 colour of the first player in a pairing, alternating down."""
    skipped = 0
    for _, line in sorted(players):
        g = entry(line, 0)
        if len(g) < 8:
            continue
        paired = g[:4].strip() not in ('', '0000') or g[7] in 'U+'
        if not paired:
            continue
        if g[5] in 'wb':
            col = g[5]
            if skipped % 2:
                col = 'b' if col == 'w' else 'w'
            return 'white1' if col == 'w' else 'black1'
        skipped += 1
    return None


def main():
    args = sys.argv[1:]
    absences = '--absences' in args
    colour = '--initial-colour' in args
    system = None
    if '--system' in args:
        system = args[args.index('--system') + 1]
        args.remove(system)
    args = [a for a in args if not a.startswith('--')]
    src, keep, total = args[0], int(args[1]), int(args[2])
    text = open(src, 'rb').read().decode('utf-8', 'replace')
    lines = text.replace('\r\n', '\r').replace('\n', '\r').split('\r')
    players = [(int(l[4:8]), l) for l in lines if l.startswith('001')]
    has_xxc = any(l.startswith('XXC') or l.startswith('152') for l in lines)
    out = []
    for line in lines:
        if line.startswith('XXR') or line.startswith('142'):
            continue
        if system and (line.startswith('092') or line.startswith('192')):
            continue
        if line.startswith('001'):
            games = line[91:91 + 10 * keep]
            pts = 0
            for k in range(keep):
                g = games[10 * k:10 * k + 8]
                if len(g) >= 8:
                    pts += PTS.get(g[7], 0)
            nxt = entry(line, keep)
            if absences and len(nxt) == 8 and nxt[:4].strip() in ('', '0000') \
                    and nxt[7] in 'HFZ-':
                games = games.ljust(10 * keep) + nxt
            line = (line[:80] + '%4s' % ('%d.%d' % (pts // 10, pts % 10)) +
                    line[84:91] + games).rstrip()
        out.append(line)
    out.insert(1, 'XXR %d' % total)
    if system:
        out.insert(1, '192 %s' % system)
    if colour and not has_xxc:
        c = initial_colour(players)
        if c:
            out.insert(1, 'XXC %s' % c)
    sys.stdout.write('\r'.join(out))


main()
