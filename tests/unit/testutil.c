/*
 * testutil.c — shared helpers of the Check test programs (see testutil.h).
 */
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "canmate.h"
#include "movegen.h"
#include "notation.h"
#include "trf.h"

const char *testutil_data_dir(void)
{
    const char *dir = getenv("ARBITER_TEST_DATA");
    return dir && *dir ? dir : "tests/data";
}

const char *testutil_bin(void)
{
    const char *bin = getenv("ARBITER_BIN");
    ck_assert_msg(bin != NULL && *bin, "ARBITER_BIN is not set");
    return bin;
}

void testutil_data_path(char *out, size_t cap, const char *topic, const char *name)
{
    snprintf(out, cap, "%s/%s/%s", testutil_data_dir(), topic, name);
}

FILE *testutil_open(const char *topic, const char *name, const char *mode)
{
    char path[1024];
    testutil_data_path(path, sizeof path, topic, name);
    FILE *f = fopen(path, mode);
    ck_assert_msg(f != NULL, "cannot open %s", path);
    return f;
}

FILE *testutil_open_at_start(const char *topic, const char *name, const char *mode)
{
    char path[1024];
    testutil_data_path(path, sizeof path, topic, name);
    FILE *f = fopen(path, mode);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    return f;
}

char *testutil_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    /* Read in pieces, not by the size seek reports: PATH may be a pipe or
     * a log another process is still writing. */
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    ck_assert_msg(!ferror(f), "cannot read %s", path);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

void testutil_write(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert_msg(fwrite(text, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
}

char *testutil_load(const char *topic, const char *name, size_t *len)
{
    char path[1024];
    testutil_data_path(path, sizeof path, topic, name);
    return testutil_read(path, len);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int testutil_list(const char *dir, const char *suffix, char ***names)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    size_t want = strlen(suffix);
    int n = 0, cap = 64;
    char **v = malloc((size_t)cap * sizeof *v);
    ck_assert_ptr_nonnull(v);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l <= want || strcmp(e->d_name + l - want, suffix) != 0)
            continue;
        if (n == cap) {
            cap *= 2;
            v = realloc(v, (size_t)cap * sizeof *v);
            ck_assert_ptr_nonnull(v);
        }
        v[n] = strdup(e->d_name);
        ck_assert_ptr_nonnull(v[n]);
        n++;
    }
    closedir(d);
    qsort(v, (size_t)n, sizeof *v, cmp_name);
    *names = v;
    return n;
}

void testutil_list_free(char **names, int n)
{
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

static void tmpdir_path(char *dir, size_t n, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n, "%s/arbiter-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
}

void testutil_tmpdir_make(char *dir, size_t n, const char *tag)
{
    tmpdir_path(dir, n, tag);
    ck_assert_msg(mkdtemp(dir) != NULL, "cannot make %s", dir);
}

void testutil_tmpdir_remove(const char *dir)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static char db_dir[512];
char testutil_db_path[600];

void testutil_db_setup(void)
{
    testutil_tmpdir_make(db_dir, sizeof db_dir, "db");
    snprintf(testutil_db_path, sizeof testutil_db_path, "%s/t.db", db_dir);
}

void testutil_db_teardown(void)
{
    testutil_tmpdir_remove(db_dir);
}

int testutil_shell(const char *dir, const char *cmd, const char *input, char **out, char **err)
{
    char in[600], o[600], e[600], line[8192];
    snprintf(in, sizeof in, "%s/in.txt", dir);
    snprintf(o, sizeof o, "%s/out.txt", dir);
    snprintf(e, sizeof e, "%s/err.txt", dir);
    if (input) {
        testutil_write(in, input, strlen(input));
        snprintf(line, sizeof line, "%s < '%s' > '%s' 2> '%s'", cmd, in, o, e);
    } else {
        snprintf(line, sizeof line, "%s > '%s' 2> '%s'", cmd, o, e);
    }
    int st = system(line);
    if (out)
        *out = testutil_read(o, NULL);
    if (err)
        *err = testutil_read(e, NULL);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int testutil_exec(const char *const *argv, const char *const *env, const char *err_path)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        for (int i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        int null = open("/dev/null", O_WRONLY);
        int err = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : null;
        dup2(null, 1);
        dup2(err, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int testutil_capture(const char *cmd, char *out, size_t cap)
{
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Board testutil_board(const char *fen)
{
    Board b;
    char err[160];
    if (strcmp(fen, "start") == 0)
        fen = BOARD_START_FEN;
    ck_assert_msg(board_from_fen(&b, fen, err, sizeof err) == 0, "%s: %s", fen, err);
    return b;
}

void testutil_assert_mates(const char *fen, int winner, const Move *line, int len)
{
    Board b = testutil_board(fen);
    ck_assert_int_ge(len, 0);
    ck_assert_int_le(len, CANMATE_LINE_MAX);
    for (int ply = 0; ply < len; ply++) {
        ck_assert_msg(movegen_is_legal(&b, line[ply]), "%s: ply %d of the line is illegal", fen,
                      ply);
        board_make(&b, line[ply]);
    }
    ck_assert_msg(b.side == (winner ^ 1), "%s: the line ends with the wrong side to move", fen);
    ck_assert_msg(board_in_check(&b) && movegen_count_legal(&b) == 0, "%s: no mate at the end",
                  fen);
}

void testutil_assert_search_mates(const char *fen, int winner, CanMateScratch *scratch)
{
    Board b = testutil_board(fen);
    Move line[CANMATE_LINE_MAX];
    int len = 0;
    CanMate r = canmate_search(&b, winner, NULL, scratch, line, &len);
    ck_assert_msg(r == CANMATE_YES, "%s: %s", fen, canmate_name(r));
    testutil_assert_mates(fen, winner, line, len);
}

bool testutil_mate_within(const Board *b, int winner, int plies)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    if (list.count == 0)
        return b->side != winner && board_in_check(b);
    for (int i = 0; i < list.count && plies > 0; i++) {
        Board child = *b;
        board_make(&child, list.moves[i]);
        if (testutil_mate_within(&child, winner, plies - 1))
            return true;
    }
    return false;
}

int testutil_labelled_next(FILE *f, char *line, size_t size, Board *b, char *err, size_t err_size)
{
    while (fgets(line, (int)size, f)) {
        if (line[0] == '#' || strlen(line) < 4 || line[2] != ' ')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        return board_from_fen(b, line + 3, err, err_size) ? -1 : 1;
    }
    return 0;
}

CanMate testutil_labelled_want(const char *line, int c)
{
    return line[c] == (c == WHITE ? 'W' : 'B') ? CANMATE_YES : CANMATE_NO;
}

void testutil_fen_placement(const char grid[64], char *out)
{
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            char c = grid[SQ(f, r)];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                *out++ = (char)('0' + empty);
            empty = 0;
            *out++ = c;
        }
        if (empty)
            *out++ = (char)('0' + empty);
        if (r)
            *out++ = '/';
    }
    *out = '\0';
}

Move testutil_uci(const Board *b, const char *uci)
{
    MoveList list;
    movegen_legal_moves(b, &list);
    for (int i = 0; i < list.count; i++) {
        char u[6];
        board_move_to_uci(list.moves[i], u);
        if (strcmp(u, uci) == 0)
            return list.moves[i];
    }
    ck_abort_msg("%s is not legal", uci);
    return MOVE_NONE;
}

Move testutil_san(const Board *b, const char *text)
{
    Move m;
    char err[NOTATION_ERR_MAX];
    ck_assert_msg(notation_parse(b, text, &m, err, sizeof err) == 0, "%s: %s", text, err);
    return m;
}

Tournament *testutil_trf(const char *name, const char *text, size_t len, int flags)
{
    Tournament *t = NULL;
    TrfError e;
    int rc = trf_read(text, len, flags, &t, &e);
    ck_assert_msg(rc == 0, "%s: TRF line %d col %d: %s", name, e.line, e.column, e.message);
    return t;
}

Tournament *testutil_trf_load(const char *topic, const char *name, int flags)
{
    size_t len;
    char *text = testutil_load(topic, name, &len);
    Tournament *t = testutil_trf(name, text, len, flags);
    free(text);
    return t;
}

int testutil_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

int testutil_run_in_tmpdir(Suite *s, const char *tag, char *dir, size_t n)
{
    tmpdir_path(dir, n, tag);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    int rc = testutil_run(s);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
