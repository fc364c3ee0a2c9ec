/*
 * testutil_pairing.h — what the Check programs of the Swiss engines share:
 * re-pairing every round of a generated corpus (tournaments written by
 * bbpPairings' random tournament generator, which pairs each round with its
 * own engine) and comparing each round with the file.
 *
 * Apart from testutil.h because only the pairing programs use it.  Every
 * helper fails the running test (ck_assert) when it cannot do its job.
 */
#ifndef ARBITER_TESTS_TESTUTIL_PAIRING_H
#define ARBITER_TESTS_TESTUTIL_PAIRING_H

#include "swiss.h"
#include "testutil.h"

/* A Swiss engine: pairs round ROUND of T into *OUT (see dutch_pair_round). */
typedef int (*TestutilPairRound)(const Tournament *t, int round, SwissPairing *out, char *err,
                                 size_t errlen);

/* What a corpus run found: rounds paired, rounds equal to the file, rounds
 * that differ as known_differences.txt says, and rounds that differ else. */
typedef struct {
    int rounds;
    int agree;
    int known;
    int unexpected;
} TestutilCorpusCount;

/*
 * Pairs every round of every .trf file in tests/data/SYSTEM/corpus with
 * PAIR, the rounds before it as history, and compares it with the round
 * written in the file (colours included).  Each round that differs is
 * reported on stderr, as a known difference when
 * SYSTEM/known_differences.txt lists "FILE ROUND", and the counts at the
 * end.  Fails the running test when the corpus holds fewer than MIN_FILES
 * files or a file without a paired round.  Returns the counts; the caller
 * asserts on them.
 */
TestutilCorpusCount testutil_corpus_pair(const char *system, TestutilPairRound pair, int min_files);

#endif
