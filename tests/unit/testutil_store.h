/*
 * testutil_store.h — what the Check programs that test the store (db/)
 * share: opening the scratch database of the testutil_db_setup() fixture
 * and filling it with the smallest tournament a game can be played in.
 *
 * Apart from testutil.h because it needs the store: the programs that test
 * the rules alone do not link it.  Every helper fails the running test
 * (ck_assert) when it cannot do its job.
 */
#ifndef ARBITER_TESTS_TESTUTIL_STORE_H
#define ARBITER_TESTS_TESTUTIL_STORE_H

#include "store.h"
#include "testutil.h"

/* Opens testutil_db_path for writing (created with the newest schema when
 * new); fails the running test with the store's message when it cannot.
 * The caller closes it with store_close(). */
Store *testutil_store_open(void);

/* Stores, in one transaction, tournament 1 (time control 5400+30), its
 * players 1 'A' and 2 'B', its round 1, and GAMES games of that round on
 * boards 1 to GAMES, each with A as White against B.  The store S must be
 * empty; fails the running test when any of it is refused. */
void testutil_store_round(Store *s, int games);

#endif
