/*
 * test_fide.c — the FIDE register (db/fide.h): small lists written by hand
 * in FIDE's formats (tests/data/fide/) give the same players whether read
 * from the combined XML, the zipped XML, the combined TXT or the three
 * single-type TXT lists merged; a newer list replaces the register; a bad
 * file is refused with FILE:LINE and leaves the register as it was; name
 * search ignores case and accents and finds Latin FIDE spellings from
 * Russian and Bulgarian Cyrillic input.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fide.h"
#include "fide_text.h"
#include "store.h"
#include "testutil.h"

static char dir[128], dbpath[192];
static Store *st;

static void setup(void)
{
    char err[256];
    testutil_tmpdir_make(dir, sizeof dir, "fide");
    snprintf(dbpath, sizeof dbpath, "%s/t.db", dir);
    ck_assert_msg(store_open(dbpath, 0, &st, err, sizeof err) == 0, "%s", err);
}

static void teardown(void)
{
    store_close(st);
    testutil_tmpdir_remove(dir);
}

static const char *data(const char *name)
{
    static char paths[4][512];
    static int k;
    const char *root = getenv("ARBITER_TEST_DATA");
    char *p = paths[k++ % 4];
    snprintf(p, 512, "%s/fide/%s", root ? root : "tests/data", name);
    return p;
}

/* Imports the named files; returns the result code, the message in ERR. */
static int import(char *err, size_t n, int nfiles, ...)
{
    const char *paths[4];
    va_list ap;
    va_start(ap, nfiles);
    for (int i = 0; i < nfiles; i++)
        paths[i] = data(va_arg(ap, const char *));
    va_end(ap);
    FideImportOptions opt = {.type = -1};
    FideImportResult res;
    err[0] = 0;
    return fide_import(st, paths, nfiles, &opt, &res, err, n);
}

static void import_ok(int nfiles, const char *a, const char *b, const char *c)
{
    char err[512];
    int rc = nfiles == 1 ? import(err, sizeof err, 1, a) : import(err, sizeof err, 3, a, b, c);
    ck_assert_msg(rc == 0, "import: %d %s", rc, err);
}

static json_t *dump(void)
{
    json_t *rows = store_rows(st, "SELECT * FROM fide_players ORDER BY fide_id", "");
    ck_assert_ptr_nonnull(rows);
    return rows;
}

static void assert_same(json_t *a, json_t *b)
{
    char *ta = json_dumps(a, JSON_SORT_KEYS), *tb = json_dumps(b, JSON_SORT_KEYS);
    ck_assert_str_eq(ta, tb);
    free(ta);
    free(tb);
}

START_TEST(xml_list_read)
{
    import_ok(1, "players_list_xml_foa.xml", NULL, NULL);
    json_t *p = fide_player(st, 2900050);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(json_string_value(json_object_get(p, "name")), "Stefanova, Antoaneta");
    ck_assert_str_eq(json_string_value(json_object_get(p, "federation")), "BUL");
    ck_assert_str_eq(json_string_value(json_object_get(p, "sex")), "F");
    ck_assert_str_eq(json_string_value(json_object_get(p, "title")), "GM");
    ck_assert_str_eq(json_string_value(json_object_get(p, "w_title")), "WGM");
    ck_assert_str_eq(json_string_value(json_object_get(p, "o_title")), "IA,FT");
    ck_assert_int_eq(json_integer_value(json_object_get(p, "std_rating")), 2466);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "std_games")), 18);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "std_k")), 20);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "birth_year")), 1979);
    ck_assert(json_is_false(json_object_get(p, "inactive")));
    json_decref(p);
    p = fide_player(st, 2905540); /* no blitz rating */
    ck_assert(json_is_null(json_object_get(p, "blitz_rating")));
    ck_assert(json_is_null(json_object_get(p, "blitz_games")));
    ck_assert(json_is_null(json_object_get(p, "blitz_k")));
    json_decref(p);
    p = fide_player(st, 2200001);
    ck_assert_str_eq(json_string_value(json_object_get(p, "name")), "Núñez, José");
    ck_assert_str_eq(json_string_value(json_object_get(p, "foa_title")), "AFM");
    ck_assert(json_is_null(json_object_get(p, "title")));
    json_decref(p);
    p = fide_player(st, 4101588);
    ck_assert(json_is_true(json_object_get(p, "inactive")));
    json_decref(p);
    ck_assert_ptr_null(fide_player(st, 1));
    json_t *info = fide_list_info(st);
    ck_assert_int_eq(json_integer_value(json_object_get(info, "players")), 11);
    ck_assert_str_eq(json_string_value(json_object_get(info, "files")), "players_list_xml_foa.xml");
    json_decref(info);
}
END_TEST

START_TEST(every_format_gives_the_same_rows)
{
    import_ok(1, "players_list_xml_foa.xml", NULL, NULL);
    json_t *xml = dump();
    ck_assert_int_eq(json_array_size(xml), 11);
    import_ok(1, "players_list_xml.zip", NULL, NULL);
    json_t *zip = dump();
    assert_same(xml, zip);
    import_ok(1, "players_list_foa.txt", NULL, NULL);
    json_t *txt = dump();
    assert_same(xml, txt);
    import_ok(3, "standard_jan25frl.txt", "rapid_jan25frl.txt", "blitz_jan25frl.txt");
    json_t *typed = dump();
    assert_same(xml, typed);
    json_t *info = fide_list_info(st);
    ck_assert_str_eq(json_string_value(json_object_get(info, "list_date")), "2025-01-01");
    json_decref(info);
    json_decref(xml);
    json_decref(zip);
    json_decref(txt);
    json_decref(typed);
}
END_TEST

START_TEST(single_type_list_alone)
{
    import_ok(1, "rapid_jan25frl.txt", NULL, NULL);
    json_t *p = fide_player(st, 2900084);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "rapid_rating")), 2691);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "rapid_games")), 3);
    ck_assert(json_is_null(json_object_get(p, "std_rating")));
    json_decref(p);
    p = fide_player(st, 2200001); /* a Latin-1 name */
    ck_assert_str_eq(json_string_value(json_object_get(p, "name")), "Núñez, José");
    json_decref(p);
}
END_TEST

START_TEST(newer_list_replaces)
{
    import_ok(1, "players_list_xml_foa.xml", NULL, NULL);
    import_ok(1, "players_newer.xml", NULL, NULL);
    ck_assert_ptr_null(fide_player(st, 45000001));
    json_t *p = fide_player(st, 34100001);
    ck_assert_ptr_nonnull(p);
    json_decref(p);
    p = fide_player(st, 2900084);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "std_rating")), 2740);
    json_decref(p);
    ck_assert_int_eq(store_int(st, 0, "SELECT count(*) FROM fide_players", ""), 11);
    /* The name index follows: the removed player is not found. */
    json_t *r = fide_search(st, "ivanova", 10);
    ck_assert_int_eq(json_array_size(r), 0);
    json_decref(r);
    r = fide_search(st, "dubov", 10);
    ck_assert_int_eq(json_array_size(r), 1);
    json_decref(r);
    /* The tables of the replaced list are gone. */
    ck_assert_int_eq(store_int(st, -1,
                               "SELECT count(*) FROM sqlite_master WHERE name GLOB 'fide_*_old*' "
                               "OR name GLOB 'fide_*_new*'",
                               ""),
                     0);
}
END_TEST

/* An import stopped half-way leaves new tables half-filled, or after the
 * swap the old ones; the next import removes both and the register is the
 * new list alone. */
START_TEST(stopped_import_cleaned_up)
{
    import_ok(1, "players_list_xml_foa.xml", NULL, NULL);
    ck_assert_int_eq(
        store_run(st, NULL, "CREATE TABLE fide_players_old AS SELECT * FROM fide_players", ""), 0);
    ck_assert_int_eq(store_run(st, NULL,
                               "CREATE VIRTUAL TABLE fide_names_new USING fts5(name, translit, "
                               "content = '')",
                               ""),
                     0);
    ck_assert_int_eq(store_run(st, NULL,
                               "INSERT INTO fide_names_new (rowid, name, translit) "
                               "VALUES (1, 'Stale', 'stale')",
                               ""),
                     0);
    import_ok(1, "players_newer.xml", NULL, NULL);
    ck_assert_int_eq(store_int(st, -1,
                               "SELECT count(*) FROM sqlite_master WHERE name GLOB 'fide_*_old*' "
                               "OR name GLOB 'fide_*_new*'",
                               ""),
                     0);
    ck_assert_int_eq(store_int(st, 0, "SELECT count(*) FROM fide_players", ""), 11);
    json_t *r = fide_search(st, "dubov", 10);
    ck_assert_int_eq(json_array_size(r), 1);
    json_decref(r);
}
END_TEST

static void refused(const char *file, const char *where)
{
    char err[512], want[600];
    ck_assert_int_eq(import(err, sizeof err, 1, file), FIDE_E_FILE);
    snprintf(want, sizeof want, "%s:%s", data(file), where);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got '%s', want '%s...'", err, want);
}

START_TEST(bad_file_leaves_register)
{
    import_ok(1, "players_list_xml_foa.xml", NULL, NULL);
    json_t *before = dump();
    refused("bad_tag.xml", "6: </nam> where </name> was expected");
    refused("standard_bad_id.txt", "8: the ID Number");
    refused("bad_cut.xml", "6: the file ends inside <playerslist>");
    refused("not_a_list.txt", "1: not a FIDE rating list");
    refused("no_such_file.xml", " cannot open");
    json_t *after = dump();
    assert_same(before, after);
    json_decref(before);
    json_decref(after);
    char err[512];
    /* A bad file among good ones: nothing of the good ones is kept. */
    ck_assert_int_eq(import(err, sizeof err, 3, "standard_jan25frl.txt", "rapid_jan25frl.txt",
                            "standard_bad_id.txt"),
                     FIDE_E_FILE);
    json_t *info = fide_list_info(st);
    ck_assert_str_eq(json_string_value(json_object_get(info, "files")), "players_list_xml_foa.xml");
    json_decref(info);
}
END_TEST

/* The FIDE IDs found for TEXT, as "id id ...". */
static const char *found(const char *text, int limit)
{
    static char out[256];
    json_t *r = fide_search(st, text, limit);
    ck_assert_ptr_nonnull(r);
    out[0] = 0;
    size_t k;
    json_t *v;
    json_array_foreach(r, k, v)
    {
        size_t o = strlen(out);
        snprintf(out + o, sizeof out - o, "%s%lld", k ? " " : "",
                 (long long)json_integer_value(json_object_get(v, "fide_id")));
    }
    json_decref(r);
    return out;
}

START_TEST(search_names)
{
    import_ok(1, "players_list_xml_foa.xml", NULL, NULL);
    /* Prefixes in alphabetical order; case and accents do not matter. */
    ck_assert_str_eq(found("topa", 10), "2900084 2901234");
    ck_assert_str_eq(found("TOPALOV", 10), "2900084 2901234");
    ck_assert_str_eq(found("topalov veselin", 10), "2900084");
    ck_assert_str_eq(found("Veselin Topalov", 10), "2900084");
    ck_assert_str_eq(found("topa", 1), "2900084");
    ck_assert_str_eq(found("nunez", 10), "2200001");
    ck_assert_str_eq(found("Núñez José", 10), "2200001");
    ck_assert_str_eq(found("NÚÑ", 10), "2200001");
    ck_assert_str_eq(found("Nepomniachtchi, I", 10), "24126055");
    /* Cyrillic, Russian and Bulgarian. */
    ck_assert_str_eq(found("Топалов", 10), "2900084 2901234");
    ck_assert_str_eq(found("Топалов Веселин", 10), "2900084");
    ck_assert_str_eq(found("Крамник", 10), "4101588");
    ck_assert_str_eq(found("крам", 10), "4101588");
    ck_assert_str_eq(found("Чепаринов", 10), "2905540");
    ck_assert_str_eq(found("Щекачев", 10), "651001");
    ck_assert_str_eq(found("Халифман Алекс", 10), "4100018");
    ck_assert_str_eq(found("Юсупов", 10), "4600606");
    ck_assert_str_eq(found("Мария Иванова", 10), "45000001");
    ck_assert_str_eq(found("Стефанова", 10), "2900050");
    /* A Cyrillic word and a Latin one together. */
    ck_assert_str_eq(found("Топалова Elitsa", 10), "2901234");
    /* FIDE IDs, and nothing. */
    ck_assert_str_eq(found("2900084", 10), "2900084");
    ck_assert_str_eq(found("99", 10), "");
    ck_assert_str_eq(found("", 10), "");
    ck_assert_str_eq(found(" ,- ", 10), "");
    ck_assert_str_eq(found("zzz", 10), "");
    ck_assert_str_eq(found("\"a\" OR b*", 10), "");
}
END_TEST

START_TEST(spelling_keys_meet)
{
    static const char *const SAME[][2] = {
        {"Евгений", "Yevgeniy"},   {"Евгений", "Evgeny"},    {"Юрий", "Iurii"},
        {"Алексей", "Alexei"},     {"Щерев", "Shterev"},     {"Христов", "Khristov"},
        {"Яковенко", "Jakovenko"}, {"Дъскалов", "Daskalov"}, {"Подъячев", "Podyachev"},
    };
    for (size_t i = 0; i < sizeof SAME / sizeof SAME[0]; i++) {
        char a[64], b[64];
        fide_text_key(SAME[i][0], a, sizeof a);
        fide_text_key(SAME[i][1], b, sizeof b);
        ck_assert_msg(strcmp(a, b) == 0, "%s -> %s, %s -> %s", SAME[i][0], a, SAME[i][1], b);
    }
    char out[64];
    int cyr = 0;
    fide_text_fold("  Šťastný-Øre,  Ærø ", out, sizeof out, &cyr);
    ck_assert_str_eq(out, "stastny ore aero");
    ck_assert_int_eq(cyr, 0);
    fide_text_fold("ПЁТР", out, sizeof out, &cyr);
    ck_assert_str_eq(out, "petr");
    ck_assert_int_eq(cyr, 1);
    /* Latin-1 bytes are read as such. */
    fide_text_utf8("N\xfa\xf1"
                   "ez",
                   5, out, sizeof out);
    ck_assert_str_eq(out, "Núñez");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fide");
    TCase *tc = tcase_create("fide");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, xml_list_read);
    tcase_add_test(tc, every_format_gives_the_same_rows);
    tcase_add_test(tc, single_type_list_alone);
    tcase_add_test(tc, newer_list_replaces);
    tcase_add_test(tc, stopped_import_cleaned_up);
    tcase_add_test(tc, bad_file_leaves_register);
    tcase_add_test(tc, search_names);
    tcase_add_test(tc, spelling_keys_meet);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
