/*
 * cmd_serve.c — `arbiter serve`: the daemon.
 *
 * Start-up: open (create, migrate) the database; on the very first start
 * create an arbiter login and print its password once; pause every game
 * whose clocks were running when the server last stopped, as of its last
 * heartbeat (nobody is charged for the downtime); then serve.  SIGTERM and
 * SIGINT stop it cleanly: no new connections, in-flight requests are
 * answered once their commit is durable, live streams end, the writer
 * drains its queue and writes a last heartbeat, the database is closed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "admin.h"
#include "auth.h"
#include "backup.h"
#include "backups.h"
#include "commands.h"
#include "flags.h"
#include "games.h"
#include "http.h"
#include "live.h"
#include "sse.h"
#include "writer.h"

typedef struct Startup {
    WriterJob job;
    Server *srv;
    char password[40];
    int created;
    GameOutcome *paused;
} Startup;

static int run_startup(Store *s, WriterJob *job)
{
    Startup *su = job->arg;
    if (admin_user_count(s) == 0) {
        char hash[256], err[200];
        if (auth_random_hex(su->password, 12) || auth_password_hash(su->password, hash, sizeof hash))
            return -EIO;
        int rc = admin_user_add(s, "arbiter", hash, err, sizeof err);
        if (rc)
            return rc;
        su->created = 1;
    }
    return games_pause_after_downtime(su->srv->games, s, &su->paused);
}

static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static int run(int argc, char **argv)
{
    const char *listen = "127.0.0.1:8080", *db = "./arbiter.db", *web = NULL;
    int threads = 2, quiet = 0;
    const char *backup_dir = NULL;
    double backup_every_s = 15 * 60;
    int backup_keep = 24;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "arbiter serve: '%s' needs a value (see 'arbiter help serve')\n", a);
            return 2;
        }
        const char *v = argv[++i];
        if (strcmp(a, "--listen") == 0)
            listen = v;
        else if (strcmp(a, "--db") == 0)
            db = v;
        else if (strcmp(a, "--web") == 0)
            web = v;
        else if (strcmp(a, "--threads") == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 64) {
                fprintf(stderr, "arbiter serve: --threads wants 1 to 64, got '%s'\n", v);
                return 2;
            }
            threads = (int)n;
        } else if (strcmp(a, "--backup-dir") == 0) {
            backup_dir = v;
        } else if (strcmp(a, "--backup-every") == 0) {
            char *end;
            double m = strtod(v, &end);
            if (*end || !(m >= 0.01 && m <= 7 * 24 * 60)) {
                fprintf(stderr, "arbiter serve: --backup-every wants minutes (0.01 to 10080), "
                        "got '%s'\n", v);
                return 2;
            }
            backup_every_s = m * 60;
        } else if (strcmp(a, "--backup-keep") == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 10000) {
                fprintf(stderr, "arbiter serve: --backup-keep wants 1 to 10000, got '%s'\n", v);
                return 2;
            }
            backup_keep = (int)n;
        } else {
            fprintf(stderr, "arbiter serve: unknown option '%s' (see 'arbiter help serve')\n", a);
            return 2;
        }
    }
    raise_fd_limit();
    /* Signals are taken by the main thread only (sigtimedwait below); the
     * threads started from here inherit the mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    Server srv = {.db_path = db, .web_dir = web, .quiet = quiet};
    char err[512];
    /* One server per database: `arbiter restore` and a second server see
     * this lock (the kernel drops it when the process dies). */
    int lockfd = -1;
    int lrc = backup_lock(db, &lockfd);
    if (lrc) {
        if (lrc == BACKUP_E_BUSY)
            fprintf(stderr, "arbiter serve: %s is held by another running server\n", db);
        else
            fprintf(stderr, "arbiter serve: cannot open %s: %s\n", db, strerror(-lrc));
        return 3;
    }
    Backups *backups = NULL;
    srv.writer = writer_start(db, err, sizeof err);
    if (!srv.writer) {
        fprintf(stderr, "arbiter serve: %s\n", err);
        close(lockfd);
        return 3;
    }
    srv.games = games_new();
    srv.hub = hub_new();
    srv.flags = flags_start(&srv);
    Startup su = {.srv = &srv};
    su.job.run = run_startup;
    su.job.arg = &su;
    int rc = writer_call(srv.writer, &su.job);
    if (rc) {
        fprintf(stderr, "arbiter serve: the start-up checks failed (%d)\n", rc);
        goto out;
    }
    for (GameOutcome *o = su.paused; o; o = o->next) {
        fprintf(stderr, "arbiter: game %lld paused as of the last stop; the arbiter resumes it\n",
                (long long)o->gid);
        flags_set(srv.flags, o->gid, o->deadline_ms);
    }
    games_outcome_free(su.paused);
    if (su.created) {
        printf("arbiter: first start: created the arbiter login 'arbiter' with password %s\n"
               "arbiter: it is shown only now; add others with 'arbiter user add NAME'\n",
               su.password);
        fflush(stdout);
    }
    if (backup_dir &&
        !(backups = backups_start(db, backup_dir, backup_every_s, backup_keep, quiet, err,
                                  sizeof err))) {
        fprintf(stderr, "arbiter serve: %s\n", err);
        rc = 3;
        goto out;
    }
    if (http_start(&srv, listen, threads, err, sizeof err)) {
        fprintf(stderr, "arbiter serve: %s\n", err);
        rc = 4;
        goto out;
    }
    fprintf(stderr, "arbiter: listening on http://%s (database %s, %d threads%s%s)\n", listen, db,
            threads, web ? ", web " : "", web ? web : "");
    for (;;) {
        struct timespec ts = {.tv_sec = 15};
        int sig = sigtimedwait(&sigs, NULL, &ts);
        if (sig == SIGINT || sig == SIGTERM) {
            fprintf(stderr, "arbiter: %s received, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
            break;
        }
        hub_keepalive(srv.hub);
    }
    http_stop(&srv);
    uint64_t jobs, batches, run_us, commit_us;
    writer_counts(srv.writer, &jobs, &batches, &run_us, &commit_us);
    fprintf(stderr, "arbiter: %llu writes committed in %llu transactions (%.0f us running "
            "and %.0f us committing per transaction)\n", (unsigned long long)jobs,
            (unsigned long long)batches, batches ? (double)run_us / (double)batches : 0.0,
            batches ? (double)commit_us / (double)batches : 0.0);
    rc = 0;
out:
    backups_stop(backups);
    flags_stop(srv.flags);
    writer_stop(srv.writer);
    flags_free(srv.flags);
    hub_free(srv.hub);
    games_free(srv.games);
    http_readers_close();
    close(lockfd); /* after the last SQLite connection: closing drops the process's locks */
    if (rc == 0)
        fprintf(stderr, "arbiter: stopped cleanly\n");
    return rc;
}

const Command cmd_serve = {
    .name = "serve",
    .summary = "run the tournament server (HTTP/JSON API, live streams, web pages)",
    .help = "usage: arbiter serve [--listen 127.0.0.1:8080] [--db ./arbiter.db] [--web DIR]\n"
            "                     [--threads N] [--quiet]\n"
            "                     [--backup-dir DIR [--backup-every MINUTES] [--backup-keep N]]\n\n"
            "Runs the daemon: the JSON API under /api/v1 (its OpenAPI document is at\n"
            "/api/v1/openapi.json), live Server-Sent Event streams, flag timers, and the\n"
            "static pages of DIR.  The database is created on first start; the first start\n"
            "also creates the arbiter login 'arbiter' and prints its password once.\n"
            "Logs one line per request and per game event to standard error (--quiet: only\n"
            "start, stop and errors).  SIGTERM or SIGINT stop it cleanly.  Games whose\n"
            "clocks ran when the server stopped are paused as of that moment; the arbiter\n"
            "resumes them.\n"
            "  --threads N   HTTP polling threads (default 2)\n"
            "  --backup-dir DIR  write a consistent copy of the database to\n"
            "                DIR/arbiter-YYYYMMDD-HHMMSS.db every --backup-every minutes\n"
            "                (default 15), keeping the newest --backup-keep (default 24)\n"
            "Only one server may hold a database: a second one exits with status 3.\n"
            "Exit status: 0 stopped cleanly, 2 bad usage, 3 database error, 4 cannot listen.\n",
    .run = run,
};
