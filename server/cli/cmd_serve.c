/*
 * cmd_serve.c — `arbiter serve`: the daemon.
 *
 * Start-up: open (create, migrate) the database; on the very first start
 * create an arbiter login and write its password to a file only the
 * server's user can read, beside the database (never to the journal, where
 * whoever reads the logs would see it); pause every game
 * whose clocks were running when the server last stopped, as of its last
 * heartbeat (nobody is charged for the downtime); then serve.  SIGTERM and
 * SIGINT stop it cleanly: no new connections, in-flight requests are
 * answered once their commit is durable, live streams end, the writer
 * drains its queue and writes a last heartbeat, the database is closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sessions.h"
#include "auth.h"
#include "backup.h"
#include "backups.h"
#include "commands.h"
#include "flags.h"
#include "games.h"
#include "http.h"
#include "live.h"
#include "nchan.h"
#include "routes.h"
#include "sse.h"
#include "writer.h"

typedef struct Startup {
    WriterJob job;
    Server *srv;
    char path[4200]; /* the first password's file */
    int created;
    GameOutcome *paused;
} Startup;

/* The name of the first password's file, in the database's directory. */
#define FIRST_PASSWORD_FILE "arbiter-first-password"

/* Writes PASSWORD to a new file FIRST_PASSWORD_FILE beside DB, mode 0600,
 * its name into PATH (N bytes): 0 or a negative errno.  A file left from
 * before (or a link planted there) is replaced, never written through. */
static int password_file_write(const char *db, const char *password, char *path, size_t n)
{
    const char *slash = strrchr(db, '/');
    int len = snprintf(path, n, "%.*s/" FIRST_PASSWORD_FILE, slash ? (int)(slash - db) : 1,
                       slash ? db : ".");
    if (len < 0 || (size_t)len >= n)
        return -ENAMETOOLONG;
    if (unlink(path) && errno != ENOENT)
        return -errno;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    char line[64];
    int m = snprintf(line, sizeof line, "%s\n", password);
    int rc = write(fd, line, (size_t)m) == m && fsync(fd) == 0 ? 0 : -errno;
    close(fd);
    if (rc)
        unlink(path);
    return rc;
}

static int run_startup(Store *s, WriterJob *job)
{
    Startup *su = job->arg;
    if (sessions_user_count(s) == 0) {
        char hash[256], err[200], password[40];
        if (auth_random_hex(password, 12) || auth_password_hash(password, hash, sizeof hash))
            return -EIO;
        int rc = sessions_user_add(s, "arbiter", hash, err, sizeof err);
        if (rc)
            return rc;
        /* Written before the login commits: a login whose password nobody
         * can learn is never made. */
        rc = password_file_write(su->srv->db_path, password, su->path, sizeof su->path);
        if (rc) {
            fprintf(stderr, "arbiter serve: cannot write the first password to %s: %s\n", su->path,
                    strerror(-rc));
            return rc;
        }
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

/* What the command line asked for (defaults filled in). */
typedef struct ServeOptions {
    const char *listen, *db, *web, *backup_dir, *nchan_url;
    int threads, quiet, backup_keep, behind_tls;
    double backup_every_s;
    RateRule write_rule, read_rule;
    ProxyList proxies;
    ConnLimits conn_limits;
    unsigned export_threads;
} ServeOptions;

/* The whole number V of option NAME into *OUT when it lies in LO..HI; else
 * a message and 2 (a usage error). */
static int whole_option(const char *name, const char *v, long lo, long hi, unsigned *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < lo || n > hi) {
        fprintf(stderr, "arbiter serve: %s wants %ld to %ld, got '%s'\n", name, lo, hi, v);
        return 2;
    }
    *out = (unsigned)n;
    return 0;
}

/* The options of the connection guard (conns.h) and of the export
 * threads: 1 when A is not one of them, else what whole_option says. */
static int guard_option(const char *a, const char *v, ServeOptions *o)
{
    static const struct {
        const char *name;
        long lo, hi;
        size_t off;
    } t[] = {
        {"--max-connections-per-address", 0, 30000, offsetof(ServeOptions, conn_limits.per_addr)},
        {"--max-streams-per-address", 0, 30000, offsetof(ServeOptions, conn_limits.streams)},
        {"--header-timeout", 1, 600, offsetof(ServeOptions, conn_limits.header_s)},
        {"--idle-timeout", 20, 3600, offsetof(ServeOptions, conn_limits.idle_s)},
        {"--export-threads", 1, 16, offsetof(ServeOptions, export_threads)},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(a, t[i].name) == 0)
            return whole_option(a, v, t[i].lo, t[i].hi, (unsigned *)((char *)o + t[i].off));
    return 1;
}

/* The options of ARGV into *O.  0, or 2 after a message (a usage error). */
static int parse_options(int argc, char **argv, ServeOptions *o)
{
    *o = (ServeOptions){
        .listen = "127.0.0.1:8080",
        .db = "./arbiter.db",
        .threads = 2,
        .backup_every_s = 15 * 60,
        .backup_keep = 24,
        .write_rule = {RATELIMIT_DEFAULT_WRITE_RATE * 1000, RATELIMIT_DEFAULT_WRITE_BURST},
        .conn_limits = {CONNS_DEFAULT_PER_ADDR, CONNS_DEFAULT_STREAMS, CONNS_DEFAULT_HEADER_S,
                        CONNS_DEFAULT_IDLE_S},
        .export_threads = 1,
    };
    int read_given = 0;
    char perr[200];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
            continue;
        }
        if (strcmp(a, "--behind-tls") == 0) {
            o->behind_tls = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "arbiter serve: '%s' needs a value (see 'arbiter help serve')\n", a);
            return 2;
        }
        const char *v = argv[++i];
        int g = guard_option(a, v, o);
        if (g != 1) {
            if (g)
                return g;
            continue;
        }
        if (strcmp(a, "--listen") == 0)
            o->listen = v;
        else if (strcmp(a, "--db") == 0)
            o->db = v;
        else if (strcmp(a, "--web") == 0)
            o->web = v;
        else if (strcmp(a, "--nchan-publish") == 0) {
            if (nchan_url_check(v, perr, sizeof perr)) {
                fprintf(stderr, "arbiter serve: %s\n", perr);
                return 2;
            }
            o->nchan_url = v;
        } else if (strcmp(a, "--threads") == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 64) {
                fprintf(stderr, "arbiter serve: --threads wants 1 to 64, got '%s'\n", v);
                return 2;
            }
            o->threads = (int)n;
        } else if (strcmp(a, "--rate-limit") == 0 || strcmp(a, "--read-rate-limit") == 0) {
            int reads = strcmp(a, "--read-rate-limit") == 0;
            if (ratelimit_rule_parse(v, reads ? &o->read_rule : &o->write_rule, perr,
                                     sizeof perr)) {
                fprintf(stderr, "arbiter serve: %s %s\n", a, perr);
                return 2;
            }
            read_given |= reads;
        } else if (strcmp(a, "--trusted-proxy") == 0) {
            if (ratelimit_proxies_add(&o->proxies, v, perr, sizeof perr)) {
                fprintf(stderr, "arbiter serve: --trusted-proxy %s\n", perr);
                return 2;
            }
        } else if (strcmp(a, "--backup-dir") == 0) {
            o->backup_dir = v;
        } else if (strcmp(a, "--backup-every") == 0) {
            char *end;
            double m = strtod(v, &end);
            if (*end || !(m >= 0.01 && m <= 7 * 24 * 60)) {
                fprintf(stderr,
                        "arbiter serve: --backup-every wants minutes (0.01 to 10080), "
                        "got '%s'\n",
                        v);
                return 2;
            }
            o->backup_every_s = m * 60;
        } else if (strcmp(a, "--backup-keep") == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 10000) {
                fprintf(stderr, "arbiter serve: --backup-keep wants 1 to 10000, got '%s'\n", v);
                return 2;
            }
            o->backup_keep = (int)n;
        } else {
            fprintf(stderr, "arbiter serve: unknown option '%s' (see 'arbiter help serve')\n", a);
            return 2;
        }
    }
    if (!read_given) {
        /* Reads come in larger numbers than writes (a page loads a dozen
         * files, a view a few lists). */
        o->read_rule.milli_per_s = o->write_rule.milli_per_s * RATELIMIT_READ_FACTOR;
        o->read_rule.burst = o->write_rule.burst * RATELIMIT_READ_FACTOR;
    }
    return 0;
}

/* The start-up checks on the writer: the first arbiter login on an empty
 * database (its password in a file), the games that were running when
 * the server stopped paused and their timers set.  0 or the job's code. */
static int start_checks(Server *srv)
{
    Startup su = {.srv = srv};
    su.job.run = run_startup;
    su.job.arg = &su;
    int rc = writer_call(srv->writer, &su.job);
    if (rc) {
        fprintf(stderr, "arbiter serve: the start-up checks failed (%d)\n", rc);
        return rc;
    }
    for (GameOutcome *o = su.paused; o; o = o->next) {
        fprintf(stderr, "arbiter: game %lld paused as of the last stop; the arbiter resumes it\n",
                (long long)o->gid);
        flags_set(srv->flags, o->gid, o->deadline_ms);
    }
    games_outcome_free(su.paused);
    if (su.created) {
        printf("arbiter: first start: created the arbiter login 'arbiter'; its password is in "
               "%s\n"
               "arbiter: that file is readable by this user only: sign in, change the password "
               "or delete the file; add others with 'arbiter user add NAME'\n",
               su.path);
        fflush(stdout);
    }
    return 0;
}

static void announce(const ServeOptions *o, const Server *srv)
{
    fprintf(stderr, "arbiter: listening on http://%s (database %s, %d threads%s%s)\n", o->listen,
            o->db, o->threads, o->web ? ", web " : "", o->web ? o->web : "");
    if (srv->limiter)
        fprintf(stderr,
                "arbiter: rate limit per client address: %g writes/s (bursts of %lld), "
                "%g reads/s (bursts of %lld)%s\n",
                (double)o->write_rule.milli_per_s / 1000, (long long)o->write_rule.burst,
                (double)o->read_rule.milli_per_s / 1000, (long long)o->read_rule.burst,
                o->proxies.n ? "" : "; no trusted proxy: X-Forwarded-For is ignored");
    else
        fprintf(stderr, "arbiter: no request rate limit\n");
    const ConnLimits *l = &o->conn_limits;
    fprintf(stderr,
            "arbiter: per client address at most %u connections and %u live streams (0: no "
            "cap); headers within %u s, next request within %u s; %u export threads\n",
            l->per_addr, l->streams, l->header_s, l->idle_s, o->export_threads);
}

/* Serves until SIGINT or SIGTERM (blocked in SIGS), keeping idle streams
 * alive every 5 s and trimming the heap every minute. */
static void wait_for_signal(Server *srv, const sigset_t *sigs)
{
    for (unsigned tick = 1;; tick++) {
        struct timespec ts = {.tv_sec = 5}; /* keepalive tick: idle streams every 15 s */
        int sig = sigtimedwait(sigs, NULL, &ts);
        if (sig == SIGINT || sig == SIGTERM) {
            fprintf(stderr, "arbiter: %s received, stopping\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM");
            return;
        }
        sse_keepalive(srv->hub);
        if (tick % 12 == 0)
            http_heap_trim();
    }
}

static void report_writes(Writer *w)
{
    uint64_t jobs, batches, run_us, commit_us;
    writer_counts(w, &jobs, &batches, &run_us, &commit_us);
    fprintf(stderr,
            "arbiter: %llu writes committed in %llu transactions (%.0f us running "
            "and %.0f us committing per transaction)\n",
            (unsigned long long)jobs, (unsigned long long)batches,
            batches ? (double)run_us / (double)batches : 0.0,
            batches ? (double)commit_us / (double)batches : 0.0);
}

static int run(int argc, char **argv)
{
    ServeOptions o;
    if (parse_options(argc, argv, &o))
        return 2;
    raise_fd_limit();
    /* Signals are taken by the main thread only (sigtimedwait below); the
     * threads started from here inherit the mask. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    Server srv = {.hooks = &routes_hooks,
                  .db_path = o.db,
                  .web_dir = o.web,
                  .quiet = o.quiet,
                  .proxies = &o.proxies,
                  .behind_tls = o.behind_tls,
                  .conn_limits = o.conn_limits,
                  .heavy_threads = (int)o.export_threads};
    char err[512];
    if ((o.write_rule.milli_per_s || o.read_rule.milli_per_s) &&
        !(srv.limiter = ratelimit_new(&o.read_rule, &o.write_rule, 0))) {
        fprintf(stderr, "arbiter serve: out of memory for the rate limit table\n");
        return 3;
    }
    /* One server per database: `arbiter restore` and a second server see
     * this lock (the kernel drops it when the process dies). */
    int lockfd = -1;
    int lrc = backup_lock(o.db, &lockfd);
    if (lrc) {
        if (lrc == BACKUP_E_BUSY)
            fprintf(stderr, "arbiter serve: %s is held by another running server\n", o.db);
        else
            fprintf(stderr, "arbiter serve: cannot open %s: %s\n", o.db, strerror(-lrc));
        ratelimit_free(srv.limiter);
        return 3;
    }
    Backups *backups = NULL;
    srv.writer = writer_start(o.db, err, sizeof err);
    if (!srv.writer) {
        fprintf(stderr, "arbiter serve: %s\n", err);
        close(lockfd);
        ratelimit_free(srv.limiter);
        return 3;
    }
    srv.games = games_new();
    srv.hub = sse_new();
    srv.flags = flags_start(&srv, live_game);
    int rc = start_checks(&srv);
    if (rc)
        goto out;
    if (o.nchan_url) {
        if (!(srv.nchan = nchan_start(o.nchan_url, err, sizeof err))) {
            fprintf(stderr, "arbiter serve: %s\n", err);
            rc = 2;
            goto out;
        }
        sse_tap_set(srv.hub, live_tap, srv.nchan);
        fprintf(stderr, "arbiter: public live events are published to Nchan at %s\n", o.nchan_url);
    }
    if (o.backup_dir && !(backups = backups_start(o.db, o.backup_dir, o.backup_every_s,
                                                  o.backup_keep, o.quiet, err, sizeof err))) {
        fprintf(stderr, "arbiter serve: %s\n", err);
        rc = 3;
        goto out;
    }
    if (http_start(&srv, o.listen, o.threads, err, sizeof err)) {
        fprintf(stderr, "arbiter serve: %s\n", err);
        rc = 4;
        goto out;
    }
    announce(&o, &srv);
    wait_for_signal(&srv, &sigs);
    http_stop(&srv);
    report_writes(srv.writer);
    rc = 0;
out:
    backups_stop(backups);
    flags_stop(srv.flags);
    writer_stop(srv.writer);
    flags_free(srv.flags);
    sse_free(srv.hub); /* the delay line's waker feeds the publisher: stopped first */
    nchan_stop(srv.nchan);
    games_free(srv.games);
    http_readers_close();
    ratelimit_free(srv.limiter);
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
            "                     [--rate-limit R[,BURST]] [--read-rate-limit R[,BURST]]\n"
            "                     [--trusted-proxy ADDR[,ADDR...]] [--behind-tls]\n"
            "                     [--max-connections-per-address N] [--max-streams-per-address N]\n"
            "                     [--header-timeout S] [--idle-timeout S] [--export-threads N]\n"
            "                     [--backup-dir DIR [--backup-every MINUTES] [--backup-keep N]]\n"
            "                     [--nchan-publish URL]\n\n"
            "Runs the daemon: the JSON API under /api/v1 (its OpenAPI document is at\n"
            "/api/v1/openapi.json), live Server-Sent Event streams, flag timers, and the\n"
            "static pages of DIR.  The database is created on first start; the first start\n"
            "also creates the arbiter login 'arbiter' and writes its password to the file\n"
            "arbiter-first-password (mode 0600) in the database's directory.\n"
            "Logs one line per request and per game event to standard error (--quiet: only\n"
            "start, stop and errors).  SIGTERM or SIGINT stop it cleanly.  Games whose\n"
            "clocks ran when the server stopped are paused as of that moment; the arbiter\n"
            "resumes them.\n"
            "  --threads N   HTTP polling threads (default 2)\n"
            "  --rate-limit R[,BURST]  per client address, at most R changes (POST, PATCH,\n"
            "                PUT, DELETE) per second on average, BURST at once (default\n"
            "                20,40; BURST defaults to 2R); reads (pages, files, lists, a live\n"
            "                stream counted once when it opens) get five times as much\n"
            "                (100,200).  Over it: 429 rate_limited with Retry-After.\n"
            "                0 turns the limit off (load tests).\n"
            "  --read-rate-limit R[,BURST]  the read budget on its own (0: reads unlimited)\n"
            "  --trusted-proxy ADDR  a reverse proxy (e.g. nginx on 127.0.0.1) whose\n"
            "                X-Forwarded-For names the client: its last address is used\n"
            "                for the rate limit and the sign-in throttle.  Repeatable or\n"
            "                comma-separated; by default none, and X-Forwarded-For is\n"
            "                ignored (a client cannot pose as another by sending it).\n"
            "  --behind-tls  clients reach the server over https (a TLS proxy in front):\n"
            "                the session cookie is Secure and a page's Origin must be https.\n"
            "  --max-connections-per-address N  open connections one client address may\n"
            "                hold (default 2000; 0: no cap); a trusted proxy is not capped.\n"
            "                Sized for a venue whose tablets share one NAT address\n"
            "                (deploy/README.md).\n"
            "  --max-streams-per-address N  live streams of one client address (default\n"
            "                1000; 0: no cap); over it: 429 too_many_streams.\n"
            "  --header-timeout S  a new connection must send its request's headers\n"
            "                within S seconds (default 5), however slowly it trickles them\n"
            "  --idle-timeout S  a kept-alive connection must send its next request\n"
            "                within S seconds of the last answer, and any connection on\n"
            "                which nothing moves for S seconds is closed (default 30, at\n"
            "                least 20: live streams get a keep-alive every 15 s)\n"
            "  --export-threads N  threads that render exports (PGN, TRF, crosstables,\n"
            "                standings, ratings), below the polling threads' priority, so\n"
            "                exports never delay a move (default 1: a flood of exports\n"
            "                takes at most one core)\n"
            "  --backup-dir DIR  write a consistent copy of the database to\n"
            "                DIR/arbiter-YYYYMMDD-HHMMSS.db every --backup-every minutes\n"
            "                (default 15), keeping the newest --backup-keep (default 24)\n"
            "  --nchan-publish URL  also POST every public live event, once, to nginx's\n"
            "                Nchan publisher at URL (http://127.0.0.1:8090/pub, or\n"
            "                http://unix:/run/arbiter-nchan.sock:/pub): channels\n"
            "                games-GID and tournaments-TID, after the public delay, in\n"
            "                order; nginx then serves the spectators' streams\n"
            "                (deploy/README.md).  Counters in /api/v1/health.\n"
            "Only one server may hold a database: a second one exits with status 3.\n"
            "Exit status: 0 stopped cleanly, 2 bad usage, 3 database error, 4 cannot listen.\n",
    .run = run,
};
