// Arbiter web: round-robin pairings by the Berger tables (FIDE C.05 Annex 1),
// from their closed form.  With N players (a dummy added when odd), in round r
// player N meets the i with 2i = r + 1 (mod N-1), on board 1, White in even
// rounds; board k >= 2 pairs p+(k-1) with p-(k-1) (mod N-1, in 1..N-1), where
// p is N's opponent; between i < j < N White goes to i when j - i is odd, to j
// when even.  Whoever meets the dummy has the round free.

const mod = (x, m) => ((x % m) + m) % m;

// n real players (numbers 1..n), round r (1-based, at most N-1) ->
// [{board, white, black}] by pairing number; byes are left out.
export function bergerRound(n, r) {
  const N = n % 2 ? n + 1 : n;
  const M = N - 1;
  const wrap = (x) => mod(x - 1, M) + 1;
  let p = 1;
  while (mod(2 * p, M) !== mod(r + 1, M)) p++;
  const games = [r % 2 === 0 ? [N, p] : [p, N]];
  for (let k = 2; k <= N / 2; k++) {
    const a = wrap(p + (k - 1));
    const b = wrap(p - (k - 1));
    const [i, j] = a < b ? [a, b] : [b, a];
    games.push((j - i) % 2 ? [i, j] : [j, i]);
  }
  const out = [];
  for (const [white, black] of games) {
    if (white > n || black > n) continue;
    out.push({ board: out.length + 1, white, black });
  }
  return out;
}

// Players by pairing number: the server's tpn (C.04.2 initial order, frozen
// once a round robin's first round is paired).  Everyone registered keeps a
// number, withdrawn or not, as in the server's own Berger table.
export function pairingOrder(players) {
  const key = (p) => (Number.isInteger(p.tpn) ? p.tpn : Number.MAX_SAFE_INTEGER);
  return [...players].sort((a, b) => key(a) - key(b) || a.id - b.id);
}
