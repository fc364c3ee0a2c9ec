/*
 * bench_fide.c — the FIDE register at full size: importing a generated
 * list as large as FIDE's (about 1.7 million players) and searching it by
 * name as the desk does while the arbiter types, against references
 * measured in the same run: reading the same file without storing it (the
 * parser alone), and looking players up by FIDE ID (a plain indexed
 * SELECT).
 *
 *   bench_fide [--players N] [--searches N] [--dir DIR] [--keep]
 *
 * The list is the combined XML list (players_list_xml_foa.xml) with
 * every field FIDE writes; names come from a deterministic generator of
 * syllables whose surnames and given names repeat as real ones do (a few
 * very common, most rare), so prefixes match as many players as in the
 * real list.  The searches are prefixes of random players' names as they
 * are typed: the surname cut anywhere, sometimes followed by the start of
 * the given name.  Then the list is imported again over itself (a newer
 * list replacing the register) while a second connection commits a small
 * write every 20 ms, as the daemon records moves during a round; the
 * longest of those commits is compared with the same writer's commits on
 * an idle store, measured just before.  Targets (issue of the register):
 * import <= 90 s and peak RSS <= 200 MB, search p99 <= 20 ms, no write
 * waiting more than 1 s behind a re-import; exit 1 when one is missed at
 * full size.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fide.h"
#include "fide_read.h"
#include "store.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static const char *const SYL[] = {
    "ka",  "ri", "mo",  "ne",  "sha", "va", "lo", "tin", "ber", "gan", "ov",   "ko", "zhe",
    "an",  "dr", "el",  "is",  "pa",  "ru", "se", "ta",  "vi",  "ya",  "chen", "li", "wang",
    "sch", "mi", "ler", "son", "der", "ma", "ra", "na",  "ku",  "mar", "ste",  "fa", "no",
    "ha",  "ja", "sz",  "bo",  "ze",  "ic", "ev", "ski", "ni",  "go",  "lu",   "de", "ro"};
enum { NSYL = sizeof SYL / sizeof SYL[0] };

/* Word number K of a pool (surnames or given names) of 1..SYLS syllables. */
static void word(uint64_t k, int syls_min, int syls_max, char *out, size_t n)
{
    uint64_t h = mix(k);
    int syls = syls_min + (int)(h % (uint64_t)(syls_max - syls_min + 1));
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < syls; i++) {
        h = mix(h);
        o += (size_t)snprintf(out + o, n - o, "%s", SYL[h % NSYL]);
    }
    if (out[0] >= 'a' && out[0] <= 'z')
        out[0] = (char)(out[0] - 'a' + 'A');
}

/* A skewed pick from a pool of N: the first words are the common names. */
static uint64_t skewed(uint64_t h, uint64_t n)
{
    double u = (double)(h >> 11) / 9007199254740992.0;
    return (uint64_t)(u * u * u * (double)n);
}

/* The name of player I, "Surname, Given[ Given]". */
static void name_of(uint64_t i, char *out, size_t n)
{
    char sur[64], given[64], second[64] = "";
    uint64_t h = mix(i * 3 + 1);
    word(skewed(h, 400000), 2, 4, sur, sizeof sur);
    h = mix(h);
    word(1000000 + skewed(h, 8000), 1, 3, given, sizeof given);
    if (h % 7 == 0)
        word(2000000 + skewed(mix(h), 8000), 1, 3, second, sizeof second);
    snprintf(out, n, "%s, %s%s%s", sur, given, *second ? " " : "", second);
}

static int64_t id_of(uint64_t i)
{
    return 100000 + (int64_t)i * 7 + (int64_t)(mix(i) % 7);
}

static int generate(const char *path, long players)
{
    static const char *const FED[] = {"IND", "RUS", "GER", "FRA", "ESP", "USA", "BUL", "POL",
                                      "ITA", "IRI", "TUR", "SRB", "CZE", "NED", "ARG", "BRA"};
    static const char *const TIT[] = {"", "", "", "", "", "", "", "", "", "CM", "FM", "IM", "GM"};
    FILE *f = fopen(path, "w");
    if (!f)
        return -errno;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<playerslist>\n", f);
    for (long i = 0; i < players; i++) {
        char name[160];
        uint64_t h = mix((uint64_t)i * 3 + 2);
        name_of((uint64_t)i, name, sizeof name);
        int rated = h % 3 != 0, female = h % 9 == 0;
        const char *title = rated ? TIT[(h >> 8) % 13] : "";
        fprintf(f,
                "<player><fideid>%lld</fideid><name>%s</name><country>%s</country>"
                "<sex>%s</sex><title>%s</title><w_title>%s</w_title><o_title></o_title>"
                "<foa_title></foa_title><rating>%d</rating><games>%d</games><k>%d</k>"
                "<rapid_rating>%d</rapid_rating><rapid_games>%d</rapid_games>"
                "<rapid_k>%d</rapid_k><blitz_rating>%d</blitz_rating><blitz_games>%d"
                "</blitz_games><blitz_k>%d</blitz_k><birthday>%d</birthday><flag>%s</flag>"
                "</player>\n",
                (long long)id_of((uint64_t)i), name, FED[(h >> 16) % 16], female ? "F" : "M", title,
                female && h % 5 == 0 ? "WFM" : "", rated ? 1000 + (int)((h >> 20) % 1800) : 0,
                rated ? (int)((h >> 32) % 12) : 0, rated ? 20 : 0,
                h % 4 ? 1000 + (int)((h >> 24) % 1700) : 0, (int)((h >> 36) % 9), h % 4 ? 20 : 0,
                h % 5 ? 1000 + (int)((h >> 28) % 1700) : 0, (int)((h >> 40) % 9), h % 5 ? 20 : 0,
                1940 + (int)((h >> 44) % 80),
                h % 6 == 0 ? (female ? "wi" : "i") : (female ? "w" : ""));
    }
    fputs("</playerslist>\n", f);
    return fclose(f) ? -errno : 0;
}

static int count_row(void *ctx, const FideRow *row)
{
    (*(long *)ctx)++;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(double *v, int n, double p)
{
    int k = (int)(p * (n - 1) + 0.5);
    return v[k];
}

static long rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

/* The writer beside an import: a commit every 20 ms until told to stop. */
typedef struct Writer {
    const char *db;
    atomic_int stop;
    int n;
    double worst, sum;
    int failed;
} Writer;

static void *writer_run(void *arg)
{
    Writer *w = arg;
    Store *s;
    char err[256];
    if (store_open(w->db, 0, &s, err, sizeof err)) {
        w->failed = 1;
        return NULL;
    }
    sqlite3 *db = store_db(s);
    sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS bench_writes (at REAL)", NULL, NULL, NULL);
    while (!atomic_load(&w->stop)) {
        double t0 = now_s();
        if (sqlite3_exec(db,
                         "BEGIN IMMEDIATE; INSERT INTO bench_writes VALUES (julianday());"
                         "COMMIT",
                         NULL, NULL, NULL) != SQLITE_OK) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            w->failed++;
        }
        double e = now_s() - t0;
        w->n++;
        w->sum += e;
        if (e > w->worst)
            w->worst = e;
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    store_close(s);
    return NULL;
}

/* Runs a writer for SECONDS (or, with S, for an import of PATHS into S);
 * fills *W. */
static int with_writer(Writer *w, const char *db, double seconds, Store *s,
                       const char *const *paths, char *err, size_t n)
{
    memset(w, 0, sizeof *w);
    w->db = db;
    pthread_t th;
    if (pthread_create(&th, NULL, writer_run, w))
        return -1;
    int rc = 0;
    if (s) {
        FideImportOptions opt = {.type = -1};
        FideImportResult res;
        rc = fide_import(s, paths, 1, &opt, &res, err, n);
    } else {
        struct timespec t = {(time_t)seconds, 0};
        nanosleep(&t, NULL);
    }
    atomic_store(&w->stop, 1);
    pthread_join(th, NULL);
    return rc;
}

int main(int argc, char **argv)
{
    long players = 1700000;
    int searches = 1000, keep = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--players") == 0 && i + 1 < argc)
            players = atol(argv[++i]);
        else if (strcmp(argv[i], "--searches") == 0 && i + 1 < argc)
            searches = atoi(argv[++i]);
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--keep") == 0)
            keep = 1;
        else {
            fprintf(stderr, "usage: bench_fide [--players N] [--searches N] [--dir DIR] "
                            "[--keep]\n");
            return 2;
        }
    }
    if (players < 1 || searches < 1)
        return 2;
    char tmp[] = "/tmp/arbiter-bench-fide-XXXXXX", xml[600], db[600], err[512];
    if (!dir && !(dir = mkdtemp(tmp))) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(xml, sizeof xml, "%s/players_list_xml_foa.xml", dir);
    snprintf(db, sizeof db, "%s/fide.db", dir);
    double t0 = now_s();
    if (generate(xml, players)) {
        perror(xml);
        return 1;
    }
    struct stat sb;
    stat(xml, &sb);
    printf("generated %ld players, %.0f MB of XML in %.1f s\n", players, (double)sb.st_size / 1e6,
           now_s() - t0);

    /* Reference 1: the parser alone. */
    long rows = 0;
    FideReadInfo info;
    t0 = now_s();
    if (fide_read_file(xml, -1, count_row, &rows, &info, err, sizeof err)) {
        fprintf(stderr, "bench_fide: %s\n", err);
        return 1;
    }
    double t_parse = now_s() - t0;
    printf("parse only:  %7.1f s  (%ld players)\n", t_parse, rows);

    Store *s;
    if (store_open(db, 0, &s, err, sizeof err)) {
        fprintf(stderr, "bench_fide: %s\n", err);
        return 1;
    }
    const char *paths[] = {xml};
    FideImportOptions opt = {.type = -1};
    FideImportResult res;
    t0 = now_s();
    int rc = fide_import(s, paths, 1, &opt, &res, err, sizeof err);
    double t_import = now_s() - t0;
    if (rc) {
        fprintf(stderr, "bench_fide: import: %s\n", err);
        return 1;
    }
    long rss = rss_mb();
    stat(db, &sb);
    printf("import:      %7.1f s  (%ld players, %.1fx the parse; database %.0f MB)\n", t_import,
           res.players, t_import / t_parse, (double)sb.st_size / 1e6);
    printf("peak RSS:    %7ld MB\n", rss);

    double *ts = calloc((size_t)searches, sizeof *ts), *tl = calloc((size_t)searches, sizeof *tl);
    long found = 0;
    for (int q = 0; q < searches; q++) {
        uint64_t h = mix(0xF1DEull + (uint64_t)q);
        char name[160], typed[160];
        name_of(h % (uint64_t)players, name, sizeof name);
        size_t comma = strcspn(name, ",");
        size_t cut = 1 + (size_t)(mix(h) % comma);
        memcpy(typed, name, cut);
        typed[cut] = 0;
        if (cut == comma && h % 2) {
            /* The whole surname, then the first letters of the given name. */
            size_t g = 1 + (size_t)(mix(h + 1) % 4);
            snprintf(typed + cut, sizeof typed - cut, " %.*s", (int)g, name + comma + 2);
        }
        t0 = now_s();
        json_t *r = fide_search(s, typed, 20);
        ts[q] = now_s() - t0;
        found += r && json_array_size(r) > 0;
        json_decref(r);
        int64_t id = id_of(mix(h + 2) % (uint64_t)players);
        t0 = now_s();
        json_t *p = fide_player(s, id);
        tl[q] = now_s() - t0;
        json_decref(p);
    }
    qsort(ts, (size_t)searches, sizeof *ts, cmp_double);
    qsort(tl, (size_t)searches, sizeof *tl, cmp_double);
    double s50 = pct(ts, searches, 0.5) * 1e3, s99 = pct(ts, searches, 0.99) * 1e3;
    double l50 = pct(tl, searches, 0.5) * 1e3, l99 = pct(tl, searches, 0.99) * 1e3;
    printf("search:      p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d typed prefixes, %ld with "
           "matches)\n",
           s50, s99, ts[searches - 1] * 1e3, searches, found);
    printf("by FIDE ID:  p50 %.3f ms, p99 %.3f ms; search/lookup p99 ratio %.1f\n", l50, l99,
           s99 / l99);
    free(ts);
    free(tl);

    /* A newer list over the register while a writer commits beside it. */
    Writer idle, busy;
    if (with_writer(&idle, db, 2, NULL, NULL, err, sizeof err) ||
        with_writer(&busy, db, 0, s, paths, err, sizeof err)) {
        fprintf(stderr, "bench_fide: re-import: %s\n", err);
        return 1;
    }
    printf("writes:      idle store mean %.2f ms, max %.2f ms (%d); during a re-import mean %.2f "
           "ms, max %.1f ms (%d, %d failed); max ratio %.0f\n",
           idle.sum / (idle.n ? idle.n : 1) * 1e3, idle.worst * 1e3, idle.n,
           busy.sum / (busy.n ? busy.n : 1) * 1e3, busy.worst * 1e3, busy.n, busy.failed,
           idle.worst > 0 ? busy.worst / idle.worst : 0);
    store_close(s);
    int full = players >= 1500000;
    int ok = t_import <= 90 && rss <= 200 && s99 <= 20 && busy.worst <= 1.0 && !busy.failed;
    printf("targets (import <= 90 s, RSS <= 200 MB, search p99 <= 20 ms, writes beside a "
           "re-import <= 1 s): %s\n",
           ok     ? "met"
           : full ? "MISSED"
                  : "missed (not full size)");
    if (!keep) {
        char wal[620], shm[620];
        snprintf(wal, sizeof wal, "%s-wal", db);
        snprintf(shm, sizeof shm, "%s-shm", db);
        unlink(xml);
        unlink(db);
        unlink(wal);
        unlink(shm);
        if (dir == tmp)
            rmdir(dir);
    }
    return ok || !full ? 0 : 1;
}
