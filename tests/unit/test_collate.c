/*
 * test_collate.c — the alphabetical order of player names.
 *
 * Outside truth: tests/data/collate/NAME.txt are lists of names in the
 * order glibc's locales give them (`LC_ALL=xx_YY.UTF-8 sort`: en_US for
 * Latin names with diacritics and for case/accent/punctuation variants,
 * ru_RU, bg_BG, uk_UA, sr_RS for Cyrillic alphabets, el_GR for Greek), with
 * one documented exception, surname_first.txt (the comma ends the surname).
 * The order must hold for every pair of a list, both ways round; the tests
 * need no locale installed.  Besides: the folds the module promises, digits
 * before letters, and a total, deterministic order on invalid UTF-8.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collate.h"
#include "testutil.h"

enum { MAX_NAMES = 200 };

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

/* Every pair of the list NAME (one name a line, '#' comments) in order. */
static int check_list(const char *name, int *count)
{
    char *text = testutil_load("collate", name, NULL);
    const char *names[MAX_NAMES];
    int n = 0, bad = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != '#' && n < MAX_NAMES)
            names[n++] = line;
    ck_assert_msg(n >= 4, "%s: %d names", name, n);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (collate_names_cmp(names[i], names[j]) >= 0 ||
                collate_names_cmp(names[j], names[i]) <= 0) {
                fprintf(stderr, "%s: \"%s\" must sort before \"%s\"\n", name, names[i], names[j]);
                bad++;
            }
    *count += n;
    free(text);
    return bad;
}

START_TEST(lists_in_order)
{
    static const char *const lists[] = {"latin.txt",     "variants.txt",  "russian.txt",
                                        "bulgarian.txt", "ukrainian.txt", "serbian.txt",
                                        "greek.txt",     "mixed.txt",     "surname_first.txt"};
    int bad = 0, names = 0;
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        bad += check_list(lists[i], &names);
    ck_assert_int_ge(names, 200);
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* ACCENTED sorts as PLAIN at the first level: a later letter decides
 * against it either way, and with nothing after it the plain one is first. */
static void same_letter(const char *plain, const char *accented)
{
    char pa[32], pb[32], aa[32], ab[32];
    snprintf(pa, sizeof pa, "%sa", plain);
    snprintf(pb, sizeof pb, "%sb", plain);
    snprintf(aa, sizeof aa, "%sa", accented);
    snprintf(ab, sizeof ab, "%sb", accented);
    ck_assert_msg(collate_names_cmp(aa, pb) < 0 && collate_names_cmp(pa, ab) < 0 &&
                      collate_names_cmp(pb, aa) > 0 && collate_names_cmp(ab, pa) > 0,
                  "%s is not folded to %s", accented, plain);
    ck_assert_msg(collate_names_cmp(plain, accented) < 0, "%s must come after %s", accented, plain);
}

START_TEST(folds)
{
    static const char *const pairs[][2] = {
        {"e", "é"},  {"o", "ö"}, {"ss", "ß"}, {"l", "ł"},  {"d", "đ"}, {"o", "ø"},
        {"ae", "æ"}, {"s", "Ş"}, {"z", "Ž"},  {"oe", "œ"}, {"i", "ı"}, {"i", "İ"},
        {"c", "č"},  {"a", "å"}, {"n", "ñ"},  {"u", "ű"},  {"g", "ğ"}, {"s", "ș"},
        {"t", "Ț"},  {"y", "ÿ"}, {"y", "Ÿ"},  {"l", "Ľ"},  {"n", "ŉ"}, {"ij", "Ĳ"},
        {"e", "ə"},  {"s", "ſ"}, {"d", "Ð"},  {"a", "ǎ"},  {"u", "ư"}, {"e", "e\xcc\x81"},
        {"е", "ё"},  {"Е", "Ё"}, {"и", "ѝ"},  {"σ", "ς"},  {"α", "ά"}, {"ι", "ΐ"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        same_letter(pairs[i][0], pairs[i][1]);
    /* Case only matters when nothing else does: lower case first. */
    same_letter("a", "A");
    same_letter("ж", "Ж");
    same_letter("ґ", "Ґ");
    same_letter("џ", "Џ");
    same_letter("é", "É");
}
END_TEST

START_TEST(letters_and_others)
{
    /* The letters that are letters of their own come after the one they
     * follow and before the next. */
    static const char *const order[][3] = {
        {"z", "þ", "α"}, {"г", "ґ", "д"}, {"д", "ђ", "е"}, {"е", "є", "ж"}, {"и", "і", "й"},
        {"і", "ї", "й"}, {"й", "ј", "к"}, {"л", "љ", "м"}, {"т", "ћ", "у"}, {"ч", "џ", "ш"},
        {"у", "ў", "ф"}, {"щ", "ъ", "ы"}, {"9", "a", "z"}, {"0", "1", "9"}, {"ω", "а", "я"},
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        ck_assert_msg(collate_names_cmp(order[i][0], order[i][1]) < 0, "%s before %s", order[i][0],
                      order[i][1]);
        ck_assert_msg(collate_names_cmp(order[i][1], order[i][2]) < 0, "%s before %s", order[i][1],
                      order[i][2]);
    }
    /* Punctuation counts after letters: "O'Brien" among the Obr's. */
    ck_assert_int_lt(collate_names_cmp("Oakes, Tom", "O'Brien, Pat"), 0);
    ck_assert_int_lt(collate_names_cmp("O'Brien, Pat", "Obrien, Sean"), 0);
    ck_assert_int_lt(collate_names_cmp("Obrien, Sean", "Ocampo, Ana"), 0);
    ck_assert_int_lt(collate_names_cmp("de Vries, Anna", "Devries, Bob"), 0);
    ck_assert_int_lt(collate_names_cmp("Dervis, Zeki", "de Vries, Anna"), 0);
    /* ... but the comma ends the surname. */
    ck_assert_int_lt(collate_names_cmp("Li, Wei", "Lie, Anna"), 0);
    ck_assert_int_lt(collate_names_cmp("Li", "Li, Wei"), 0);
    /* Other characters after all letters, by code point; equal strings. */
    ck_assert_int_lt(collate_names_cmp("я", "\xe4\xb8\x81"), 0);
    ck_assert_int_eq(collate_names_cmp("Carlsen, Magnus", "Carlsen, Magnus"), 0);
    ck_assert_int_eq(collate_names_cmp(NULL, ""), 0);
    ck_assert_int_lt(collate_names_cmp(NULL, "a"), 0);
    ck_assert_int_gt(collate_names_cmp("a", NULL), 0);
}
END_TEST

/* A deterministic pool of names from fragments: letters, diacritics,
 * punctuation, Cyrillic, and malformed UTF-8 of every kind. */
enum { POOL = 400 };

static const char *const FRAGMENTS[] = {
    "a",
    "B",
    "é",
    "É",
    "ß",
    "ss",
    "o",
    "ö",
    "Ö",
    "'",
    " ",
    "-",
    ",",
    "ё",
    "е",
    "Я",
    "1",
    "\xcc\x81",         /* combining acute */
    "\xff",             /* never in UTF-8 */
    "\x80",             /* a lone continuation byte */
    "\xc3",             /* a sequence cut short */
    "\xc0\xaf",         /* overlong '/' */
    "\xed\xa0\x80",     /* a surrogate */
    "\xf4\x90\x80\x80", /* beyond U+10FFFF */
    "\xe2\x82",         /* cut short */
    "\x01",
};

static unsigned next_rand(unsigned *x)
{
    *x = *x * 1103515245u + 12345u;
    return (*x >> 16) & 0x7fff;
}

static int cmp_pool(const void *a, const void *b)
{
    return collate_names_cmp(*(const char *const *)a, *(const char *const *)b);
}

START_TEST(total_order_on_any_bytes)
{
    static char pool[POOL][48];
    const char *p[POOL];
    unsigned seed = 20261129;
    size_t nf = sizeof FRAGMENTS / sizeof FRAGMENTS[0];
    for (int i = 0; i < POOL; i++) {
        pool[i][0] = 0;
        int len = 1 + (int)(next_rand(&seed) % 5);
        for (int k = 0; k < len; k++)
            strcat(pool[i], FRAGMENTS[next_rand(&seed) % nf]);
        p[i] = pool[i];
    }
    qsort(p, POOL, sizeof *p, cmp_pool);
    /* Sorted, every pair agrees with the order both ways round, and only
     * equal strings compare equal. */
    for (int i = 0; i < POOL; i++)
        for (int j = i; j < POOL; j++) {
            int c = collate_names_cmp(p[i], p[j]), d = collate_names_cmp(p[j], p[i]);
            ck_assert_int_eq(sign(c), -sign(d));
            ck_assert_int_eq(c == 0, strcmp(p[i], p[j]) == 0);
            ck_assert_msg(c <= 0, "not sorted at %d, %d", i, j);
        }
    /* Malformed bytes sort after every character, one by one. */
    ck_assert_int_gt(collate_names_cmp("a\xff", "a\xe4\xb8\x81"), 0);
    ck_assert_int_gt(collate_names_cmp("a\x80", "aя"), 0);
    ck_assert_int_lt(collate_names_cmp("a\x80", "a\xff"), 0);
    ck_assert_int_lt(collate_names_cmp("\xc3", "\xc3\x28"), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collate");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, lists_in_order);
    tcase_add_test(tc, folds);
    tcase_add_test(tc, letters_and_others);
    tcase_add_test(tc, total_order_on_any_bytes);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
