/*
 * matching.c — maximum weight general matching (Edmonds, primal-dual).
 *
 * The classic O(n^3) formulation: stages grow alternating trees from every
 * free vertex over tight edges, shrink odd cycles into blossoms, and change
 * the duals by the largest step that keeps them feasible. Weights are
 * doubled implicitly (slack = y_u + y_v - 2 w_uv) so every dual stays an
 * exact integer; all quantities are non-negative, so plain unsigned limbs
 * suffice.
 *
 * Edges are implicit (the graph is dense): an edge is the vertex pair (u,v)
 * and a blossom's cycle edge i joins child i (end a) to child i+1 (end b).
 * A label's "end" is likewise a pair: the remote vertex through which the
 * label came, and the local vertex that received it.
 *
 * The search visits neighbours in vertex order and breaks every tie on the
 * first candidate found, so a solve is deterministic.
 */
#include "matching.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LIMBS = 64 };

struct MatchingGraph {
    int n, limbs;
    uint64_t *w; /* lower triangle: pair (u>v) at (u*(u-1)/2 + v) * limbs */
    /* the last optimum, kept for a warm start of the next solve */
    int warm;
    uint64_t *dual;       /* n * limbs, blossom duals melted in */
    int *pmate;           /* n */
    unsigned char *dirty; /* vertex touched by a weight change since */
    uint32_t *allow;      /* n * n stage stamps of tight edges */
    uint32_t stamp;
};

/* ---- wide unsigned arithmetic (little-endian limbs) ---- */

static int wcmp(const uint64_t *a, const uint64_t *b, int L)
{
    for (int i = L - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

typedef unsigned __int128 U128;
typedef __int128 S128;

static void wadd(uint64_t *r, const uint64_t *a, const uint64_t *b, int L)
{
    U128 c = 0;
    for (int i = 0; i < L; i++) {
        c += (U128)a[i] + b[i];
        r[i] = (uint64_t)c;
        c >>= 64;
    }
}

static void wsub(uint64_t *r, const uint64_t *a, const uint64_t *b, int L)
{
    S128 c = 0;
    for (int i = 0; i < L; i++) {
        c += (S128)a[i] - (S128)b[i];
        r[i] = (uint64_t)c;
        c >>= 64; /* arithmetic: 0 or -1 */
    }
}

static void wshr1(uint64_t *r, const uint64_t *a, int L)
{
    for (int i = 0; i < L; i++)
        r[i] = (a[i] >> 1) | (i + 1 < L ? a[i + 1] << 63 : 0);
}

static int wzero(const uint64_t *a, int L)
{
    /* from the top: wide weights are rarely zero and rarely small */
    for (int i = L - 1; i >= 0; i--)
        if (a[i])
            return 0;
    return 1;
}

/* ---- graph ---- */

static size_t pair_index(int u, int v)
{
    if (u < v) {
        int t = u;
        u = v;
        v = t;
    }
    return (size_t)u * (size_t)(u - 1) / 2 + (size_t)v;
}

MatchingGraph *matching_graph_new(int n, int limbs)
{
    if (n <= 0 || limbs <= 0 || limbs > MAX_LIMBS)
        return NULL;
    MatchingGraph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->n = n;
    g->limbs = limbs;
    size_t pairs = (size_t)n * (size_t)(n - 1) / 2;
    g->w = calloc(pairs ? pairs * (size_t)limbs : 1, sizeof *g->w);
    g->dual = calloc((size_t)n * (size_t)limbs, sizeof *g->dual);
    g->pmate = calloc((size_t)n, sizeof *g->pmate);
    g->dirty = calloc((size_t)n, 1);
    g->allow = calloc((size_t)n * (size_t)n, sizeof *g->allow);
    if (!g->w || !g->dual || !g->pmate || !g->dirty || !g->allow) {
        matching_graph_free(g);
        return NULL;
    }
    return g;
}

void matching_graph_free(MatchingGraph *g)
{
    if (!g)
        return;
    free(g->w);
    free(g->dual);
    free(g->pmate);
    free(g->dirty);
    free(g->allow);
    free(g);
}

int matching_graph_size(const MatchingGraph *g)
{
    return g->n;
}
int matching_graph_limbs(const MatchingGraph *g)
{
    return g->limbs;
}

void matching_graph_set(MatchingGraph *g, int u, int v, const uint64_t *w)
{
    uint64_t *p = g->w + pair_index(u, v) * (size_t)g->limbs;
    if (memcmp(p, w, (size_t)g->limbs * sizeof *w) == 0)
        return;
    memcpy(p, w, (size_t)g->limbs * sizeof *w);
    g->dirty[u] = g->dirty[v] = 1;
}

void matching_graph_set_u64(MatchingGraph *g, int u, int v, uint64_t w)
{
    uint64_t tmp[MAX_LIMBS] = {0};
    tmp[0] = w;
    matching_graph_set(g, u, v, tmp);
}

const uint64_t *matching_graph_get(const MatchingGraph *g, int u, int v)
{
    return g->w + pair_index(u, v) * (size_t)g->limbs;
}

/* ---- solver workspace ---- */

typedef struct {
    int a, b; /* edge endpoints; a == -1 means none */
} Edge;

typedef struct {
    const MatchingGraph *g;
    const int *map; /* solver vertex -> graph vertex */
    int n, L, oom;
    int *mate;      /* vertex -> partner vertex or -1 */
    int *label;     /* [2n]: 0 free, 1 S, 2 T, 5 scan mark */
    Edge *labelend; /* [2n]: a = remote vertex, b = local vertex */
    int *inblossom; /* [n] top-level blossom */
    int *parent;    /* [2n] */
    int *base;      /* [2n], -1 for an unused blossom id */
    int **childs;   /* [2n] */
    Edge **cedges;  /* [2n] cycle edges, edge i joins childs[i] (a) to childs[i+1] (b) */
    int *nchild;    /* [2n] */
    Edge **bbest;   /* [2n] least-slack edges to neighbouring S-blossoms */
    int *nbbest;    /* [2n], -1 when no list */
    Edge *bestedge; /* [2n] */
    int *unused;    /* stack of free blossom ids */
    int nunused;
    uint64_t *dual;  /* [2n * L] */
    uint32_t *allow; /* graph-wide stamps, indexed by graph vertices */
    uint32_t *stamp;
    int *queue, nqueue;
    int *stack;               /* [2n] leaf walk */
    int *bestto_a, *bestto_b; /* [2n] scratch for add_blossom */
    int *leafbuf;             /* [n] scratch leaf list */
    uint64_t *bslack;         /* [2n * L] cached slack of bestedge */
    uint64_t *btslack;        /* [2n * L] slack of bestto edges */
    int *bepoch;              /* [2n] epoch of that cache */
    int epoch;                /* bumped at every dual change */
} Ws;

static inline const uint64_t *WT(const Ws *s, int u, int v)
{
    size_t a = (size_t)s->map[u], b = (size_t)s->map[v];
    if (a < b) {
        size_t t = a;
        a = b;
        b = t;
    }
    return s->g->w + (a * (a - 1) / 2 + b) * (size_t)s->L;
}

static uint64_t *DUAL(Ws *s, int i)
{
    return s->dual + (size_t)i * (size_t)s->L;
}

/* slack of edge (u,v) into out: y_u + y_v - 2 w_uv */
static void slack(Ws *s, int u, int v, uint64_t *out)
{
    const uint64_t *w = WT(s, u, v), *a = DUAL(s, u), *b = DUAL(s, v);
    S128 c = 0;
    for (int i = 0; i < s->L; i++) {
        c += (S128)a[i] + (S128)b[i] - 2 * (S128)w[i];
        out[i] = (uint64_t)c;
        c >>= 64;
    }
}

/* slack of bestedge[b], cached until the duals next change */
static const uint64_t *best_slack(Ws *s, int b)
{
    uint64_t *c = s->bslack + (size_t)b * (size_t)s->L;
    if (s->bepoch[b] != s->epoch) {
        slack(s, s->bestedge[b].a, s->bestedge[b].b, c);
        s->bepoch[b] = s->epoch;
    }
    return c;
}

static void set_best(Ws *s, int b, int u, int v, const uint64_t *ks)
{
    s->bestedge[b].a = u;
    s->bestedge[b].b = v;
    memcpy(s->bslack + (size_t)b * (size_t)s->L, ks, (size_t)s->L * sizeof *ks);
    s->bepoch[b] = s->epoch;
}

/* Writes the vertices of blossom b into out, returns their count. */
static int leaves(Ws *s, int b, int *out)
{
    int cnt = 0, sp = 0;
    s->stack[sp++] = b;
    while (sp) {
        int t = s->stack[--sp];
        if (t < s->n)
            out[cnt++] = t;
        else
            for (int i = s->nchild[t] - 1; i >= 0; i--)
                s->stack[sp++] = s->childs[t][i];
    }
    return cnt;
}

static void assign_label(Ws *s, int w, int t, int remote)
{
    for (;;) {
        int b = s->inblossom[w];
        s->label[w] = s->label[b] = t;
        s->labelend[w].a = s->labelend[b].a = remote;
        s->labelend[w].b = s->labelend[b].b = remote >= 0 ? w : -1;
        s->bestedge[w].a = s->bestedge[b].a = -1;
        if (t == 1) {
            s->nqueue += leaves(s, b, s->queue + s->nqueue);
            return;
        }
        int bs = s->base[b];
        int m = s->mate[bs];
        w = m;
        t = 1;
        remote = bs;
    }
}

/* Trace back from v and w; returns the base of a new blossom or -1 when the
 * two paths reach different roots (an augmenting path). */
static int scan_blossom(Ws *s, int v, int w)
{
    int path_n = 0, base = -1;
    int *path = s->stack; /* leaves() is not used during the scan */
    while (v != -1 || w != -1) {
        if (v != -1) {
            int b = s->inblossom[v];
            if (s->label[b] & 4) {
                base = s->base[b];
                break;
            }
            path[path_n++] = b;
            s->label[b] = 5;
            if (s->labelend[b].a == -1)
                v = -1;
            else {
                v = s->labelend[b].a;
                b = s->inblossom[v];
                v = s->labelend[b].a;
            }
        }
        if (w != -1) {
            int t = v;
            v = w;
            w = t;
        }
    }
    for (int i = 0; i < path_n; i++)
        s->label[path[i]] = 1;
    return base;
}

static int slack_less(Ws *s, int u1, int v1, int u2, int v2)
{
    uint64_t x[MAX_LIMBS], y[MAX_LIMBS];
    slack(s, u1, v1, x);
    slack(s, u2, v2, y);
    return wcmp(x, y, s->L) < 0;
}

/* keeps in bestto_a/b[bj] the least-slack edge (i,j) seen towards blossom bj */
static void consider_best(Ws *s, int bj, int i, int j)
{
    uint64_t ks[MAX_LIMBS];
    uint64_t *cur = s->btslack + (size_t)bj * (size_t)s->L;
    slack(s, i, j, ks);
    if (s->bestto_a[bj] == -1 || wcmp(ks, cur, s->L) < 0) {
        s->bestto_a[bj] = i;
        s->bestto_b[bj] = j;
        memcpy(cur, ks, (size_t)s->L * sizeof *ks);
    }
}

static void add_blossom(Ws *s, int bs, int v, int w)
{
    int n = s->n;
    int bb = s->inblossom[bs], bv = s->inblossom[v], bw = s->inblossom[w];
    /* count the cycle length first so we allocate once */
    int len = 1;
    for (int x = bv; x != bb; x = s->inblossom[s->labelend[x].a])
        len++;
    for (int x = bw; x != bb; x = s->inblossom[s->labelend[x].a])
        len++;
    int *ch = malloc((size_t)len * sizeof *ch);
    Edge *ed = malloc((size_t)len * sizeof *ed);
    Edge *bl = malloc((size_t)(2 * n) * sizeof *bl);
    if (!ch || !ed || !bl) {
        free(ch);
        free(ed);
        free(bl);
        s->oom = 1;
        return;
    }
    int b = s->unused[--s->nunused];
    s->base[b] = bs;
    s->parent[b] = -1;
    s->parent[bb] = b;
    /* the v side, from bv back to the base, then reversed */
    int k = 0;
    for (int x = bv; x != bb;) {
        s->parent[x] = b;
        ch[k] = x;
        ed[k] = s->labelend[x]; /* a = remote (toward base), b = local */
        k++;
        x = s->inblossom[s->labelend[x].a];
    }
    int nv = k;
    /* reverse: childs = bb, bv_k..bv_1 ; edge i = (remote in child i, local in child i+1) */
    int *ch2 = s->bestto_a; /* scratch */
    Edge tmp;
    ch2[0] = bb;
    for (int i = 0; i < nv; i++)
        ch2[1 + i] = ch[nv - 1 - i];
    for (int i = 0; i < nv / 2; i++) {
        tmp = ed[i];
        ed[i] = ed[nv - 1 - i];
        ed[nv - 1 - i] = tmp;
    }
    for (int i = 0; i <= nv; i++)
        ch[i] = ch2[i];
    k = nv + 1;
    ed[nv].a = v;
    ed[nv].b = w;
    int ek = nv + 1;
    for (int x = bw; x != bb;) {
        s->parent[x] = b;
        ch[k++] = x;
        ed[ek].a = s->labelend[x].b; /* local, in this child */
        ed[ek].b = s->labelend[x].a; /* remote, in the next child */
        ek++;
        x = s->inblossom[s->labelend[x].a];
    }
    s->childs[b] = ch;
    s->cedges[b] = ed;
    s->nchild[b] = len;
    s->label[b] = 1;
    s->labelend[b] = s->labelend[bb];
    memset(DUAL(s, b), 0, (size_t)s->L * sizeof(uint64_t));
    int nl = leaves(s, b, s->leafbuf);
    for (int i = 0; i < nl; i++) {
        int x = s->leafbuf[i];
        if (s->label[s->inblossom[x]] == 2)
            s->queue[s->nqueue++] = x;
        s->inblossom[x] = b;
    }

    /* least-slack edges to neighbouring S-blossoms */
    int *bt_a = s->bestto_a, *bt_b = s->bestto_b;
    int *lbuf = s->leafbuf;
    for (int i = 0; i < 2 * n; i++)
        bt_a[i] = -1;
    for (int c = 0; c < len; c++) {
        int sb = ch[c];
        if (s->nbbest[sb] < 0) {
            int m = leaves(s, sb, lbuf);
            for (int li = 0; li < m; li++) {
                int i = lbuf[li];
                for (int j = 0; j < n; j++) {
                    if (j == i || wzero(WT(s, i, j), s->L))
                        continue;
                    int bj = s->inblossom[j];
                    if (bj != b && s->label[bj] == 1)
                        consider_best(s, bj, i, j);
                }
            }
        } else {
            for (int e = 0; e < s->nbbest[sb]; e++) {
                int i = s->bbest[sb][e].a, j = s->bbest[sb][e].b;
                if (s->inblossom[j] == b) {
                    int t = i;
                    i = j;
                    j = t;
                }
                int bj = s->inblossom[j];
                if (bj != b && s->label[bj] == 1)
                    consider_best(s, bj, i, j);
            }
        }
        free(s->bbest[sb]);
        s->bbest[sb] = NULL;
        s->nbbest[sb] = -1;
        s->bestedge[sb].a = -1;
    }
    int nb = 0;
    for (int i = 0; i < 2 * n; i++)
        if (bt_a[i] != -1) {
            bl[nb].a = bt_a[i];
            bl[nb].b = bt_b[i];
            nb++;
        }
    s->bbest[b] = bl;
    s->nbbest[b] = nb;
    s->bestedge[b].a = -1;
    for (int e = 0; e < nb; e++)
        if (s->bestedge[b].a == -1 ||
            slack_less(s, bl[e].a, bl[e].b, s->bestedge[b].a, s->bestedge[b].b))
            s->bestedge[b] = bl[e];
    s->bepoch[b] = -1;
}

static int modi(int j, int m)
{
    return ((j % m) + m) % m;
}

/* endpoint pair of cycle edge i taken in direction `trick`:
 * .a = endpoint[p], .b = endpoint[p^1] */
static Edge cyc(Ws *s, int b, int i, int trick)
{
    Edge e = s->cedges[b][modi(i, s->nchild[b])];
    if (trick) {
        int t = e.a;
        e.a = e.b;
        e.b = t;
    }
    return e;
}

static void set_allow(Ws *s, int u, int v)
{
    size_t gn = (size_t)s->g->n, a = (size_t)s->map[u], b = (size_t)s->map[v];
    s->allow[a * gn + b] = *s->stamp;
    s->allow[b * gn + a] = *s->stamp;
}

static int is_allowed(const Ws *s, int u, int v)
{
    size_t gn = (size_t)s->g->n;
    return s->allow[(size_t)s->map[u] * gn + (size_t)s->map[v]] == *s->stamp;
}

/* The position of CHILD among the children of blossom B. */
static int child_index(const Ws *s, int b, int child)
{
    int i = 0;
    while (s->childs[b][i] != child)
        i++;
    return i;
}

/* Where a walk round blossom B's cycle from child position I to the base
 * (position 0) starts, and its direction: the way round with an even
 * number of edges, so that the walk alternates matched and unmatched
 * edges.  *TRICK says which end of a cycle edge comes first that way. */
static int cycle_start(const Ws *s, int b, int i, int *jstep, int *trick)
{
    if (i & 1) {
        *jstep = 1;
        *trick = 0;
        return i - s->nchild[b];
    }
    *jstep = -1;
    *trick = 1;
    return i;
}

static void expand_blossom(Ws *s, int b, int endstage)
{
    int n = s->n;
    for (int i = 0; i < s->nchild[b]; i++) {
        int c = s->childs[b][i];
        s->parent[c] = -1;
        if (c < n)
            s->inblossom[c] = c;
        else if (endstage && wzero(DUAL(s, c), s->L))
            expand_blossom(s, c, endstage);
        else {
            int m = leaves(s, c, s->leafbuf);
            for (int k = 0; k < m; k++)
                s->inblossom[s->leafbuf[k]] = c;
        }
    }
    if (!endstage && s->label[b] == 2) {
        int len = s->nchild[b];
        int entry = s->inblossom[s->labelend[b].b];
        int jstep, trick;
        int j = cycle_start(s, b, child_index(s, b, entry), &jstep, &trick);
        Edge p = s->labelend[b];
        while (j != 0) {
            s->label[p.b] = 0;
            Edge q = cyc(s, b, j - trick, trick);
            s->label[q.b] = 0;
            assign_label(s, p.b, 2, p.a);
            set_allow(s, q.a, q.b);
            j += jstep;
            p = cyc(s, b, j - trick, trick);
            set_allow(s, p.a, p.b);
            j += jstep;
        }
        int bv = s->childs[b][modi(j, len)];
        s->label[p.b] = s->label[bv] = 2;
        s->labelend[p.b] = s->labelend[bv] = p;
        s->bestedge[bv].a = -1;
        j += jstep;
        int *buf = s->leafbuf;
        while (s->childs[b][modi(j, len)] != entry) {
            bv = s->childs[b][modi(j, len)];
            if (s->label[bv] == 1) {
                j += jstep;
                continue;
            }
            int m = leaves(s, bv, buf), v = -1;
            for (int k = 0; k < m; k++) {
                v = buf[k];
                if (s->label[v] != 0)
                    break;
            }
            if (v >= 0 && s->label[v] != 0) {
                s->label[v] = 0;
                s->label[s->mate[s->base[bv]]] = 0;
                assign_label(s, v, 2, s->labelend[v].a);
            }
            j += jstep;
        }
    }
    s->label[b] = -1;
    s->labelend[b].a = s->labelend[b].b = -1;
    free(s->childs[b]);
    free(s->cedges[b]);
    s->childs[b] = NULL;
    s->cedges[b] = NULL;
    s->nchild[b] = 0;
    s->base[b] = -1;
    free(s->bbest[b]);
    s->bbest[b] = NULL;
    s->nbbest[b] = -1;
    s->bestedge[b].a = -1;
    s->unused[s->nunused++] = b;
}

static void augment_blossom(Ws *s, int b, int v)
{
    int t = v;
    while (s->parent[t] != b)
        t = s->parent[t];
    if (t >= s->n)
        augment_blossom(s, t, v);
    int len = s->nchild[b];
    int i = child_index(s, b, t);
    int jstep, trick;
    int j = cycle_start(s, b, i, &jstep, &trick);
    while (j != 0) {
        j += jstep;
        t = s->childs[b][modi(j, len)];
        Edge p = cyc(s, b, j - trick, trick);
        if (t >= s->n)
            augment_blossom(s, t, p.a);
        j += jstep;
        t = s->childs[b][modi(j, len)];
        if (t >= s->n)
            augment_blossom(s, t, p.b);
        s->mate[p.a] = p.b;
        s->mate[p.b] = p.a;
    }
    /* rotate so that the new base child comes first */
    if (i) {
        int *ch = malloc((size_t)len * sizeof *ch);
        Edge *ed = malloc((size_t)len * sizeof *ed);
        if (!ch || !ed) {
            free(ch);
            free(ed);
            s->oom = 1;
            return;
        }
        for (int k = 0; k < len; k++) {
            ch[k] = s->childs[b][(i + k) % len];
            ed[k] = s->cedges[b][(i + k) % len];
        }
        free(s->childs[b]);
        free(s->cedges[b]);
        s->childs[b] = ch;
        s->cedges[b] = ed;
    }
    s->base[b] = s->base[s->childs[b][0]];
}

/* Walks the alternating path from x up to its root, matching x to
 * partner (-1: leaving it free) and flipping every edge on the way. */
static void augment_path(Ws *s, int x, int partner)
{
    for (;;) {
        int bs = s->inblossom[x];
        if (bs >= s->n)
            augment_blossom(s, bs, x);
        s->mate[x] = partner;
        if (s->labelend[bs].a == -1)
            break;
        int t = s->labelend[bs].a;
        int bt = s->inblossom[t];
        x = s->labelend[bt].a;
        int j = s->labelend[bt].b;
        if (bt >= s->n)
            augment_blossom(s, bt, j);
        s->mate[j] = x;
        partner = j;
    }
}

static void augment_matching(Ws *s, int v, int w)
{
    augment_path(s, v, w);
    augment_path(s, w, v);
}

static void ws_free(Ws *s)
{
    if (s->childs)
        for (int i = 0; i < 2 * s->n; i++) {
            free(s->childs[i]);
            free(s->cedges ? s->cedges[i] : NULL);
            free(s->bbest ? s->bbest[i] : NULL);
        }
    free(s->label);
    free(s->labelend);
    free(s->inblossom);
    free(s->parent);
    free(s->base);
    free(s->childs);
    free(s->cedges);
    free(s->nchild);
    free(s->bbest);
    free(s->nbbest);
    free(s->bestedge);
    free(s->unused);
    free(s->dual);
    free(s->queue);
    free(s->stack);
    free(s->bestto_a);
    free(s->bestto_b);
    free(s->leafbuf);
    free(s->bslack);
    free(s->bepoch);
    free(s->btslack);
}

int matching_graph_solve_subset(MatchingGraph *g, const int *verts, int n, int *mate);

int matching_graph_solve(MatchingGraph *g, int *mate)
{
    int *map = malloc((size_t)g->n * sizeof *map);
    if (!map)
        return -ENOMEM;
    for (int i = 0; i < g->n; i++)
        map[i] = i;
    int rc = matching_graph_solve_subset(g, map, g->n, mate);
    free(map);
    return rc;
}

/* the sign of y_u + y_v - 2 w_uv without overflow: -1, 0, 1; *neg gets
 * 2 w - y_u - y_v when negative */
static int slack_sign(Ws *s, int u, int v, uint64_t *neg)
{
    uint64_t a[MAX_LIMBS], b[MAX_LIMBS];
    const uint64_t *w = WT(s, u, v);
    wadd(a, DUAL(s, u), DUAL(s, v), s->L);
    wadd(b, w, w, s->L);
    int c = wcmp(a, b, s->L);
    if (c < 0 && neg)
        wsub(neg, b, a, s->L);
    return c;
}

/* y_u += z_B for every vertex u of every blossom B, recursively: removes
 * the blossoms while keeping every edge feasible */
static void dissolve(Ws *s, int b)
{
    int m = leaves(s, b, s->leafbuf);
    for (int k = 0; k < m; k++)
        wadd(DUAL(s, s->leafbuf[k]), DUAL(s, s->leafbuf[k]), DUAL(s, b), s->L);
    for (int i = 0; i < s->nchild[b]; i++)
        if (s->childs[b][i] >= s->n)
            dissolve(s, s->childs[b][i]);
}

/* Makes u free by flipping the alternating path from u up to its root
 * (u's dual reached zero: leaving it unmatched costs nothing). */
static void flip_to_root(Ws *s, int u)
{
    augment_path(s, u, -1);
}

/* Allocates and resets the workspace of a solve over the N graph vertices
 * VERTS, and POS (graph vertex -> solver vertex or -1).  -ENOMEM with
 * everything released. */
static int ws_init(Ws *s, MatchingGraph *g, const int *verts, int n, int *mate, int **pos_out)
{
    int L = g->limbs, n2 = 2 * n;
    s->g = g;
    s->map = verts;
    s->n = n;
    s->L = L;
    s->mate = mate;
    s->label = calloc((size_t)n2, sizeof *s->label);
    s->labelend = calloc((size_t)n2, sizeof *s->labelend);
    s->inblossom = calloc((size_t)n, sizeof *s->inblossom);
    s->parent = calloc((size_t)n2, sizeof *s->parent);
    s->base = calloc((size_t)n2, sizeof *s->base);
    s->childs = calloc((size_t)n2, sizeof *s->childs);
    s->cedges = calloc((size_t)n2, sizeof *s->cedges);
    s->nchild = calloc((size_t)n2, sizeof *s->nchild);
    s->bbest = calloc((size_t)n2, sizeof *s->bbest);
    s->nbbest = calloc((size_t)n2, sizeof *s->nbbest);
    s->bestedge = calloc((size_t)n2, sizeof *s->bestedge);
    s->unused = calloc((size_t)n, sizeof *s->unused);
    s->dual = calloc((size_t)n2 * (size_t)L, sizeof *s->dual);
    s->queue = calloc((size_t)n2 + 1, sizeof *s->queue);
    s->stack = calloc((size_t)n2 + 1, sizeof *s->stack);
    s->bestto_a = calloc((size_t)n2, sizeof *s->bestto_a);
    s->bestto_b = calloc((size_t)n2, sizeof *s->bestto_b);
    s->leafbuf = calloc((size_t)n, sizeof *s->leafbuf);
    s->bslack = calloc((size_t)n2 * (size_t)L, sizeof *s->bslack);
    s->bepoch = calloc((size_t)n2, sizeof *s->bepoch);
    s->btslack = calloc((size_t)n2 * (size_t)L, sizeof *s->btslack);
    int *pos = calloc((size_t)g->n, sizeof *pos);
    if (!s->label || !s->labelend || !s->inblossom || !s->parent || !s->base || !s->childs ||
        !s->cedges || !s->nchild || !s->bbest || !s->nbbest || !s->bestedge || !s->unused ||
        !s->dual || !s->queue || !s->stack || !s->bestto_a || !s->bestto_b || !s->leafbuf ||
        !s->bslack || !s->bepoch || !s->btslack || !pos) {
        free(pos);
        ws_free(s);
        return -ENOMEM;
    }
    s->allow = g->allow;
    s->stamp = &g->stamp;
    for (int v = 0; v < g->n; v++)
        pos[v] = -1;
    for (int i = 0; i < n; i++)
        pos[verts[i]] = i;
    for (int b = 0; b < n2; b++) {
        s->parent[b] = -1;
        s->base[b] = b < n ? b : -1;
        s->nbbest[b] = -1;
        s->bestedge[b].a = -1;
        s->labelend[b].a = s->labelend[b].b = -1;
    }
    for (int v = 0; v < n; v++)
        s->inblossom[v] = v;
    for (int b = 0; b < n2; b++)
        s->bepoch[b] = -1;
    for (int b = n2 - 1; b >= n; b--)
        s->unused[s->nunused++] = b;
    *pos_out = pos;
    return 0;
}

/* Cold start: every dual at the largest weight, nothing matched. */
static void start_cold(Ws *s)
{
    int n = s->n, L = s->L;
    uint64_t maxw[MAX_LIMBS] = {0};
    for (int u = 1; u < n; u++)
        for (int v = 0; v < u; v++) {
            const uint64_t *w = WT(s, u, v);
            if (wcmp(w, maxw, L) > 0)
                memcpy(maxw, w, (size_t)L * sizeof *w);
        }
    for (int v = 0; v < n; v++) {
        s->mate[v] = -1;
        memcpy(DUAL(s, v), maxw, (size_t)L * sizeof *maxw);
    }
}

/* Warm start from the last optimum of G: keep the duals, keep the pairs
 * still tight, and repair the edges whose weight changed. */
static void start_warm(Ws *s, const MatchingGraph *g, const int *verts, const int *pos)
{
    int n = s->n, L = s->L, *mate = s->mate;
    uint64_t ks[MAX_LIMBS];
    for (int v = 0; v < n; v++) {
        memcpy(DUAL(s, v), g->dual + (size_t)verts[v] * (size_t)L, (size_t)L * sizeof(uint64_t));
        int m = g->pmate[verts[v]];
        mate[v] = m >= 0 ? pos[m] : -1;
    }
    for (int v = 0; v < n; v++)
        if (mate[v] > v && slack_sign(s, v, mate[v], NULL) != 0) {
            mate[mate[v]] = -1;
            mate[v] = -1;
        }
    for (int u = 0; u < n; u++) {
        if (!g->dirty[verts[u]])
            continue;
        for (int v = 0; v < n; v++) {
            if (v == u || slack_sign(s, u, v, ks) >= 0)
                continue;
            int x = u;
            if (mate[u] >= 0 && mate[v] < 0)
                x = v;
            if (mate[x] >= 0) {
                mate[mate[x]] = -1;
                mate[x] = -1;
            }
            wadd(DUAL(s, x), DUAL(s, x), ks, L);
        }
    }
    /* all roots must share a parity so that S-S slacks stay even */
    for (int v = 0; v < n; v++)
        if (mate[v] < 0 && (DUAL(s, v)[0] & 1)) {
            uint64_t one[MAX_LIMBS] = {1};
            wadd(DUAL(s, v), DUAL(s, v), one, L);
        }
}

/* Clears the labels of a stage and labels S every free vertex whose dual
 * is not zero yet; returns how many roots there are. */
static int stage_begin(Ws *s, MatchingGraph *g)
{
    int n = s->n, n2 = 2 * n, L = s->L;
    if (++*s->stamp == 0) {
        memset(g->allow, 0, (size_t)g->n * (size_t)g->n * sizeof *g->allow);
        *s->stamp = 1;
    }
    for (int b = 0; b < n2; b++) {
        s->label[b] = 0;
        s->labelend[b].a = s->labelend[b].b = -1;
        s->bestedge[b].a = -1;
        if (b >= n) {
            free(s->bbest[b]);
            s->bbest[b] = NULL;
            s->nbbest[b] = -1;
        }
    }
    s->nqueue = 0;
    int roots = 0;
    for (int v = 0; v < n; v++)
        if (s->mate[v] == -1 && s->label[s->inblossom[v]] == 0 && !wzero(DUAL(s, v), L)) {
            assign_label(s, v, 1, -1);
            roots++;
        }
    return roots;
}

/* Scans the edges of the queued S-vertices: labels, new blossoms, and the
 * least-slack edges for the dual step.  Returns 1 when an augmenting path
 * was found and applied (the stage is over), else 0. */
static int scan_queue(Ws *s)
{
    int n = s->n, L = s->L;
    uint64_t ks[MAX_LIMBS];
    while (s->nqueue && !s->oom) {
        int v = s->queue[--s->nqueue];
        for (int w = 0; w < n; w++) {
            if (w == v)
                continue;
            const uint64_t *wt = WT(s, v, w);
            if (wzero(wt, L))
                continue;
            int bv = s->inblossom[v], bw = s->inblossom[w];
            if (bv == bw)
                continue;
            int al = is_allowed(s, v, w);
            if (!al) {
                slack(s, v, w, ks);
                if (wzero(ks, L)) {
                    set_allow(s, v, w);
                    al = 1;
                }
            }
            if (al) {
                if (s->label[bw] == 0) {
                    if (s->mate[s->base[bw]] == -1) {
                        /* a free vertex whose dual is already zero */
                        augment_matching(s, v, w);
                        return 1;
                    }
                    assign_label(s, w, 2, v);
                } else if (s->label[bw] == 1) {
                    int bs = scan_blossom(s, v, w);
                    if (bs >= 0) {
                        add_blossom(s, bs, v, w);
                        if (s->oom)
                            break;
                    } else {
                        augment_matching(s, v, w);
                        return 1;
                    }
                } else if (s->label[w] == 0) {
                    s->label[w] = 2;
                    s->labelend[w].a = v;
                    s->labelend[w].b = w;
                }
            } else if (s->label[bw] == 1) {
                if (s->bestedge[bv].a == -1 || wcmp(ks, best_slack(s, bv), L) < 0)
                    set_best(s, bv, v, w, ks);
            } else if (s->label[w] == 0) {
                if (s->bestedge[w].a == -1 || wcmp(ks, best_slack(s, w), L) < 0)
                    set_best(s, w, v, w, ks);
            }
        }
    }
    return 0;
}

/* The dual step: moves the duals by the largest DELTA that keeps every
 * edge feasible, then acts on what limited it (a vertex dual reaching
 * zero, an edge becoming tight, a T-blossom's dual reaching zero).
 * DELTA is the caller's, kept between steps.  Returns 1 when the stage
 * is over (a vertex dual reached zero), else 0. */
static int dual_step(Ws *s, uint64_t *delta)
{
    int n = s->n, n2 = 2 * n, L = s->L;
    uint64_t d[MAX_LIMBS];
    int dtype = 1, dea = -1, deb = -1, dblossom = -1, dvertex = -1;
    for (int v = 0; v < n; v++)
        if (s->label[s->inblossom[v]] == 1 && (dvertex < 0 || wcmp(DUAL(s, v), delta, L) < 0)) {
            memcpy(delta, DUAL(s, v), (size_t)L * sizeof *delta);
            dvertex = v;
        }
    for (int v = 0; v < n; v++)
        if (s->label[s->inblossom[v]] == 0 && s->bestedge[v].a != -1) {
            memcpy(d, best_slack(s, v), (size_t)L * sizeof *d);
            if (wcmp(d, delta, L) < 0) {
                memcpy(delta, d, (size_t)L * sizeof *d);
                dtype = 2;
                dea = s->bestedge[v].a;
                deb = s->bestedge[v].b;
            }
        }
    for (int b = 0; b < n2; b++)
        if (s->parent[b] == -1 && s->base[b] >= 0 && s->label[b] == 1 && s->bestedge[b].a != -1) {
            wshr1(d, best_slack(s, b), L);
            if (wcmp(d, delta, L) < 0) {
                memcpy(delta, d, (size_t)L * sizeof *d);
                dtype = 3;
                dea = s->bestedge[b].a;
                deb = s->bestedge[b].b;
            }
        }
    for (int b = n; b < n2; b++)
        if (s->base[b] >= 0 && s->parent[b] == -1 && s->label[b] == 2 &&
            wcmp(DUAL(s, b), delta, L) < 0) {
            memcpy(delta, DUAL(s, b), (size_t)L * sizeof *delta);
            dtype = 4;
            dblossom = b;
        }
    for (int v = 0; v < n; v++) {
        int lb = s->label[s->inblossom[v]];
        if (lb == 1)
            wsub(DUAL(s, v), DUAL(s, v), delta, L);
        else if (lb == 2)
            wadd(DUAL(s, v), DUAL(s, v), delta, L);
    }
    for (int b = n; b < n2; b++)
        if (s->base[b] >= 0 && s->parent[b] == -1) {
            if (s->label[b] == 1)
                wadd(DUAL(s, b), DUAL(s, b), delta, L);
            else if (s->label[b] == 2)
                wsub(DUAL(s, b), DUAL(s, b), delta, L);
        }
    s->epoch++;
    if (dtype == 1) {
        /* an S-vertex reached dual zero: a root retires, a matched
         * vertex gives its pair up along the path to its root */
        if (s->mate[dvertex] >= 0)
            flip_to_root(s, dvertex);
        return 1;
    }
    if (dtype == 2) {
        set_allow(s, dea, deb);
        int i = dea;
        if (s->label[s->inblossom[i]] == 0)
            i = deb;
        s->queue[s->nqueue++] = i;
    } else if (dtype == 3) {
        set_allow(s, dea, deb);
        s->queue[s->nqueue++] = dea;
    } else {
        expand_blossom(s, dblossom, 0);
    }
    return 0;
}

/* Keeps the state for the next solve: blossoms melt into the vertex
 * duals, and only pairs that stay tight stay matched. */
static void keep_state(Ws *s, MatchingGraph *g, const int *verts)
{
    int n = s->n, n2 = 2 * n, L = s->L;
    for (int b = n; b < n2; b++)
        if (s->base[b] >= 0 && s->parent[b] == -1)
            dissolve(s, b);
    for (int v = 0; v < n; v++)
        memcpy(g->dual + (size_t)verts[v] * (size_t)L, DUAL(s, v), (size_t)L * sizeof(uint64_t));
    for (int v = 0; v < n; v++) {
        int m = s->mate[v];
        g->pmate[verts[v]] = m >= 0 && slack_sign(s, v, m, NULL) == 0 ? verts[m] : -1;
    }
}

int matching_graph_solve_subset(MatchingGraph *g, const int *verts, int n, int *mate)
{
    int L = g->limbs, n2 = 2 * n;
    Ws ws, *s = &ws;
    memset(s, 0, sizeof *s);
    if (n <= 0)
        return 0;
    int *pos;
    if (ws_init(s, g, verts, n, mate, &pos))
        return -ENOMEM;
    if (!g->warm)
        start_cold(s);
    else
        start_warm(s, g, verts, pos);
    /* whoever sits this solve out may find its edges infeasible later */
    for (int v = 0; v < g->n; v++) {
        g->dirty[v] = pos[v] < 0;
        if (pos[v] < 0)
            g->pmate[v] = -1;
    }

    uint64_t delta[MAX_LIMBS];
    for (int stage = 0; stage < 4 * n + 16 && !s->oom; stage++) {
        if (!stage_begin(s, g))
            break;
        while (!scan_queue(s) && !s->oom && !dual_step(s, delta))
            ;
        if (s->oom)
            break;
        for (int b = n; b < n2; b++)
            if (s->parent[b] == -1 && s->base[b] >= 0 && s->label[b] == 1 && wzero(DUAL(s, b), L))
                expand_blossom(s, b, 1);
    }
    int oom = s->oom;
    if (!oom)
        keep_state(s, g, verts);
    g->warm = !oom;
    free(pos);
    s->allow = NULL;
    ws_free(s);
    return oom ? -ENOMEM : 0;
}

int matching_graph_solve_mates(MatchingGraph *g, const int *verts, int n, int *scratch, int *mate)
{
    int rc = matching_graph_solve_subset(g, verts, n, scratch);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++)
        mate[verts[i]] = scratch[i] < 0 ? verts[i] : verts[scratch[i]];
    return 0;
}
