/*
 * test_http_export.c — the printable and downloadable lists of a real
 * daemon: crosstable, standings and pairing lists as HTML, CSV and JSON.
 *
 * Outside truths: a round robin published with FIDE's TieBreakServer
 * (tests/data/tiebreak/tbs-rr-10.trf) is played again through the API,
 * game by game; every crosstable cell must then be the file's own round
 * column (opponent, colour, result, forfeits), the points its points
 * column, and the ranks and tie-breaks the values TieBreakServer printed
 * (tbs-rr-10-2023.csv).  The HTML page's style is allowed by the hash
 * coreutils' sha256sum gives.  A Swiss event paired by the server checks
 * the pairing lists against the games and byes the API reported and the
 * points this test adds up itself.  The CSV answers are read back with a
 * strict RFC 4180 reader written here.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collate.h"
#include "harness.h"
#include "trf.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* POST/PATCH with a body built by json_pack (taken). */
static Resp *send_json(const char *method, json_t *body, const char *path)
{
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    Resp *r = req(&D, &arb, method, path, text);
    free(text);
    return r;
}

static int64_t add_player(int64_t tid, const char *name, int rating)
{
    char path[96];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/players", (long long)tid);
    Resp *r = send_json("POST", json_pack("{s:s,s:i}", "name", name, "rating", rating), path);
    ck_assert_msg(r->status == 201, "player %s: %s", name, r->body);
    int64_t id = jint(json_object_get(r->json, "credentials"), "player_id");
    resp_free(r);
    return id;
}

static int64_t new_tournament(const char *name, const char *patch_json)
{
    Resp *r = send_json("POST", json_pack("{s:s,s:s}", "name", name, "time_control", "60"),
                        "/api/v1/tournaments");
    ck_assert_msg(r->status == 201, "%s", r->body);
    int64_t tid = jint(r->json, "id");
    resp_free(r);
    r = reqf(&D, &arb, "PATCH", patch_json, "/api/v1/tournaments/%lld", (long long)tid);
    ck_assert_msg(r->status == 200, "%s", r->body);
    resp_free(r);
    return tid;
}

static void start_round(int64_t tid, int64_t rn)
{
    Resp *r = reqf(&D, &arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%lld/start",
                   (long long)tid, (long long)rn);
    ck_assert_msg(r->status == 200, "start: %s", r->body);
    resp_free(r);
}

/* The arbiter sets game GID's result from White's TRF result character. */
static void set_result(int64_t gid, char white)
{
    const char *body = white == '1'   ? "{\"white\":1,\"black\":0}"
                       : white == '0' ? "{\"white\":0,\"black\":1}"
                       : white == '=' ? "{\"white\":0.5,\"black\":0.5}"
                       : white == '+' ? "{\"white\":1,\"black\":0,\"forfeit\":true}"
                                      : "{\"white\":0,\"black\":1,\"forfeit\":true}";
    Resp *r = reqf(&D, &arb, "POST", body, "/api/v1/games/%lld/arbiter/result", (long long)gid);
    ck_assert_msg(r->status == 200, "result: %s", r->body);
    resp_free(r);
}

/* ---- a strict RFC 4180 reader ---- */

enum { CSV_ROWS = 64, CSV_COLS = 48 };
typedef struct Csv {
    int rows;
    int cols[CSV_ROWS];
    char *cell[CSV_ROWS][CSV_COLS];
} Csv;

/* Reads TEXT: an optional UTF-8 byte order mark, then records ending in
 * CRLF; a quoted field may hold commas, CRLF and doubled quotes; a quote
 * in an unquoted field or a bare CR or LF fails the test. */
static void csv_read(const char *s, size_t n, Csv *c)
{
    memset(c, 0, sizeof *c);
    size_t i = 0;
    if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    while (i < n) {
        ck_assert_int_lt(c->rows, CSV_ROWS);
        int row = c->rows++;
        for (;;) {
            char *f = malloc(n + 1);
            size_t k = 0;
            if (s[i] == '"') {
                for (i++;; i++) {
                    ck_assert_msg(i < n, "row %d: a quoted field does not end", row + 1);
                    if (s[i] == '"') {
                        if (i + 1 < n && s[i + 1] == '"') {
                            f[k++] = '"';
                            i++;
                            continue;
                        }
                        i++;
                        break;
                    }
                    f[k++] = s[i];
                }
            } else {
                for (; i < n && s[i] != ',' && s[i] != '\r'; i++) {
                    ck_assert_msg(s[i] != '"' && s[i] != '\n',
                                  "row %d: a quote or line feed in an unquoted field", row + 1);
                    f[k++] = s[i];
                }
            }
            f[k] = 0;
            ck_assert_int_lt(c->cols[row], CSV_COLS);
            c->cell[row][c->cols[row]++] = f;
            if (i < n && s[i] == ',') {
                i++;
                continue;
            }
            ck_assert_msg(i + 1 < n && s[i] == '\r' && s[i + 1] == '\n',
                          "row %d does not end in CRLF", row + 1);
            i += 2;
            break;
        }
    }
}

static void csv_free(Csv *c)
{
    for (int r = 0; r < c->rows; r++)
        for (int k = 0; k < c->cols[r]; k++)
            free(c->cell[r][k]);
}

/* Column of header NAME, -1 if none. */
static int csv_col(const Csv *c, const char *name)
{
    for (int k = 0; c->rows && k < c->cols[0]; k++)
        if (strcmp(c->cell[0][k], name) == 0)
            return k;
    return -1;
}

/* ---- helpers on answers ---- */

static void header_of(const Resp *r, const char *name, char *out, size_t n)
{
    out[0] = 0;
    char key[80];
    snprintf(key, sizeof key, "\n%s: ", name);
    const char *p = strcasestr(r->headers, key);
    if (p) {
        p += strlen(key);
        snprintf(out, n, "%.*s", (int)strcspn(p, "\r\n"), p);
    }
}

/* The base64 of the SHA-256 of LEN bytes of TEXT, by coreutils' sha256sum. */
static void sha256_b64(const char *text, size_t len, char *out)
{
    char path[400], cmd[512], hex[80] = "";
    snprintf(path, sizeof path, "%s/style.css", D.dir);
    testutil_write(path, text, len);
    snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(fgets(hex, sizeof hex, p));
    ck_assert_int_eq(pclose(p), 0);
    unsigned char bin[33] = {0};
    for (int i = 0; i < 32; i++) {
        unsigned v;
        ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        bin[i] = (unsigned char)v;
    }
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (int i = 0; i < 32; i += 3) {
        unsigned v = (unsigned)bin[i] << 16 | (i + 1 < 32 ? (unsigned)bin[i + 1] << 8 : 0) |
                     (i + 2 < 32 ? bin[i + 2] : 0);
        out[o++] = A[v >> 18 & 63];
        out[o++] = A[v >> 12 & 63];
        out[o++] = i + 1 < 32 ? A[v >> 6 & 63] : '=';
        out[o++] = i + 2 < 32 ? A[v & 63] : '=';
    }
    out[o] = 0;
}

/* An HTML answer: a whole page, UTF-8, no script, its one style allowed
 * by hash and nothing else allowed. */
static void check_html_page(const Resp *r)
{
    char v[1024];
    ck_assert_int_eq(r->status, 200);
    header_of(r, "Content-Type", v, sizeof v);
    ck_assert_str_eq(v, "text/html; charset=utf-8");
    header_of(r, "Content-Disposition", v, sizeof v);
    ck_assert_msg(strstr(v, "filename=\"") && strstr(v, ".html\""), "disposition %s", v);
    ck_assert_ptr_nonnull(strstr(r->body, "<!DOCTYPE html>"));
    ck_assert_ptr_nonnull(strstr(r->body, "<meta charset=\"utf-8\">"));
    ck_assert_ptr_nonnull(strstr(r->body, "</html>"));
    ck_assert_ptr_null(strcasestr(r->body, "<script"));
    const char *a = strstr(r->body, "<style>"), *b = strstr(r->body, "</style>");
    ck_assert(a && b && b > a);
    a += strlen("<style>");
    ck_assert_ptr_null(strstr(b + 1, "<style")); /* one style only */
    ck_assert_ptr_null(strstr(r->body, " style=\""));
    char b64[48], want[80];
    sha256_b64(a, (size_t)(b - a), b64);
    snprintf(want, sizeof want, "style-src 'sha256-%s'", b64);
    header_of(r, "Content-Security-Policy", v, sizeof v);
    ck_assert_msg(strstr(v, want) != NULL, "policy %s lacks %s", v, want);
    ck_assert_ptr_nonnull(strstr(v, "default-src 'none'"));
    ck_assert_ptr_null(strstr(v, "unsafe"));
    ck_assert_ptr_null(strstr(v, "script-src"));
}

static void check_csv_headers(const Resp *r, const char *filename)
{
    char v[256];
    ck_assert_int_eq(r->status, 200);
    header_of(r, "Content-Type", v, sizeof v);
    ck_assert_ptr_nonnull(strstr(v, "text/csv"));
    ck_assert_ptr_nonnull(strstr(v, "charset=utf-8"));
    header_of(r, "Content-Disposition", v, sizeof v);
    char want[128];
    snprintf(want, sizeof want, "attachment; filename=\"%s\"", filename);
    ck_assert_str_eq(v, want);
}

static void check_error(const char *path, long status, const char *code)
{
    Resp *r = req(&D, NULL, "GET", path, NULL);
    ck_assert_msg(r->status == status, "%s: %ld %s", path, r->status, r->body);
    ck_assert_str_eq(resp_code(r), code);
    ck_assert_ptr_nonnull(json_object_get(json_object_get(r->json, "error"), "message"));
    resp_free(r);
}

/* "½" for the TRF's '=', the character itself otherwise. */
static const char *trf_result(char c)
{
    static char one[2];
    if (c == '=')
        return "\xc2\xbd";
    one[0] = c;
    return one;
}

/* ---- the published round robin ---- */

/* TieBreakServer's expected value of column COL for start number SNO. */
static double expected(const Csv *x, int sno, const char *col)
{
    int k = csv_col(x, col), sk = csv_col(x, "sno");
    ck_assert_msg(k >= 0, "no column %s", col);
    for (int r = 1; r < x->rows; r++)
        if (atoi(x->cell[r][sk]) == sno)
            return atof(x->cell[r][k]);
    ck_abort_msg("no start number %d", sno);
    return 0;
}

/* The expectations file without its comment lines, as CSV. */
static void read_expectations(const char *topic, const char *name, Csv *x)
{
    size_t n;
    char *text = testutil_load(topic, name, &n);
    char *clean = malloc(2 * n + 2);
    size_t k = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        size_t l = strcspn(line, "\r");
        memcpy(clean + k, line, l);
        k += l;
        clean[k++] = '\r';
        clean[k++] = '\n';
    }
    csv_read(clean, k, x);
    free(clean);
    free(text);
}

START_TEST(round_robin_as_published)
{
    size_t len;
    char *text = testutil_load("tiebreak", "tbs-rr-10.trf", &len);
    Tournament *t = NULL;
    TrfError e;
    ck_assert_msg(trf_read(text, len, 0, &t, &e) == 0, "TRF line %d: %s", e.line, e.message);
    free(text);
    Csv x;
    read_expectations("tiebreak", "tbs-rr-10-2023.csv", &x);

    /* The published event: a round robin under the 2023 tie-break rules. */
    const char *tname = "R&R <10> \"open\"";
    int64_t tid = new_tournament(tname, "{\"system\":\"roundrobin\",\"rounds\":9,"
                                        "\"start_date\":\"2025-06-01\","
                                        "\"tiebreaks\":\"BH/C1,BH,SB,DE,WIN,ARO\"}");
    int np = t->n_players;
    int64_t pid[16] = {0};
    for (int i = 0; i < np; i++)
        pid[t->players[i].id] = add_player(tid, t->players[i].name, t->players[i].rating);
    /* Each round as the file pairs it, each game with the file's result. */
    for (int rn = 1; rn <= t->rounds_played; rn++) {
        json_t *pairings = json_array();
        char res[16] = "";
        int k = 0;
        for (int i = 0; i < np; i++) {
            const TrnPlayer *p = &t->players[i];
            const TrnGame *g = &p->games[rn - 1];
            if (g->opponent && g->colour == TRN_WHITE) {
                json_array_append_new(pairings,
                                      json_pack("{s:I,s:I}", "white_id", (json_int_t)pid[p->id],
                                                "black_id", (json_int_t)pid[g->opponent]));
                res[k++] = g->result;
            }
        }
        char path[96];
        snprintf(path, sizeof path, "/api/v1/tournaments/%lld/rounds", (long long)tid);
        Resp *r =
            send_json("POST", json_pack("{s:o,s:b}", "pairings", pairings, "publish", 1), path);
        ck_assert_msg(r->status == 201, "round %d: %s", rn, r->body);
        json_t *games = json_object_get(r->json, "games");
        ck_assert_int_eq(json_array_size(games), k);
        start_round(tid, rn);
        for (int i = 0; i < k; i++)
            set_result(jint(json_array_get(games, (size_t)i), "id"), res[i]);
        resp_free(r);
    }

    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable?format=json",
                   (long long)tid);
    ck_assert_int_eq(r->status, 200);
    json_t *ct = r->json, *rows = json_object_get(ct, "rows");
    ck_assert_int_eq(jint(ct, "after_round"), t->rounds_played);
    ck_assert_int_eq(json_array_size(rows), np);
    json_t *tbs = json_object_get(ct, "tiebreaks");
    ck_assert_int_eq(json_array_size(tbs), 6);
    ck_assert_str_eq(json_string_value(json_array_get(tbs, 0)), "BH/C1");
    /* Start number on the server -> the file's player, by name. */
    const TrnPlayer *of_tpn[16] = {0};
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        int tpn = (int)jint(row, "tpn");
        ck_assert(tpn >= 1 && tpn <= np && !of_tpn[tpn]);
        for (int k = 0; k < np; k++)
            if (!strcmp(t->players[k].name, jstr(json_object_get(row, "player"), "name")))
                of_tpn[tpn] = &t->players[k];
        ck_assert_ptr_nonnull(of_tpn[tpn]);
    }
    int cells = 0;
    json_array_foreach(rows, i, row)
    {
        const TrnPlayer *p = of_tpn[jint(row, "tpn")];
        json_t *res = json_object_get(row, "results");
        ck_assert_int_eq(json_array_size(res), t->rounds_played);
        for (int rn = 1; rn <= t->rounds_played; rn++) {
            const TrnGame *g = &p->games[rn - 1];
            json_t *c = json_array_get(res, (size_t)rn - 1);
            ck_assert_int_eq(jint(c, "round"), rn);
            const TrnPlayer *opp = of_tpn[jint(c, "opponent")];
            ck_assert_msg(opp && opp->id == g->opponent, "%s round %d: opponent %lld", p->name, rn,
                          (long long)jint(c, "opponent"));
            ck_assert_str_eq(jstr(c, "colour"), g->colour == TRN_WHITE ? "w" : "b");
            ck_assert_msg(!strcmp(jstr(c, "result"), trf_result(g->result)),
                          "%s round %d: %s, the file says %c", p->name, rn, jstr(c, "result"),
                          g->result);
            ck_assert_str_eq(jstr(c, "kind"),
                             g->result == '+' || g->result == '-' ? "forfeit" : "game");
            char want[32];
            snprintf(want, sizeof want, "%lld%s%s", (long long)jint(c, "opponent"),
                     jstr(c, "colour"), trf_result(g->result));
            ck_assert_str_eq(jstr(c, "text"), want);
            cells++;
        }
        /* The file's points; TieBreakServer's rank and tie-breaks. */
        double pts = json_number_value(json_object_get(row, "points"));
        ck_assert_msg(pts * 10 == p->points, "%s: %g points, the file says %d/10", p->name, pts,
                      p->points);
        ck_assert_int_eq(jint(row, "rank"), (int)expected(&x, p->id, "rank"));
        json_t *tb = json_object_get(row, "tiebreaks");
        static const char *const cols[] = {"BH/C1", "BH", "SB", "WIN", "ARO"};
        for (unsigned k = 0; k < sizeof cols / sizeof cols[0]; k++) {
            double got = json_number_value(json_object_get(tb, cols[k]));
            double want = expected(&x, p->id, cols[k]);
            ck_assert_msg(got - want < 0.005 && want - got < 0.005, "%s %s: %g, expected %g",
                          p->name, cols[k], got, want);
        }
    }
    ck_assert_int_eq(cells, np * t->rounds_played);

    /* The standings route agrees row by row. */
    Resp *s = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)tid);
    ck_assert_int_eq(json_array_size(s->json), np);
    for (size_t k = 0; k < (size_t)np; k++) {
        json_t *a = json_array_get(s->json, k), *b = json_array_get(rows, k);
        ck_assert_int_eq(jint(json_object_get(a, "player"), "id"),
                         jint(json_object_get(b, "player"), "id"));
        ck_assert_int_eq(jint(a, "rank"), jint(b, "rank"));
        ck_assert(json_equal(json_object_get(a, "tiebreaks"), json_object_get(b, "tiebreaks")));
        ck_assert(json_equal(json_object_get(a, "points"), json_object_get(b, "points")));
    }
    /* ?format=json is the default answer, unchanged. */
    Resp *s2 = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings?format=json",
                    (long long)tid);
    ck_assert_int_eq(s2->status, 200);
    ck_assert(json_equal(s->json, s2->json));
    resp_free(s2);

    /* CSV: read back, the same cells in the same order. */
    Resp *c = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable?format=csv",
                   (long long)tid);
    char fname[64];
    snprintf(fname, sizeof fname, "crosstable-%lld.csv", (long long)tid);
    check_csv_headers(c, fname);
    Csv csv;
    csv_read(c->body, c->len, &csv);
    ck_assert_int_eq(csv.rows, np + 1);
    int cname = csv_col(&csv, "name"), cpts = csv_col(&csv, "points"), cr1 = csv_col(&csv, "r1");
    int crank = csv_col(&csv, "rank"), csb = csv_col(&csv, "SB");
    ck_assert(cname >= 0 && cpts >= 0 && cr1 >= 0 && crank >= 0 && csb >= 0);
    for (int k = 0; k < np; k++) {
        json_t *b = json_array_get(rows, (size_t)k);
        ck_assert_int_eq(csv.cols[k + 1], csv.cols[0]);
        ck_assert_str_eq(csv.cell[k + 1][cname], jstr(json_object_get(b, "player"), "name"));
        ck_assert_int_eq(atoi(csv.cell[k + 1][crank]), jint(b, "rank"));
        ck_assert(atof(csv.cell[k + 1][cpts]) == json_number_value(json_object_get(b, "points")));
        ck_assert(atof(csv.cell[k + 1][csb]) ==
                  json_number_value(json_object_get(json_object_get(b, "tiebreaks"), "SB")));
        for (int rn = 0; rn < t->rounds_played; rn++)
            ck_assert_str_eq(
                csv.cell[k + 1][cr1 + rn],
                jstr(json_array_get(json_object_get(b, "results"), (size_t)rn), "text"));
    }
    csv_free(&csv);
    resp_free(c);

    /* HTML: a printable page titled with the escaped name, every cell. */
    Resp *h = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable?format=html",
                   (long long)tid);
    check_html_page(h);
    ck_assert_ptr_nonnull(strstr(h->body, "<title>R&amp;R &lt;10&gt; &quot;open&quot;"));
    ck_assert_ptr_null(strstr(h->body, tname));
    ck_assert_ptr_nonnull(strstr(h->body, "after round 9"));
    json_array_foreach(rows, i, row)
    {
        size_t j;
        json_t *cell;
        json_array_foreach(json_object_get(row, "results"), j, cell)
        {
            char td[64];
            snprintf(td, sizeof td, ">%s</td>", jstr(cell, "text"));
            ck_assert_msg(strstr(h->body, td) != NULL, "no cell %s", td);
        }
    }
    resp_free(h);
    /* The words of the page in Russian and Bulgarian on request. */
    h = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable?format=html&lang=ru",
             (long long)tid);
    check_html_page(h);
    ck_assert_ptr_nonnull(strstr(h->body, "<html lang=\"ru\">"));
    ck_assert_ptr_nonnull(strstr(h->body, "Турнирная таблица после 9-го тура"));
    resp_free(h);
    h = reqf(&D, NULL, "GET", NULL,
             "/api/v1/tournaments/%lld/rounds/1/pairings?format=html&lang=bg&order=alpha",
             (long long)tid);
    check_html_page(h);
    ck_assert_ptr_nonnull(strstr(h->body, "Двойки за кръг 1, по азбучен ред"));
    resp_free(h);
    h = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings?format=html",
             (long long)tid);
    check_html_page(h);
    ck_assert_ptr_nonnull(strstr(h->body, "Standings after round 9"));
    resp_free(h);
    c = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings?format=csv",
             (long long)tid);
    snprintf(fname, sizeof fname, "standings-%lld.csv", (long long)tid);
    check_csv_headers(c, fname);
    csv_read(c->body, c->len, &csv);
    ck_assert_int_eq(csv.rows, np + 1);
    ck_assert_int_eq(csv_col(&csv, "r1"), -1);
    for (int k = 0; k < np; k++)
        ck_assert_str_eq(csv.cell[k + 1][csv_col(&csv, "name")],
                         jstr(json_object_get(json_array_get(rows, (size_t)k), "player"), "name"));
    csv_free(&csv);
    resp_free(c);

    resp_free(s);
    resp_free(r);
    csv_free(&x);
    tournament_free(t);
}
END_TEST

/* ---- a Swiss event paired by the server ---- */

enum { N = 7 };
static const char *const NAMES[N] = {
    "<script>alert(1)</script>",
    "=HYPERLINK(\"http://x\",\"y\")",
    "O'Brien, \"Bob\"",
    "de Vries, Anna",
    "-minus",
    "@at",
    "\xd0\x9f\xd0\xb5\xd1\x82\xd1\x80\xd0\xbe\xd0\xb2, \xd0\x9f\xd1\x91\xd1\x82\xd1\x80"};

static int who(const int64_t *pids, json_int_t id)
{
    for (int i = 0; i < N; i++)
        if (pids[i] == id)
            return i;
    return -1;
}

/* The list entry of player PID checked against NAME and the points POINTS. */
static void check_entry(json_t *e, const int64_t *pids, const double *points)
{
    int k = who(pids, jint(e, "id"));
    ck_assert_int_ge(k, 0);
    ck_assert_str_eq(jstr(e, "name"), NAMES[k]);
    ck_assert_msg(json_number_value(json_object_get(e, "points")) == points[k],
                  "%s: %g points before the round, expected %g", NAMES[k],
                  json_number_value(json_object_get(e, "points")), points[k]);
}

/* The order of player names (collate.h, held against glibc's locales in
 * test_collate): punctuation counts only after the letters, so
 * "=HYPERLINK(...)" files under H and "@at" under A; the one Cyrillic
 * name comes after the Latin ones. */
static int name_order(const char *a, const char *b)
{
    return collate_names_cmp(a, b);
}

/* The pairing lists of round RN (by board, alphabetical; JSON, CSV, HTML)
 * against the round the API reports and the points before it. */
static void check_lists(int64_t tid, int64_t rn, const int64_t *pids, const double *points)
{
    Resp *round = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld",
                       (long long)tid, (long long)rn);
    json_t *games = json_object_get(round->json, "games");
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld/pairings",
                   (long long)tid, (long long)rn);
    ck_assert_int_eq(r->status, 200);
    json_t *boards = json_object_get(r->json, "boards"), *byes = json_object_get(r->json, "byes");
    ck_assert_int_eq(json_array_size(boards), json_array_size(games));
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        json_t *b = json_array_get(boards, i);
        ck_assert_int_eq(jint(b, "board"), jint(g, "board"));
        ck_assert_str_eq(jstr(b, "result"), jstr(g, "result"));
        ck_assert_int_eq(jint(json_object_get(b, "white"), "id"), jint(g, "white_id"));
        ck_assert_int_eq(jint(json_object_get(b, "black"), "id"), jint(g, "black_id"));
        check_entry(json_object_get(b, "white"), pids, points);
        check_entry(json_object_get(b, "black"), pids, points);
    }
    json_array_foreach(byes, i, g) check_entry(json_object_get(g, "player"), pids, points);
    size_t listed = 2 * json_array_size(boards) + json_array_size(byes);

    /* Alphabetical: each player once, sorted, with his board and colour. */
    Resp *a = reqf(&D, NULL, "GET", NULL,
                   "/api/v1/tournaments/%lld/rounds/%lld/pairings?order=alpha&format=json",
                   (long long)tid, (long long)rn);
    ck_assert_int_eq(a->status, 200);
    json_t *list = json_object_get(a->json, "players");
    ck_assert_int_eq(json_array_size(list), listed);
    int seen[N] = {0};
    json_t *e;
    json_array_foreach(list, i, e)
    {
        json_t *p = json_object_get(e, "player");
        int k = who(pids, jint(p, "id"));
        ck_assert_int_ge(k, 0);
        ck_assert_int_eq(seen[k]++, 0);
        if (i > 0)
            ck_assert_msg(
                name_order(jstr(json_object_get(json_array_get(list, i - 1), "player"), "name"),
                           jstr(p, "name")) <= 0,
                "%s listed after %s", jstr(p, "name"),
                jstr(json_object_get(json_array_get(list, i - 1), "player"), "name"));
        json_t *o = json_object_get(e, "opponent");
        if (json_is_object(o)) {
            /* The game of that board has him in that colour against him. */
            json_t *b = json_array_get(boards, (size_t)jint(e, "board") - 1);
            int white = !strcmp(jstr(e, "colour"), "w");
            ck_assert_int_eq(jint(json_object_get(b, white ? "white" : "black"), "id"),
                             jint(p, "id"));
            ck_assert_int_eq(jint(json_object_get(b, white ? "black" : "white"), "id"),
                             jint(o, "id"));
        } else {
            ck_assert(strlen(jstr(e, "bye")) > 0);
        }
    }
    /* All seven players: the order `LC_ALL=en_US.UTF-8 sort` gives these
     * names (glibc 2.36). */
    static const int ALPHA[N] = {5, 3, 1, 4, 2, 0, 6}; /* @at de =HYP -minus O'B <scr Пет */
    if (json_array_size(list) == N)
        for (int k = 0; k < N; k++)
            ck_assert_str_eq(
                jstr(json_object_get(json_array_get(list, (size_t)k), "player"), "name"),
                NAMES[ALPHA[k]]);

    /* The same list as CSV, read back. */
    Resp *c = reqf(&D, NULL, "GET", NULL,
                   "/api/v1/tournaments/%lld/rounds/%lld/pairings?order=alpha&format=csv",
                   (long long)tid, (long long)rn);
    char fname[80];
    snprintf(fname, sizeof fname, "pairings-%lld-round-%lld-alpha.csv", (long long)tid,
             (long long)rn);
    check_csv_headers(c, fname);
    Csv csv;
    csv_read(c->body, c->len, &csv);
    ck_assert_int_eq(csv.rows, (int)listed + 1);
    int cname = csv_col(&csv, "name"), cboard = csv_col(&csv, "board");
    ck_assert(cname >= 0 && cboard >= 0);
    json_array_foreach(list, i, e)
    {
        const char *name = jstr(json_object_get(e, "player"), "name");
        const char *cell = csv.cell[i + 1][cname];
        /* A spreadsheet formula is defused by a leading apostrophe. */
        if (strchr("=+-@", name[0])) {
            ck_assert_int_eq(cell[0], '\'');
            cell++;
        }
        ck_assert_str_eq(cell, name);
        if (json_is_object(json_object_get(e, "opponent")))
            ck_assert_int_eq(atoi(csv.cell[i + 1][cboard]), jint(e, "board"));
    }
    csv_free(&csv);
    resp_free(c);

    /* By board as CSV: the boards, then the byes. */
    c = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld/pairings?format=csv",
             (long long)tid, (long long)rn);
    csv_read(c->body, c->len, &csv);
    ck_assert_int_eq(csv.rows, (int)(json_array_size(boards) + json_array_size(byes)) + 1);
    int cw = csv_col(&csv, "white"), cb = csv_col(&csv, "black");
    json_array_foreach(boards, i, g)
    {
        const char *w = jstr(json_object_get(g, "white"), "name");
        const char *cell = csv.cell[i + 1][cw];
        cell += strchr("=+-@", w[0]) ? 1 : 0;
        ck_assert_str_eq(cell, w);
        const char *bl = jstr(json_object_get(g, "black"), "name");
        cell = csv.cell[i + 1][cb];
        cell += strchr("=+-@", bl[0]) ? 1 : 0;
        ck_assert_str_eq(cell, bl);
    }
    csv_free(&csv);
    resp_free(c);

    /* HTML: names as text, never as markup. */
    for (int alpha = 0; alpha < 2; alpha++) {
        Resp *h = reqf(&D, NULL, "GET", NULL,
                       "/api/v1/tournaments/%lld/rounds/%lld/pairings?format=html%s",
                       (long long)tid, (long long)rn, alpha ? "&order=alpha" : "");
        check_html_page(h);
        ck_assert_ptr_nonnull(strstr(h->body, "&lt;script&gt;alert(1)&lt;/script&gt;"));
        ck_assert_ptr_nonnull(strstr(h->body, "O&#39;Brien, &quot;Bob&quot;"));
        char title[64];
        snprintf(title, sizeof title, "Round %lld pairings", (long long)rn);
        ck_assert_ptr_nonnull(strstr(h->body, title));
        resp_free(h);
    }
    resp_free(a);
    resp_free(r);
    resp_free(round);
}

/* Starts round RN and plays it: board k gets "1=0"[k % 3]; adds the points
 * to POINTS (byes from BYES: PAB 1, half 0.5). */
static void play_round(int64_t tid, int64_t rn, json_t *games, json_t *byes, const int64_t *pids,
                       double *points)
{
    start_round(tid, rn);
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
    {
        char c = "1=0"[i % 3];
        set_result(jint(g, "id"), c);
        int w = who(pids, jint(g, "white_id")), b = who(pids, jint(g, "black_id"));
        points[w] += c == '1' ? 1 : c == '=' ? 0.5 : 0;
        points[b] += c == '0' ? 1 : c == '=' ? 0.5 : 0;
    }
    json_array_foreach(byes, i, g)
    {
        const char *kind = jstr(g, "kind");
        points[who(pids, jint(g, "player_id"))] += !strcmp(kind, "pab")    ? 1
                                                   : !strcmp(kind, "half") ? 0.5
                                                                           : 0;
    }
}

START_TEST(swiss_pairing_lists)
{
    int64_t tid = new_tournament("Swiss & co", "{\"system\":\"swiss\",\"rounds\":3}");
    int64_t pids[N];
    for (int i = 0; i < N; i++)
        pids[i] = add_player(tid, NAMES[i], 2000 - 10 * i);
    double points[N] = {0}, before[N];
    for (int rn = 1; rn <= 3; rn++) {
        if (rn == 2) {
            Resp *b = reqf(&D, &arb, "POST", "{\"round\":2,\"kind\":\"half\"}",
                           "/api/v1/tournaments/%lld/players/%lld/byes", (long long)tid,
                           (long long)pids[1]);
            ck_assert_msg(b->status == 201, "%s", b->body);
            resp_free(b);
        }
        Resp *r = reqf(&D, &arb, "POST", "{\"publish\":true}", "/api/v1/tournaments/%lld/rounds",
                       (long long)tid);
        ck_assert_msg(r->status == 201, "round %d: %s", rn, r->body);
        memcpy(before, points, sizeof before);
        check_lists(tid, rn, pids, before);
        if (rn < 3)
            play_round(tid, rn, json_object_get(r->json, "games"), json_object_get(r->json, "byes"),
                       pids, points);
        resp_free(r);
    }

    /* Crosstable after round 2 (round 3 is paired, without results): every
     * cell as the TRF report of the same games says, points as added up. */
    Resp *ct = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable", (long long)tid);
    ck_assert_int_eq(ct->status, 200);
    ck_assert_int_eq(jint(ct->json, "after_round"), 2);
    Resp *trf = reqf(&D, &arb, "GET", NULL, "/api/v1/tournaments/%lld/trf", (long long)tid);
    Tournament *t = NULL;
    TrfError e;
    ck_assert_msg(trf_read(trf->body, trf->len, 0, &t, &e) == 0, "TRF: %s", e.message);
    size_t i;
    json_t *row;
    int pab = 0, hpb = 0;
    json_array_foreach(json_object_get(ct->json, "rows"), i, row)
    {
        int k = who(pids, jint(json_object_get(row, "player"), "id"));
        ck_assert(json_number_value(json_object_get(row, "points")) == points[k]);
        const TrnPlayer *p = tournament_player(t, (int)jint(row, "tpn"));
        ck_assert_ptr_nonnull(p);
        ck_assert_str_eq(p->name, NAMES[k]);
        for (int rn = 1; rn <= 2; rn++) {
            json_t *c = json_array_get(json_object_get(row, "results"), (size_t)rn - 1);
            const TrnGame *g = &p->games[rn - 1];
            if (g->opponent) {
                ck_assert_int_eq(jint(c, "opponent"), g->opponent);
                ck_assert_str_eq(jstr(c, "colour"), g->colour == TRN_WHITE ? "w" : "b");
                ck_assert_str_eq(jstr(c, "result"), trf_result(g->result));
            } else {
                ck_assert(json_is_null(json_object_get(c, "opponent")));
                ck_assert_str_eq(jstr(c, "text"), g->result == TRN_RES_PAB   ? "PAB"
                                                  : g->result == TRN_RES_HPB ? "HPB"
                                                                             : "ZPB");
                pab += g->result == TRN_RES_PAB;
                hpb += g->result == TRN_RES_HPB;
            }
        }
    }
    ck_assert_int_eq(pab, 1); /* round 1: seven players; round 2: six and a half bye */
    ck_assert_int_eq(hpb, 1);
    tournament_free(t);
    resp_free(trf);

    /* Spreadsheets read the crosstable's names as typed, never as formulas. */
    Resp *c = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable?format=csv",
                   (long long)tid);
    ck_assert_int_eq(memcmp(c->body, "\xef\xbb\xbf", 3), 0);
    Csv csv;
    csv_read(c->body, c->len, &csv);
    int cname = csv_col(&csv, "name");
    int defused = 0;
    for (int r = 1; r < csv.rows; r++) {
        const char *cell = csv.cell[r][cname];
        ck_assert_msg(!strchr("=+-@", cell[0]), "a formula: %s", cell);
        defused += cell[0] == '\'';
    }
    ck_assert_int_eq(defused, 3);
    csv_free(&csv);
    resp_free(c);
    resp_free(ct);
}
END_TEST

START_TEST(bad_requests)
{
    int64_t tid = new_tournament("T", "{\"system\":\"swiss\"}");
    for (int i = 0; i < 2; i++)
        add_player(tid, NAMES[i], 1500);
    Resp *r = reqf(&D, &arb, "POST", "{\"publish\":true}", "/api/v1/tournaments/%lld/rounds",
                   (long long)tid);
    ck_assert_int_eq(r->status, 201);
    resp_free(r);
    char p[160];
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/crosstable?format=xml", (long long)tid);
    check_error(p, 400, "invalid_value");
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/crosstable?format=", (long long)tid);
    check_error(p, 400, "invalid_value");
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/standings?format=pdf", (long long)tid);
    check_error(p, 400, "invalid_value");
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/rounds/1/pairings?order=rating",
             (long long)tid);
    check_error(p, 400, "invalid_value");
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/rounds/1/pairings?format=HTML", (long long)tid);
    check_error(p, 400, "invalid_value");
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/crosstable?format=html&lang=de",
             (long long)tid);
    check_error(p, 400, "invalid_value");
    check_error("/api/v1/tournaments/999999/crosstable", 404, "not_found");
    check_error("/api/v1/tournaments/999999/crosstable?format=html", 404, "not_found");
    check_error("/api/v1/tournaments/999999/standings?format=csv", 404, "not_found");
    check_error("/api/v1/tournaments/999999/rounds/1/pairings", 404, "not_found");
    snprintf(p, sizeof p, "/api/v1/tournaments/%lld/rounds/2/pairings?format=html", (long long)tid);
    check_error(p, 404, "not_found");
    /* Before any result: the lists exist and are empty of results. */
    r = reqf(&D, NULL, "GET", NULL, "/api/v1/tournaments/%lld/crosstable?format=html",
             (long long)tid);
    check_html_page(r);
    ck_assert_ptr_nonnull(strstr(r->body, "no results yet"));
    resp_free(r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-export");
    TCase *tc = tcase_create("export");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, round_robin_as_published);
    tcase_add_test(tc, swiss_pairing_lists);
    tcase_add_test(tc, bad_requests);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
