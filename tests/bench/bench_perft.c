/*
 * bench_perft.c — our perft against Stockfish's, in the same run.
 *
 * For each position, times movegen_perft() in this process and Stockfish's
 * `go perft N` (one thread) through its UCI pipe, checks both counts equal
 * the published one, and prints nodes per second and the ratio ours/theirs.
 * Stockfish's perft also counts the last ply in bulk, so the comparison is
 * like for like.  Absolute times drift on shared machines; the ratio is the
 * figure to read.
 *
 *   bench_perft [--min-ratio R] [STOCKFISH]
 * Exit: 0 ok, 1 a count is wrong or a ratio is below R, 77 no Stockfish.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"

typedef struct {
    const char *name;
    const char *fen;
    int depth;
    unsigned long long published;
} BenchCase;

static const BenchCase cases[] = {
    {"start position", BOARD_START_FEN, 6, 119060324ULL},
    {"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5,
     193690690ULL},
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
    pid_t pid;
    FILE *to, *from;
} Engine;

static int engine_start(Engine *e, const char *path)
{
    if (access(path, X_OK) != 0)
        return -1;
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        return -1;
    e->pid = fork();
    if (e->pid < 0)
        return -1;
    if (e->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = fdopen(in[1], "w");
    e->from = fdopen(out[0], "r");
    return e->to && e->from ? 0 : -1;
}

/* Reads lines until one starts with prefix; copies it into line. */
static int engine_wait(Engine *e, const char *prefix, char *line, size_t len)
{
    while (fgets(line, (int)len, e->from))
        if (strncmp(line, prefix, strlen(prefix)) == 0)
            return 0;
    return -1;
}

static void engine_send(Engine *e, const char *cmd)
{
    fprintf(e->to, "%s\n", cmd);
    fflush(e->to);
}

int main(int argc, char **argv)
{
    double min_ratio = 0;
    const char *sf = "/usr/games/stockfish";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--min-ratio") == 0 && i + 1 < argc)
            min_ratio = atof(argv[++i]);
        else
            sf = argv[i];
    }
    signal(SIGPIPE, SIG_IGN);
    Engine e;
    if (engine_start(&e, sf)) {
        printf("SKIP: no Stockfish at %s (Debian package stockfish)\n", sf);
        return 77;
    }
    char line[512];
    engine_send(&e, "uci");
    engine_send(&e, "setoption name Threads value 1");
    engine_send(&e, "isready");
    if (engine_wait(&e, "readyok", line, sizeof line)) {
        printf("FAIL: Stockfish did not answer\n");
        return 1;
    }

    int bad = 0;
    printf("%-16s %5s %12s %14s %14s %7s\n", "position", "depth", "nodes", "ours nodes/s",
           "stockfish n/s", "ratio");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const BenchCase *c = &cases[i];
        Board b;
        char err[160];
        if (board_from_fen(&b, c->fen, err, sizeof err)) {
            printf("FAIL: %s: %s\n", c->name, err);
            return 1;
        }
        double t0 = now_s();
        unsigned long long ours = movegen_perft(&b, c->depth);
        double t_ours = now_s() - t0;

        char cmd[256];
        snprintf(cmd, sizeof cmd, "position fen %s", c->fen);
        engine_send(&e, cmd);
        engine_send(&e, "isready");
        engine_wait(&e, "readyok", line, sizeof line);
        snprintf(cmd, sizeof cmd, "go perft %d", c->depth);
        t0 = now_s();
        engine_send(&e, cmd);
        if (engine_wait(&e, "Nodes searched:", line, sizeof line)) {
            printf("FAIL: Stockfish gave no perft count\n");
            return 1;
        }
        double t_sf = now_s() - t0;
        unsigned long long theirs = strtoull(line + strlen("Nodes searched:"), NULL, 10);

        double ratio = t_sf / t_ours;
        printf("%-16s %5d %12llu %14.0f %14.0f %7.2f\n", c->name, c->depth, ours, ours / t_ours,
               theirs / t_sf, ratio);
        if (ours != c->published || theirs != c->published) {
            printf("FAIL: %s: ours %llu, Stockfish %llu, published %llu\n", c->name, ours, theirs,
                   c->published);
            bad++;
        }
        if (ratio < min_ratio) {
            printf("FAIL: %s: ratio %.2f is below %.2f\n", c->name, ratio, min_ratio);
            bad++;
        }
    }
    engine_send(&e, "quit");
    fclose(e.to);
    fclose(e.from);
    waitpid(e.pid, NULL, 0);
    printf("%d passed, %d failed\n", (int)(sizeof cases / sizeof cases[0]) * 2 - bad, bad);
    return bad ? 1 : 0;
}
