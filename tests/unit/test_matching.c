/*
 * test_matching.c — maximum weight matching against exhaustive search.
 *
 * Random graphs of up to 12 vertices with random (sometimes absent) edges and
 * weights one to three limbs wide; the solver's total must equal the best
 * total over every matching, found by a subset recursion. Also checks that
 * the answer is a matching and never uses an absent edge.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matching.h"

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
    for (int j = 0; j < n; j++) {
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

static void run_case(int n, int L, int density, int bits)
{
    MatchingGraph *g = matching_graph_new(n, L);
    ck_assert_ptr_nonnull(g);
    for (int u = 0; u < n; u++)
        for (int v = 0; v < u; v++) {
            uint64_t w[ML] = {0};
            if ((int)(rnd() % 100) < density) {
                for (int k = 0; k < L; k++)
                    w[k] = rnd();
                /* keep below 2^(64L-3); sometimes use few distinct values to force ties */
                if (bits < 64)
                    w[0] = (rnd() % ((1u << bits) - 1)) + 1, memset(w + 1, 0, sizeof(uint64_t) * (ML - 1));
                else
                    w[L - 1] >>= 3;
            }
            matching_graph_set(g, u, v, w);
        }
    int mate[MAXN];
    ck_assert_int_eq(matching_graph_solve(g, mate), 0);
    Big tot = {{0}};
    for (int v = 0; v < n; v++) {
        if (mate[v] < 0)
            continue;
        ck_assert_int_ne(mate[v], v);
        ck_assert_int_eq(mate[mate[v]], v);
        const uint64_t *w = matching_graph_get(g, v, mate[v]);
        int nz = 0;
        for (int k = 0; k < L; k++)
            nz |= w[k] != 0;
        ck_assert_msg(nz, "absent edge %d-%d used", v, mate[v]);
        if (v < mate[v])
            big_add(&tot, &tot, w, L);
    }
    memset(have, 0, sizeof have);
    Big want = best(g, n, (1u << n) - 1);
    ck_assert_msg(big_cmp(&tot, &want) == 0, "n=%d L=%d density=%d bits=%d: not maximum", n, L,
                  density, bits);
    matching_graph_free(g);
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
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
