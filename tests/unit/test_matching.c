/*
 * test_matching.c — maximum weight matching against exhaustive search.
 *
 * Random graphs of up to 12 vertices, solved cold and then warm after
 * changes of a few vertices' edges and on vertex subsets, with random (sometimes absent) edges and
 * weights one to three limbs wide; the solver's total must equal the best
 * total over every matching, found by a subset recursion. Also checks that
 * the answer is a matching and never uses an absent edge.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"
#include "testutil.h"

enum { MAXN = 12, ML = 3 };

typedef struct {
    uint64_t v[ML + 1];
} Big;

static void big_add(Big *r, const Big *a, const uint64_t *w, int L)
{
    uint64_t c = 0;
    for (int i = 0; i <= ML; i++) {
        uint64_t x = i < L ? w[i] : 0;
        uint64_t s = a->v[i] + c;
        c = s < c;
        uint64_t t = s + x;
        c += t < s;
        r->v[i] = t;
    }
}

static int big_cmp(const Big *a, const Big *b)
{
    for (int i = ML; i >= 0; i--)
        if (a->v[i] != b->v[i])
            return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static Big memo[1 << MAXN];
static char have[1 << MAXN];

static Big best(const MatchingGraph *g, int n, unsigned mask)
/* n is unused: the mask says which vertices take part */
{
    Big zero = {{0}};
    if (!mask)
        return zero;
    if (have[mask])
        return memo[mask];
    int i = __builtin_ctz(mask);
    unsigned rest = mask & ~(1u << i);
    Big r = best(g, n, rest);
    int L = matching_graph_limbs(g);
    for (int j = 0; j < MAXN; j++) {
        if (!(rest & (1u << j)))
            continue;
        const uint64_t *w = matching_graph_get(g, i, j);
        int nz = 0;
        for (int k = 0; k < L; k++)
            nz |= w[k] != 0;
        if (!nz)
            continue;
        Big sub = best(g, n, rest & ~(1u << j)), t;
        big_add(&t, &sub, w, L);
        if (big_cmp(&t, &r) > 0)
            r = t;
    }
    have[mask] = 1;
    memo[mask] = r;
    return r;
}

static void random_weight(uint64_t *w, int L, int density, int bits)
{
    memset(w, 0, sizeof(uint64_t) * ML);
    if ((int)(rnd() % 100) < density) {
        for (int k = 0; k < L; k++)
            w[k] = rnd();
        if (bits < 64) {
            memset(w, 0, sizeof(uint64_t) * ML);
            w[0] = (rnd() % ((1u << bits) - 1)) + 1;
        } else {
            w[L - 1] >>= 3;
        }
    }
}

static void check_solution(MatchingGraph *g, const int *verts, int k, int n, int L, int density,
                           int bits);

static void run_case(int n, int L, int density, int bits)
{
    MatchingGraph *g = matching_graph_new(n, L);
    ck_assert_ptr_nonnull(g);
    int verts[MAXN];
    for (int i = 0; i < n; i++)
        verts[i] = i;
    for (int u = 0; u < n; u++)
        for (int v = 0; v < u; v++) {
            uint64_t w[ML];
            random_weight(w, L, density, bits);
            matching_graph_set(g, u, v, w);
        }
    check_solution(g, verts, n, n, L, density, bits);
    /* a series of warm solves: change the edges of a vertex or two, or drop
     * a vertex from the solved set, as the pairing engine does */
    for (int step = 0; step < 6; step++) {
        int changes = 1 + (int)(rnd() % 3);
        for (int c = 0; c < changes; c++) {
            int u = (int)(rnd() % (unsigned)n);
            for (int v = 0; v < n; v++)
                if (v != u && rnd() % 2) {
                    uint64_t w[ML];
                    random_weight(w, L, density, bits);
                    matching_graph_set(g, u, v, w);
                }
        }
        int k = 0, sub[MAXN];
        for (int i = 0; i < n; i++)
            if (step < 3 || rnd() % 4)
                sub[k++] = i;
        check_solution(g, sub, k, n, L, density, bits);
    }
    matching_graph_free(g);
}

static void check_solution(MatchingGraph *g, const int *verts, int k, int n, int L, int density,
                           int bits)
{
    (void)n;
    int mate[MAXN];
    ck_assert_int_eq(matching_graph_solve_subset(g, verts, k, mate), 0);
    Big tot = {{0}};
    unsigned mask = 0;
    for (int i = 0; i < k; i++)
        mask |= 1u << verts[i];
    for (int i = 0; i < k; i++) {
        if (mate[i] < 0)
            continue;
        ck_assert_int_ne(mate[i], i);
        ck_assert_int_eq(mate[mate[i]], i);
        int v = verts[i], m = verts[mate[i]];
        const uint64_t *w = matching_graph_get(g, v, m);
        int nz = 0;
        for (int q = 0; q < L; q++)
            nz |= w[q] != 0;
        ck_assert_msg(nz, "absent edge %d-%d used", v, m);
        if (i < mate[i])
            big_add(&tot, &tot, w, L);
    }
    memset(have, 0, sizeof have);
    Big want = best(g, MAXN, mask);
    ck_assert_msg(big_cmp(&tot, &want) == 0, "k=%d L=%d density=%d bits=%d: not maximum", k, L,
                  density, bits);
}

START_TEST(random_small_graphs)
{
    rng_state = 0x9e3779b97f4a7c15ULL;
    for (int it = 0; it < 3000; it++) {
        int n = 1 + (int)(rnd() % MAXN);
        int L = 1 + (int)(rnd() % ML);
        int density = (int)(rnd() % 101);
        static const int bitsopt[] = {1, 2, 3, 5, 64};
        int bits = bitsopt[rnd() % 5];
        run_case(n, L, density, bits);
    }
}
END_TEST

START_TEST(empty_and_single)
{
    MatchingGraph *g = matching_graph_new(1, 1);
    int mate[2];
    ck_assert_int_eq(matching_graph_solve(g, mate), 0);
    ck_assert_int_eq(mate[0], -1);
    matching_graph_free(g);
    ck_assert_ptr_null(matching_graph_new(0, 1));
    matching_graph_free(NULL);
    g = matching_graph_new(2, 1);
    matching_graph_set_u64(g, 0, 1, 5);
    ck_assert_int_eq(matching_graph_solve(g, mate), 0);
    ck_assert_int_eq(mate[0], 1);
    matching_graph_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("matching");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, random_small_graphs);
    tcase_add_test(tc, empty_and_single);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
