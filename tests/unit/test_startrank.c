/*
 * test_startrank.c — the initial order of C.04.2 Art. 2 (FIDE Handbook):
 * "rating (highest first) ... then FIDE title in the order GM, IM, WGM,
 * FM, WIM, CM, WFM, WCM, untitled ... then alphabetically", unrated players
 * after the rated ones unless the arbiter estimated a rating, and no
 * renumbering once round 4 has been paired (late entries take the next
 * free number).  The expected orders below are written from that text,
 * not from the program.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "startrank.h"
#include "testutil.h"

/* Sorts E and checks that the keys come out as EXPECT (N of them), with
 * ranks 1..N. */
static void expect_order(StartEntry *e, int n, const int64_t *expect)
{
    startrank_assign(e, n);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(e[i].key == expect[i], "position %d: key %lld, expected %lld", i + 1,
                      (long long)e[i].key, (long long)expect[i]);
        ck_assert_int_eq(e[i].rank, i + 1);
    }
}

START_TEST(rating_first)
{
    StartEntry e[] = {
        {.key = 1, .rating = 2100, .name = "Zeta"},
        {.key = 2, .rating = 2450, .name = "Alpha", .title = ""},
        {.key = 3, .rating = 1800, .name = "Beta", .title = "GM"},
        {.key = 4, .rating = 2200, .name = "Gamma", .title = "WCM"},
    };
    /* A title or a name never beats a higher rating. */
    expect_order(e, 4, (const int64_t[]){2, 4, 1, 3});
}
END_TEST

START_TEST(title_order)
{
    /* Equal ratings, the names in reverse alphabetical order of the titles
     * so that the name cannot be what decides. */
    static const char *const titles[] = {"", "WCM", "WFM", "CM", "WIM", "FM", "WGM", "IM", "GM"};
    StartEntry e[9];
    memset(e, 0, sizeof e);
    char names[9][8];
    for (int i = 0; i < 9; i++) {
        snprintf(names[i], sizeof names[i], "%c", 'A' + i);
        e[i] = (StartEntry){.key = i + 1, .rating = 2300, .title = titles[i], .name = names[i]};
    }
    /* GM, IM, WGM, FM, WIM, CM, WFM, WCM, untitled. */
    expect_order(e, 9, (const int64_t[]){9, 8, 7, 6, 5, 4, 3, 2, 1});
    ck_assert_int_eq(startrank_title_order("GM"), 0);
    ck_assert_int_eq(startrank_title_order("wgm"), 2);
    ck_assert_int_eq(startrank_title_order(" IM "), 1);
    ck_assert_int_eq(startrank_title_order("WCM"), 7);
    ck_assert_int_eq(startrank_title_order(""), 8);
    ck_assert_int_eq(startrank_title_order(NULL), 8);
    /* Not in the list (arbiter, honorary, national titles): untitled. */
    ck_assert_int_eq(startrank_title_order("IA"), 8);
    ck_assert_int_eq(startrank_title_order("AGM"), 8);
    ck_assert_int_eq(startrank_title_order("G"), 8);
}
END_TEST

START_TEST(names_alphabetical)
{
    StartEntry e[] = {
        {.key = 1, .rating = 1900, .name = "Smith, John"},
        {.key = 2, .rating = 1900, .name = "de Vries, Anna"},
        {.key = 3, .rating = 1900, .name = "Adams, Michael"},
        {.key = 4, .rating = 1900, .name = "Smith, Jane"},
        {.key = 5, .rating = 1900, .name = "Brown"},
    };
    /* Letters decide regardless of case: "de Vries" among the D's. */
    expect_order(e, 5, (const int64_t[]){3, 5, 2, 4, 1});
}
END_TEST

START_TEST(names_with_diacritics)
{
    /* Two unrated, untitled players: "Ödön" is an O (Hungarian names in an
     * international list fold the umlaut), so he comes before "Zoltan"
     * whatever the bytes say; the same for the other Latin letters with
     * diacritics, and Cyrillic after Latin. */
    StartEntry e[] = {
        {.key = 1, .name = "Zoltan, B"},
        {.key = 2, .name = "Ödön, A"},
    };
    expect_order(e, 2, (const int64_t[]){2, 1});
    StartEntry f[] = {
        {.key = 1, .rating = 2100, .name = "Иванов, Иван"},
        {.key = 2, .rating = 2100, .name = "Šulc, Petr"},
        {.key = 3, .rating = 2100, .name = "Zeller, Max"},
        {.key = 4, .rating = 2100, .name = "Łaszkiewicz, Jan"},
        {.key = 5, .rating = 2100, .name = "Ёлкин, Пётр"},
        {.key = 6, .rating = 2100, .name = "Lazarev, Ivan"},
        {.key = 7, .rating = 2100, .name = "Елисеев, Юрий"},
    };
    expect_order(f, 7, (const int64_t[]){4, 6, 2, 3, 7, 5, 1});
}
END_TEST

START_TEST(unrated_last_unless_estimated)
{
    StartEntry e[] = {
        {.key = 1, .rating = 0, .name = "Aaron", .title = "FM"},
        {.key = 2, .rating = 1200, .name = "Zed"},
        {.key = 3, .rating = 0, .estimate = 1500, .name = "Yves"},
        {.key = 4, .rating = 1600, .name = "Xia"},
        {.key = 5, .rating = 0, .name = "Bea"},
        /* An estimate does not change a real rating. */
        {.key = 6, .rating = 1100, .estimate = 2500, .name = "Will"},
    };
    /* 1600, estimate 1500, 1200, 1100, then the unrated: FM before untitled. */
    expect_order(e, 6, (const int64_t[]){4, 3, 2, 6, 1, 5});
}
END_TEST

START_TEST(registration_breaks_full_ties)
{
    StartEntry e[] = {
        {.key = 30, .rating = 2000, .title = "IM", .name = "Same"},
        {.key = 10, .rating = 2000, .title = "im", .name = "Same"},
        {.key = 20, .rating = 2000, .title = "IM", .name = "Same"},
    };
    expect_order(e, 3, (const int64_t[]){10, 20, 30});
    ck_assert_int_lt(startrank_compare(&e[0], &e[1]), 0);
    ck_assert_int_gt(startrank_compare(&e[1], &e[0]), 0);
}
END_TEST

START_TEST(late_entry_before_freeze_takes_its_place)
{
    /* Three players, then a late entry rated between the first two: before
     * the freeze everybody below is renumbered. */
    StartEntry e[] = {
        {.key = 1, .rating = 2200, .name = "A"},
        {.key = 2, .rating = 2000, .name = "B"},
        {.key = 3, .rating = 1800, .name = "C"},
        {.key = 4, .rating = 2100, .name = "Late"},
    };
    expect_order(e, 4, (const int64_t[]){1, 4, 2, 3});
}
END_TEST

START_TEST(frozen_numbers_stay)
{
    /* Frozen at round 4: 1..4 as they were.  Since then player 4 got a
     * rating correction that would put him first, and two late entries
     * arrived (one rated higher than anybody): they take 5 and 6, in the
     * C.04.2 order among themselves. */
    StartEntry e[] = {
        {.key = 4, .rating = 2600, .name = "Corrected", .frozen = 4},
        {.key = 7, .rating = 1500, .name = "Late low"},
        {.key = 1, .rating = 2200, .name = "A", .frozen = 1},
        {.key = 8, .rating = 2700, .name = "Late high"},
        {.key = 3, .rating = 1800, .name = "C", .frozen = 3},
        {.key = 2, .rating = 2000, .name = "B", .frozen = 2},
    };
    expect_order(e, 6, (const int64_t[]){1, 2, 3, 4, 8, 7});
}
END_TEST

START_TEST(frozen_gaps_close)
{
    /* Numbers are 1..n without gaps even if the stored ones have one. */
    StartEntry e[] = {
        {.key = 1, .rating = 1000, .name = "A", .frozen = 5},
        {.key = 2, .rating = 2000, .name = "B", .frozen = 2},
        {.key = 3, .rating = 3000, .name = "C"},
    };
    expect_order(e, 3, (const int64_t[]){2, 1, 3});
    startrank_assign(e, 0); /* nothing to do, no crash */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("startrank");
    TCase *tc = tcase_create("c04_2");
    tcase_add_test(tc, rating_first);
    tcase_add_test(tc, title_order);
    tcase_add_test(tc, names_alphabetical);
    tcase_add_test(tc, names_with_diacritics);
    tcase_add_test(tc, unrated_last_unless_estimated);
    tcase_add_test(tc, registration_breaks_full_ties);
    tcase_add_test(tc, late_entry_before_freeze_takes_its_place);
    tcase_add_test(tc, frozen_numbers_stay);
    tcase_add_test(tc, frozen_gaps_close);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
