/*
 * test_export.c — the rendering of the printed lists (server/export.c) on
 * hand-made data: alphabetical order as the Russian and Bulgarian alphabets
 * and dictionaries have it, RFC 4180 quoting, the spreadsheet-formula guard,
 * HTML escaping, numbers, the refusal of unknown formats and languages, and
 * that every word of a page is the text web/i18n/<lang>.json has for it.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "testutil.h"

/* A pairing list with one bye per name (no boards), so every name is one
 * entry of the alphabetical list. */
static json_t *list_of(const char *const *names, int n)
{
    json_t *byes = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(byes,
                              json_pack("{s:s,s:{s:i,s:i,s:s,s:f}}", "kind", "half", "player", "id",
                                        i + 1, "tpn", i + 1, "name", names[i], "points", 0.0));
    return json_pack("{s:{s:s},s:i,s:s,s:[],s:o}", "tournament", "name", "T", "round", 1, "status",
                     "pending", "boards", "byes", byes);
}

/* The names of the alphabetical list of NAMES (given in shuffled order)
 * must come out as WANT. */
static void check_order(const char *const *names, const char *const *want, int n)
{
    json_t *pl = list_of(names, n);
    json_t *alpha = export_pairings_alpha(pl);
    ck_assert_ptr_nonnull(alpha);
    ck_assert_int_eq(json_array_size(alpha), n);
    for (int i = 0; i < n; i++) {
        const char *got = json_string_value(
            json_object_get(json_object_get(json_array_get(alpha, (size_t)i), "player"), "name"));
        ck_assert_msg(strcmp(got, want[i]) == 0, "place %d: %s, expected %s", i + 1, got, want[i]);
    }
    json_decref(alpha);
    json_decref(pl);
}

START_TEST(alphabet_order)
{
    /* One name per letter of the Russian alphabet (Ё aside: dictionaries
     * sort it with Е, below) and of the Bulgarian one (no Ё, Ы, Э), upper
     * or lower case, fed in a scrambled order. */
    static const char RU[] = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ";
    static const char BG[] = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯ";
    const char *alphabets[] = {RU, BG};
    for (int a = 0; a < 2; a++) {
        char names[40][16];
        const char *want[40], *given[40];
        int n = 0;
        for (const char *p = alphabets[a]; *p; p += 2, n++) {
            /* The letter, then "ов"; every third name in lower case. */
            unsigned char c0 = (unsigned char)p[0], c1 = (unsigned char)p[1];
            if (n % 3 == 2) {
                unsigned cp = ((c0 & 0x1fu) << 6 | (c1 & 0x3fu)) + 0x20;
                c0 = (unsigned char)(0xc0 | cp >> 6);
                c1 = (unsigned char)(0x80 | (cp & 0x3f));
            }
            snprintf(names[n], sizeof names[n], "%c%cов", c0, c1);
            want[n] = names[n];
        }
        for (int i = 0; i < n; i++)
            given[i] = want[(i * 7 + 3) % n]; /* 7 is prime to 32 and 30: a permutation */
        check_order(given, want, n);
    }
    /* Dictionaries sort Ё with Е, and Latin names without regard to case. */
    const char *ru_given[] = {"Ершов", "Ёлкин", "Елисеев"};
    const char *ru_want[] = {"Елисеев", "Ёлкин", "Ершов"};
    check_order(ru_given, ru_want, 3);
    const char *latin_given[] = {"Firouzja, Alireza", "de Vries, Anna", "Carlsen, Magnus",
                                 "Ding, Liren"};
    const char *latin_want[] = {"Carlsen, Magnus", "de Vries, Anna", "Ding, Liren",
                                "Firouzja, Alireza"};
    check_order(latin_given, latin_want, 4);
    /* Diacritics fold to the letter (Ö among the O's, Ł among the L's),
     * Cyrillic after Latin. */
    const char *mixed_given[] = {"Zoltan, B",    "Ödön, A",   "Łukasz, Jan",
                                 "Иванов, Иван", "Lyon, Tom", "Oakes, Ann"};
    const char *mixed_want[] = {"Łukasz, Jan", "Lyon, Tom", "Oakes, Ann",
                                "Ödön, A",     "Zoltan, B", "Иванов, Иван"};
    check_order(mixed_given, mixed_want, 6);
}
END_TEST

/* A crosstable of one row with NAME and POINTS. */
static json_t *table_of(const char *name, double points)
{
    return json_pack("{s:{s:s},s:i,s:[s],s:[{s:i,s:i,s:{s:s,s:s,s:s,s:i},s:f,s:{s:f},"
                     "s:[{s:s}]}]}",
                     "tournament", "name", "A <b>&\"'", "after_round", 1, "tiebreaks", "SB", "rows",
                     "rank", 1, "tpn", 1, "player", "name", name, "title", "GM", "federation",
                     "BUL", "rating", 2500, "points", points, "tiebreaks", "SB", 26.25, "results",
                     "text", "2w1");
}

/* The CSV's second line for a player NAME. */
static void csv_row(const char *name, double points, char *out, size_t n)
{
    json_t *ct = table_of(name, points);
    size_t len = 0;
    char *text = export_crosstable(ct, EXPORT_CSV, EXPORT_EN, 1, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(strlen(text), len);
    ck_assert_int_eq(memcmp(text, "\xef\xbb\xbf", 3), 0);
    const char *row = strstr(text, "\r\n");
    ck_assert_ptr_nonnull(row);
    snprintf(out, n, "%s", row + 2);
    free(text);
    json_decref(ct);
}

START_TEST(csv_quoting_and_guard)
{
    char row[256];
    struct {
        const char *name, *want;
    } t[] = {
        /* RFC 4180: a field with a comma, a quote or a line end is quoted,
         * quotes inside are doubled. */
        {"Carlsen, Magnus", "1,1,GM,\"Carlsen, Magnus\",BUL,2500,2w1,3.5,26.25\r\n"},
        {"Say \"hi\"", "1,1,GM,\"Say \"\"hi\"\"\",BUL,2500,2w1,3.5,26.25\r\n"},
        {"Two\r\nlines", "1,1,GM,\"Two\r\nlines\",BUL,2500,2w1,3.5,26.25\r\n"},
        /* What a spreadsheet would run as a formula is shown as text. */
        {"=1+1", "1,1,GM,'=1+1,BUL,2500,2w1,3.5,26.25\r\n"},
        {"+49 1", "1,1,GM,'+49 1,BUL,2500,2w1,3.5,26.25\r\n"},
        {"-2", "1,1,GM,'-2,BUL,2500,2w1,3.5,26.25\r\n"},
        {"@SUM(A1)", "1,1,GM,'@SUM(A1),BUL,2500,2w1,3.5,26.25\r\n"},
        {"=HYPERLINK(\"x\",\"y\")", "1,1,GM,\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",BUL,2500,2w1,"
                                    "3.5,26.25\r\n"},
        {"Plain", "1,1,GM,Plain,BUL,2500,2w1,3.5,26.25\r\n"},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        csv_row(t[i].name, 3.5, row, sizeof row);
        ck_assert_str_eq(row, t[i].want);
    }
    csv_row("X", 3.0, row, sizeof row);
    ck_assert_str_eq(row, "1,1,GM,X,BUL,2500,2w1,3,26.25\r\n");
}
END_TEST

START_TEST(html_escapes_everything)
{
    json_t *ct = table_of("<script>alert('x')</script> & \"co\"", 1);
    size_t len = 0;
    char *text = export_crosstable(ct, EXPORT_HTML, EXPORT_EN, 1, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_null(strstr(text, "<script"));
    ck_assert_ptr_nonnull(
        strstr(text, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"));
    ck_assert_ptr_nonnull(strstr(text, "<title>A &lt;b&gt;&amp;&quot;&#39; \xe2\x80\x94 "));
    /* The page's one style is export_css, byte for byte (its hash is the policy). */
    char style[4096];
    snprintf(style, sizeof style, "<style>%s</style>", export_css);
    ck_assert_ptr_nonnull(strstr(text, style));
    free(text);
    text = export_crosstable(ct, EXPORT_HTML, EXPORT_RU, 1, &len);
    ck_assert_ptr_nonnull(strstr(text, "<html lang=\"ru\">"));
    ck_assert_ptr_nonnull(strstr(text, "Турнирная таблица после 1-го тура"));
    free(text);
    json_decref(ct);
}
END_TEST

START_TEST(formats_and_languages)
{
    ExportFormat f;
    ExportLang l;
    ck_assert_int_eq(export_format_parse(NULL, &f), 0);
    ck_assert_int_eq(f, EXPORT_JSON);
    ck_assert_int_eq(export_format_parse("csv", &f), 0);
    ck_assert_int_eq(f, EXPORT_CSV);
    ck_assert_int_eq(export_format_parse("html", &f), 0);
    ck_assert_int_eq(f, EXPORT_HTML);
    ck_assert_int_eq(export_format_parse("CSV", &f), -1);
    ck_assert_int_eq(export_format_parse("", &f), -1);
    ck_assert_int_eq(export_lang_parse("bg", &l), 0);
    ck_assert_int_eq(l, EXPORT_BG);
    ck_assert_int_eq(export_lang_parse("de", &l), -1);
}
END_TEST

/* ---- the pages' words are the translation files' words ---- */

/* web/i18n/<CODE>.json of the source tree, parsed (caller owns). */
static json_t *translations(const char *code)
{
    const char *data = getenv("ARBITER_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/../../web/i18n/%s.json", data ? data : "tests/data", code);
    json_error_t err;
    json_t *d = json_load_file(path, 0, &err);
    ck_assert_msg(d != NULL, "%s: %s", path, err.text);
    return d;
}

/* The text of KEY in D, HTML-escaped as the page escapes it, with {n} (if
 * any) replaced by N, into OUT. */
static void word(json_t *d, const char *key, long long n, char *out, size_t cap)
{
    const char *s = json_string_value(json_object_get(d, key));
    ck_assert_msg(s != NULL, "no text for %s", key);
    char num[24];
    snprintf(num, sizeof num, "%lld", n);
    size_t k = 0;
    for (; *s; s++) {
        const char *rep = NULL;
        char one[2] = {*s, 0};
        if (strncmp(s, "{n}", 3) == 0) {
            rep = num;
            s += 2;
        } else if (*s == '&') {
            rep = "&amp;";
        } else if (*s == '<') {
            rep = "&lt;";
        } else if (*s == '>') {
            rep = "&gt;";
        } else if (*s == '"') {
            rep = "&quot;";
        } else if (*s == '\'') {
            rep = "&#39;";
        } else {
            rep = one;
        }
        size_t m = strlen(rep);
        ck_assert_uint_lt(k + m, cap);
        memcpy(out + k, rep, m);
        k += m;
    }
    out[k] = 0;
}

/* Writes to OUT the text FMT with each %s or %d replaced by the word (of D,
 * escaped, {n} as N) of the next key among the arguments after FMT. */
static void expect(char *out, size_t cap, json_t *d, long long n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t k = 0;
    char w[2048];
    out[0] = 0;
    for (const char *f = fmt; *f; f++) {
        if (f[0] == '%' && (f[1] == 's' || f[1] == 'd')) {
            word(d, va_arg(ap, const char *), n, w, sizeof w);
            f++;
        } else {
            w[0] = *f;
            w[1] = 0;
        }
        size_t m = strlen(w);
        ck_assert_uint_lt(k + m, cap);
        memcpy(out + k, w, m + 1);
        k += m;
    }
    va_end(ap);
}

/* TEXT must contain WANT. */
static void has(const char *text, const char *want, const char *lang)
{
    ck_assert_msg(strstr(text, want) != NULL, "%s page lacks: %s", lang, want);
}

START_TEST(page_words_are_the_translations)
{
    /* Every word of every printed page, in each language, is the text the
     * pages' translation file has for it: the lists and the pages cannot
     * drift apart.  The pairing list has a board and one bye of each kind. */
    static const char *const codes[EXPORT_LANGS] = {"en", "ru", "bg"};
    json_t *pl = json_loads(
        "{\"tournament\":{\"name\":\"T\"},\"round\":3,\"status\":\"pending\",\"boards\":["
        "{\"board\":1,\"white\":{\"name\":\"W\",\"tpn\":1,\"points\":1},"
        "\"black\":{\"name\":\"B\",\"tpn\":2,\"points\":1},\"result\":\"*\"}],\"byes\":["
        "{\"kind\":\"pab\",\"player\":{\"name\":\"C\",\"tpn\":3}},"
        "{\"kind\":\"half\",\"player\":{\"name\":\"D\",\"tpn\":4}},"
        "{\"kind\":\"zero\",\"player\":{\"name\":\"E\",\"tpn\":5}},"
        "{\"kind\":\"free\",\"player\":{\"name\":\"F\",\"tpn\":6}}]}",
        0, NULL);
    ck_assert_ptr_nonnull(pl);
    json_t *ct = table_of("X", 1);
    json_t *none = json_pack("{s:{s:s},s:i,s:[],s:[]}", "tournament", "name", "T", "after_round", 0,
                             "tiebreaks", "rows");
    json_t *en = translations("en");
    static const char *const byes[] = {"print.bye_pab", "print.bye_half", "print.bye_zero",
                                       "print.bye_free"};
    char want[8192], lang_attr[64];
    for (int l = 0; l < EXPORT_LANGS; l++) {
        json_t *d = translations(codes[l]);
        const char *c = codes[l];
        size_t len;
        snprintf(lang_attr, sizeof lang_attr, "<html lang=\"%s\">", c);

        /* Crosstable after round 1: title, heads, legend. */
        char *text = export_crosstable(ct, EXPORT_HTML, (ExportLang)l, 1, &len);
        ck_assert_ptr_nonnull(text);
        has(text, lang_attr, c);
        expect(want, sizeof want, d, 1, "<p class=\"sub\">%s %d</p>", "view.crosstable",
               "print.after");
        has(text, want, c);
        expect(want, sizeof want, d, 0,
               "<thead><tr><th class=\"n\">%s</th><th class=\"n\">%s</th><th></th><th>%s</th>"
               "<th>%s</th><th class=\"n\">%s</th><th class=\"c\">1</th><th class=\"n\">%s</th>"
               "<th class=\"n\">SB</th></tr></thead>",
               "print.rank", "print.no", "print.name", "print.federation", "print.rating",
               "print.points");
        has(text, want, c);
        expect(want, sizeof want, d, 0, "<p class=\"legend\">%s</p>", "print.legend_crosstable");
        has(text, want, c);
        free(text);

        /* Standings, after a round and before any. */
        text = export_crosstable(ct, EXPORT_HTML, (ExportLang)l, 0, &len);
        ck_assert_ptr_nonnull(text);
        expect(want, sizeof want, d, 1, "<p class=\"sub\">%s %d</p>", "view.standings",
               "print.after");
        has(text, want, c);
        free(text);
        text = export_crosstable(none, EXPORT_HTML, (ExportLang)l, 0, &len);
        ck_assert_ptr_nonnull(text);
        expect(want, sizeof want, d, 0, "<p class=\"sub\">%s %s</p>", "view.standings",
               "print.no_results");
        has(text, want, c);
        free(text);

        /* Pairings by board: title, heads, a bye of each kind, legend. */
        text = export_pairings(pl, EXPORT_HTML, (ExportLang)l, 0, &len);
        ck_assert_ptr_nonnull(text);
        has(text, lang_attr, c);
        expect(want, sizeof want, d, 3, "<p class=\"sub\">%d</p>", "print.pairings");
        has(text, want, c);
        expect(want, sizeof want, d, 0,
               "<thead><tr><th class=\"n\">%s</th><th class=\"n\">%s</th><th>%s</th>"
               "<th class=\"n\">%s</th><th class=\"n\">%s</th><th class=\"c\">%s</th>"
               "<th class=\"n\">%s</th><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th>"
               "</tr></thead>",
               "print.board", "print.no", "colour.white", "print.rating", "print.points",
               "view.result", "print.points", "colour.black", "print.rating", "print.no");
        has(text, want, c);
        for (int k = 0; k < 4; k++) {
            expect(want, sizeof want, d, 0, "<td class=\"c\">%s</td>", byes[k]);
            has(text, want, c);
        }
        expect(want, sizeof want, d, 0, "<p class=\"legend\">%s</p>", "print.legend_points");
        has(text, want, c);
        free(text);

        /* Alphabetical: title, heads, both colours, a bye of each kind. */
        text = export_pairings(pl, EXPORT_HTML, (ExportLang)l, 1, &len);
        ck_assert_ptr_nonnull(text);
        expect(want, sizeof want, d, 3, "<p class=\"sub\">%d, %s</p>", "print.pairings",
               "print.alpha");
        has(text, want, c);
        expect(want, sizeof want, d, 0,
               "<thead><tr><th>%s</th><th class=\"n\">%s</th><th class=\"n\">%s</th>"
               "<th class=\"n\">%s</th><th class=\"c\">%s</th><th>%s</th></tr></thead>",
               "print.name", "print.no", "print.points", "print.board", "print.colour",
               "print.opponent");
        has(text, want, c);
        expect(want, sizeof want, d, 0, "<td class=\"c\">%s</td>", "colour.white");
        has(text, want, c);
        expect(want, sizeof want, d, 0, "<td class=\"c\">%s</td>", "colour.black");
        has(text, want, c);
        for (int k = 0; k < 4; k++) {
            expect(want, sizeof want, d, 0, "<td>%s</td>", byes[k]);
            has(text, want, c);
        }
        expect(want, sizeof want, d, 0, "<p class=\"legend\">%s</p>", "print.legend_points");
        has(text, want, c);
        free(text);

        /* CSV keeps the English words in every language. */
        text = export_pairings(pl, EXPORT_CSV, (ExportLang)l, 0, &len);
        ck_assert_ptr_nonnull(text);
        for (int k = 0; k < 4; k++) {
            expect(want, sizeof want, en, 0, ",%s,", byes[k]);
            has(text, want, c);
        }
        free(text);
        json_decref(d);
    }
    json_decref(en);
    json_decref(none);
    json_decref(ct);
    json_decref(pl);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("export");
    tcase_add_test(tc, alphabet_order);
    tcase_add_test(tc, csv_quoting_and_guard);
    tcase_add_test(tc, html_escapes_everything);
    tcase_add_test(tc, formats_and_languages);
    tcase_add_test(tc, page_words_are_the_translations);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
