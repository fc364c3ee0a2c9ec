/*
 * testutil.h — what the Check test programs share, so that no test program
 * carries its own copy: finding and reading the data files under
 * tests/data/ and any other whole file, temporary directories, running a
 * program and capturing what it prints, boards from FEN and moves from
 * notation, tournaments from TRF text, and running a suite.
 *
 * Data files are found through the ARBITER_TEST_DATA environment variable,
 * which meson sets to the source tree's tests/data for every test (the
 * relative tests/data when it is not set, for a run from the source root).
 *
 * Every helper fails the running test (ck_assert) when it cannot do its
 * job, except the ones named for use before the suite runs
 * (testutil_open_at_start, testutil_run_in_tmpdir), which print the reason
 * and end the program instead: Check reports nothing outside a test.
 */
#ifndef ARBITER_TESTS_TESTUTIL_H
#define ARBITER_TESTS_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "canmate.h"
#include "tournament.h"

/* The data directory: ARBITER_TEST_DATA, or "tests/data" when unset. */
const char *testutil_data_dir(void);

/* The arbiter program under test: ARBITER_BIN, which meson sets to the
 * built binary; fails the running test when it is not set. */
const char *testutil_bin(void);

/* Writes the path of tests/data/TOPIC/NAME into OUT (CAP bytes). */
void testutil_data_path(char *out, size_t cap, const char *topic, const char *name);

/* Opens tests/data/TOPIC/NAME with fopen mode `mode`; fails the running test
 * when it cannot.  The caller closes the stream. */
FILE *testutil_open(const char *topic, const char *name, const char *mode);

/* The same for main() before the suite runs (loading a case table): when
 * the file cannot be opened it says so on stderr and exits with status 1. */
FILE *testutil_open_at_start(const char *topic, const char *name, const char *mode);

/* Reads the whole file PATH into a NUL-terminated buffer the caller frees;
 * *len (if not NULL) gets its length.  Fails the running test when the file
 * cannot be read. */
char *testutil_read(const char *path, size_t *len);

/* Writes LEN bytes of TEXT as the whole file PATH (created or truncated);
 * fails the running test when it cannot. */
void testutil_write(const char *path, const char *text, size_t len);

/* testutil_read() of tests/data/TOPIC/NAME. */
char *testutil_load(const char *topic, const char *name, size_t *len);

/* The names of the entries of directory DIR that end in SUFFIX ("" for all),
 * leaving out those starting with a dot, sorted by strcmp so that every run
 * visits them in the same order.  *NAMES gets the array; free it with
 * testutil_list_free().  Returns the count; fails the running test when DIR
 * cannot be read. */
int testutil_list(const char *dir, const char *suffix, char ***names);
void testutil_list_free(char **names, int n);

/* Makes a fresh directory $TMPDIR/arbiter-TAG-XXXXXX (/tmp without TMPDIR)
 * for a test's files (a database) and writes its path into DIR (N bytes);
 * fails the running test when it cannot.  testutil_tmpdir_remove() deletes
 * it with its contents. */
void testutil_tmpdir_make(char *dir, size_t n, const char *tag);
void testutil_tmpdir_remove(const char *dir);

/* The scratch-database fixture, for tcase_add_checked_fixture():
 * testutil_db_setup() makes a fresh directory (testutil_tmpdir_make) and
 * sets testutil_db_path to a database file in it, not yet created;
 * testutil_db_teardown() removes the directory with what the test left. */
extern char testutil_db_path[];
void testutil_db_setup(void);
void testutil_db_teardown(void);

/* Runs CMD through sh with the text INPUT (NULL: none) on its standard
 * input; what it writes to stdout and stderr comes back in *OUT and *ERR
 * (malloc'd, NUL-terminated, the caller frees; either pointer may be NULL
 * when not wanted).  DIR is a directory the call may keep its in.txt,
 * out.txt and err.txt in.  Returns the exit status, or -1 when the program
 * did not exit (a signal). */
int testutil_shell(const char *dir, const char *cmd, const char *input, char **out, char **err);

/* Runs the program ARGV[0] with the arguments ARGV (NULL-terminated),
 * without a shell, and with the environment assignments ENV ("NAME=value",
 * NULL-terminated; NULL: none) added to the test's own.  Its stdout goes to
 * /dev/null, its stderr to the file ERR_PATH (created or truncated; NULL:
 * /dev/null).  Returns the exit status, or 128 + the signal that ended it. */
int testutil_exec(const char *const *argv, const char *const *env, const char *err_path);

/* Runs CMD through sh (popen) and puts at most CAP - 1 bytes of its stdout
 * into OUT (NUL-terminated).  Returns the exit status, or -1 when the
 * program did not exit. */
int testutil_capture(const char *cmd, char *out, size_t cap);

/* The position of FEN ("start": the initial position); fails the running
 * test with the parser's message when FEN is not one. */
Board testutil_board(const char *fen);

/* Plays LINE[0..LEN) from FEN and fails the running test unless every move
 * is legal where it is played and the line ends with the loser of WINNER to
 * move, in check, without a legal move (LEN at most CANMATE_LINE_MAX). */
void testutil_assert_mates(const char *fen, int winner, const Move *line, int len);

/* Fails the running test unless canmate_search() with the default limits
 * answers YES for WINNER in FEN with a line that testutil_assert_mates()
 * accepts.  SCRATCH (may be NULL) is the caller's, reused across cases. */
void testutil_assert_search_mates(const char *fen, int winner, CanMateScratch *scratch);

/* Plain brute force, independent of the can-mate analysis: does WINNER
 * mate within PLIES plies, every move of both sides tried? */
bool testutil_mate_within(const Board *b, int winner, int plies);

/* The next position of a labelled can-mate file
 * (tests/data/canmate/d3-test-vector.txt: two characters saying which
 * sides can mate, "W-", "-B", "WB" or "--", a space and a FEN; lines that
 * start with '#' are comments), read from F into LINE (SIZE bytes, without
 * its line end; the FEN is LINE + 3).  Returns 1 with *B the position, -1
 * when the FEN reader refuses it (ERR, ERR_SIZE bytes, says why: placements
 * no game can reach), 0 at the end of the file.  Pure: benchmarks use it
 * too. */
int testutil_labelled_next(FILE *f, char *line, size_t size, Board *b, char *err, size_t err_size);

/* What LINE, read by testutil_labelled_next(), says of side C: YES when
 * it can mate, else NO. */
CanMate testutil_labelled_want(const char *line, int c);

/* Writes the piece-placement field of a FEN (ranks 8 to 1, '/' between)
 * for GRID, indexed by SQ(file, rank), where 0 is an empty square and a
 * FEN letter a piece, into OUT (at least 72 bytes, NUL-terminated).  Pure:
 * benchmarks may use it outside a test. */
void testutil_fen_placement(const char grid[64], char *out);

/* The legal move of B written UCI (e2e4, e7e8q); fails the running test when
 * there is none. */
Move testutil_uci(const Board *b, const char *uci);

/* The legal move of B written in SAN (or any notation the parser takes);
 * fails the running test with the parser's message when there is none. */
Move testutil_san(const Board *b, const char *text);

/* The tournament of the TRF text (LEN bytes) read with trf_read FLAGS; fails
 * the running test, naming NAME and the place, when it is refused.  The
 * caller frees it with tournament_free(). */
Tournament *testutil_trf(const char *name, const char *text, size_t len, int flags);

/* testutil_trf() of the file tests/data/TOPIC/NAME. */
Tournament *testutil_trf_load(const char *topic, const char *name, int flags);

/* Runs every test of s (which it frees) and returns the process exit
 * status: 0 when all passed, 1 otherwise. */
int testutil_run(Suite *s);

/* testutil_run() with a scratch directory $TMPDIR/arbiter-TAG-XXXXXX made
 * (into DIR, N bytes) before the tests and removed with its contents
 * after them.  For main(): exits with status 1 when it cannot be made. */
int testutil_run_in_tmpdir(Suite *s, const char *tag, char *dir, size_t n);

#endif
