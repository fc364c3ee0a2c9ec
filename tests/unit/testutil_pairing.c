/*
 * testutil_pairing.c — shared helpers of the Check programs of the Swiss
 * engines (see testutil_pairing.h).
 */
#include "testutil_pairing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trf.h"

/* True when KNOWN (known_differences.txt, or NULL) lists round ROUND of FILE. */
static int is_known(const char *known, const char *file, int round)
{
    char key[300];
    snprintf(key, sizeof key, "%s %d\n", file, round);
    return known && strstr(known, key) != NULL;
}

TestutilCorpusCount testutil_corpus_pair(const char *system, TestutilPairRound pair, int min_files)
{
    char dir[512], topic[64];
    testutil_data_path(dir, sizeof dir, system, "corpus");
    snprintf(topic, sizeof topic, "%s/corpus", system);
    char *known = testutil_load(system, "known_differences.txt", NULL);
    char **names;
    int nn = testutil_list(dir, ".trf", &names);
    ck_assert_int_ge(nn, min_files);
    TestutilCorpusCount c = {0};
    for (int i = 0; i < nn; i++) {
        Tournament *t = testutil_trf_load(topic, names[i], TRF_READ_NO_POINTS_CHECK);
        int last = swiss_next_round(t) - 1;
        ck_assert_int_ge(last, 1);
        for (int r = 1; r <= last; r++) {
            SwissPairing p;
            char err[200] = "";
            int rc = pair(t, r, &p, err, sizeof err);
            c.rounds++;
            if (rc == 0 && swiss_round_matches(t, r, &p)) {
                c.agree++;
            } else if (is_known(known, names[i], r)) {
                c.known++;
                fprintf(stderr, "known difference: %s round %d\n", names[i], r);
            } else {
                c.unexpected++;
                fprintf(stderr, "DIFFERS: %s round %d (rc %d %s)\n", names[i], r, rc, err);
            }
            swiss_pairing_free(&p);
        }
        tournament_free(t);
    }
    testutil_list_free(names, nn);
    free(known);
    fprintf(stderr, "%s corpus: %d of %d rounds equal bbpPairings (%d known differences)\n", system,
            c.agree, c.rounds, c.known);
    return c;
}
