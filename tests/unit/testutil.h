/*
 * testutil.h — what the Check test programs share: finding and reading
 * the data files under tests/data/, temporary directories, and running a
 * suite.
 *
 * Data files are found through the ARBITER_TEST_DATA environment variable,
 * which meson sets to the source tree's tests/data for every test.
 */
#ifndef ARBITER_TESTS_TESTUTIL_H
#define ARBITER_TESTS_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdio.h>

/* Opens tests/data/TOPIC/NAME with fopen mode `mode`; fails the running test
 * when it cannot.  The caller closes the stream. */
FILE *testutil_open(const char *topic, const char *name, const char *mode);

/* Reads the whole of tests/data/TOPIC/NAME into a NUL-terminated buffer the
 * caller frees; *len (if not NULL) gets its length.  Fails the running test
 * when the file cannot be read. */
char *testutil_load(const char *topic, const char *name, size_t *len);

/* Makes a fresh directory /tmp/arbiter-TAG-XXXXXX for a test's files (a
 * database) and writes its path into DIR (N bytes); fails the running test
 * when it cannot.  testutil_tmpdir_remove() deletes it with its contents. */
void testutil_tmpdir_make(char *dir, size_t n, const char *tag);
void testutil_tmpdir_remove(const char *dir);

/* Runs every test of s (which it frees) and returns the process exit
 * status: 0 when all passed, 1 otherwise. */
int testutil_run(Suite *s);

#endif
