/*
 * cmd_game.c — `arbiter game [FILE]` folds a game's event log (JSON lines,
 * docs/events.md) and prints the resulting state as JSON; `arbiter pgn
 * [FILE]` prints the game as PGN.  FILE absent or "-" = standard input.
 *
 * Each event is applied at its own time; refused events are reported (on
 * stderr and in the state's "refused" list) and skipped, as the server
 * would not have stored them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "event_json.h"
#include "game.h"
#include "game_pgn.h"
#include "strbuf.h"

typedef struct Folded {
    GameState *st;
    json_t *refused;
    int64_t last_ms;
    int nrefused;
} Folded;

/* Reads one line of any length (up to 2 MB); returns NULL at EOF, on a
 * longer line or when memory runs out.  Caller frees. */
static char *read_line(FILE *f)
{
    StrBuf sb = STRBUF_INIT;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (sb.len + 1 >= (size_t)1 << 21) {
            strbuf_free(&sb);
            return NULL;
        }
        strbuf_putc(&sb, (char)c);
    }
    if (c == EOF && sb.len == 0) {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_take(&sb);
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r')
            return *s == '#';
    return true;
}

/* Folds the log in f.  Returns 0, 2 (bad input, message printed) or 3. */
static int fold(FILE *f, const char *name, const char *cmd, Folded *out)
{
    memset(out, 0, sizeof *out);
    out->refused = json_array();
    GameSettings settings;
    game_settings_default(&settings);
    char err[256];
    int lineno = 0;
    char *line;
    int status = 0;
    while ((line = read_line(f)) != NULL) {
        lineno++;
        if (blank(line)) {
            free(line);
            continue;
        }
        json_error_t je;
        json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &je);
        free(line);
        if (!obj) {
            fprintf(stderr, "arbiter %s: %s:%d: not valid JSON: %s\n", cmd, name, lineno, je.text);
            status = 2;
            break;
        }
        const char *type = json_string_value(json_object_get(obj, "type"));
        if (type && strcmp(type, "settings") == 0) {
            if (out->st) {
                fprintf(stderr, "arbiter %s: %s:%d: settings must come before the first event\n",
                        cmd, name, lineno);
                json_decref(obj);
                status = 2;
                break;
            }
            int rc = event_json_settings_from_json(obj, &settings, err, sizeof err);
            json_decref(obj);
            if (rc) {
                fprintf(stderr, "arbiter %s: %s:%d: %s\n", cmd, name, lineno, err);
                status = 2;
                break;
            }
            continue;
        }
        GameEvent ev;
        int rc = event_json_from_json(obj, &ev, err, sizeof err);
        json_decref(obj);
        if (rc) {
            fprintf(stderr, "arbiter %s: %s:%d: %s\n", cmd, name, lineno, err);
            status = 2;
            break;
        }
        if (!out->st) {
            out->st = game_new(&settings, err, sizeof err);
            if (!out->st) {
                fprintf(stderr, "arbiter %s: %s\n", cmd, err);
                status = 2;
                break;
            }
        }
        GameVerdict v;
        if (game_apply(out->st, &ev, ev.time_ms, &v) != GAME_OK) {
            fprintf(stderr, "arbiter %s: %s:%d: %s refused (%s): %s\n", cmd, name, lineno,
                    game_event_type_name(ev.type), event_json_code_name(v.code), v.reason);
            json_array_append_new(out->refused,
                                  json_pack("{s:i,s:s,s:s}", "line", lineno, "code",
                                            event_json_code_name(v.code), "reason", v.reason));
            out->nrefused++;
        }
        if (ev.time_ms > out->last_ms)
            out->last_ms = ev.time_ms;
    }
    if (status == 0 && ferror(f)) {
        fprintf(stderr, "arbiter %s: %s: read error\n", cmd, name);
        status = 3;
    }
    if (status == 0 && !out->st) {
        out->st = game_new(&settings, err, sizeof err);
        if (!out->st) {
            fprintf(stderr, "arbiter %s: %s\n", cmd, err);
            status = 2;
        }
    }
    return status;
}

static void folded_free(Folded *fd)
{
    game_free(fd->st);
    json_decref(fd->refused);
}

typedef struct Args {
    const char *file;
    int64_t now;
    bool have_now;
    GamePgnTags tags;
} Args;

static int parse_args(int argc, char **argv, Args *a, bool pgn)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--now") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            long long v = strtoll(argv[++i], &end, 10);
            if (*end || end == argv[i] || errno || v < 0) {
                fprintf(stderr, "arbiter %s: --now wants milliseconds, not '%s'\n", argv[0],
                        argv[i]);
                return 2;
            }
            a->now = v;
            a->have_now = true;
        } else if (pgn && strcmp(argv[i], "--tag") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            const char *eq = strchr(t, '=');
            if (!eq || eq == t || a->tags.count == GAME_PGN_TAGS_MAX ||
                (size_t)(eq - t) >= sizeof a->tags.name[0] ||
                strlen(eq + 1) >= sizeof a->tags.value[0]) {
                fprintf(stderr, "arbiter pgn: --tag wants NAME=VALUE (short), not '%s'\n", t);
                return 2;
            }
            int k = a->tags.count++;
            memcpy(a->tags.name[k], t, (size_t)(eq - t));
            a->tags.name[k][eq - t] = '\0';
            snprintf(a->tags.value[k], sizeof a->tags.value[k], "%s", eq + 1);
            if (game_pgn_tag_check(a->tags.name[k], a->tags.value[k])) {
                fprintf(stderr, "arbiter pgn: tag '%s' is not a valid PGN tag name or value\n", t);
                return 2;
            }
        } else if (argv[i][0] == '-' && argv[i][1] && !a->file) {
            fprintf(stderr, "arbiter %s: unknown option '%s' (see 'arbiter help %s')\n", argv[0],
                    argv[i], argv[0]);
            return 2;
        } else if (!a->file) {
            a->file = argv[i];
        } else {
            fprintf(stderr, "arbiter %s: one FILE at most\n", argv[0]);
            return 2;
        }
    }
    return 0;
}

static int load(const Args *a, const char *cmd, Folded *fd)
{
    FILE *f = stdin;
    const char *name = "stdin";
    if (a->file && strcmp(a->file, "-") != 0) {
        f = fopen(a->file, "r");
        name = a->file;
        if (!f) {
            fprintf(stderr, "arbiter %s: cannot open %s: %s\n", cmd, a->file, strerror(errno));
            return 3;
        }
    }
    int rc = fold(f, name, cmd, fd);
    if (f != stdin)
        fclose(f);
    return rc;
}

static int run_game(int argc, char **argv)
{
    Args a;
    int rc = parse_args(argc, argv, &a, false);
    if (rc)
        return rc;
    Folded fd;
    rc = load(&a, "game", &fd);
    if (rc) {
        folded_free(&fd);
        return rc;
    }
    if (a.have_now && a.now < fd.last_ms) {
        fprintf(stderr, "arbiter game: --now %lld is before the last event (%lld)\n",
                (long long)a.now, (long long)fd.last_ms);
        folded_free(&fd);
        return 2;
    }
    int64_t now = a.have_now ? a.now : fd.last_ms;
    json_t *o = event_json_state_to_json(fd.st, now);
    if (!o) {
        fprintf(stderr, "arbiter game: out of memory\n");
        folded_free(&fd);
        return 3;
    }
    json_object_set_new(o, "now_ms", json_integer(now));
    json_object_set_new(o, "events", json_integer(fd.st->nevents));
    json_object_set(o, "refused", fd.refused);
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text) {
        folded_free(&fd);
        return 3;
    }
    puts(text);
    free(text);
    rc = fd.nrefused ? 1 : 0;
    folded_free(&fd);
    return rc;
}

static int run_pgn(int argc, char **argv)
{
    Args a;
    int rc = parse_args(argc, argv, &a, true);
    if (rc)
        return rc;
    Folded fd;
    rc = load(&a, "pgn", &fd);
    if (rc) {
        folded_free(&fd);
        return rc;
    }
    char *text = NULL, err[200];
    rc = game_pgn(fd.st, &a.tags, &text, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter pgn: %s\n", rc < 0 ? "out of memory" : err);
        folded_free(&fd);
        return 3;
    }
    fputs(text, stdout);
    free(text);
    rc = fd.nrefused ? 1 : 0;
    folded_free(&fd);
    return rc;
}

const Command cmd_game = {
    .name = "game",
    .summary = "fold a game's event log (JSON lines) and print its state as JSON",
    .help = "usage: arbiter game [--now MS] [FILE]\n\n"
            "Reads a game's event log, one JSON object per line (docs/events.md), from\n"
            "FILE or standard input; the first line may be {\"type\":\"settings\",...}.\n"
            "Applies each event at its own time under the Laws of Chess and prints the\n"
            "resulting state as JSON: position, moves, result and each side's score,\n"
            "termination, clocks (read at --now, default the last event's time),\n"
            "illegal-move counts, pending offer, notes, and the refused events.\n"
            "Exit status: 0 ok, 1 some events were refused, 2 bad input, 3 unreadable file.\n",
    .run = run_game,
};

const Command cmd_pgn = {
    .name = "pgn",
    .summary = "print a game's event log (JSON lines) as PGN",
    .help = "usage: arbiter pgn [--tag NAME=VALUE]... [FILE]\n\n"
            "Folds the event log as 'arbiter game' does and prints the game as PGN:\n"
            "the Seven Tag Roster plus TimeControl, Termination, FEN/SetUp when the\n"
            "game did not start from the initial position, and any --tag given (e.g.\n"
            "--tag White=\"Carlsen, Magnus\" --tag WhiteFideId=1503014 --tag Board=3);\n"
            "each move is followed by {[%clk H:MM:SS]}; draw offers are marked (=),\n"
            "claims, penalties and arbiter actions are comments.\n"
            "Exit status: 0 ok, 1 some events were refused, 2 bad input, 3 unreadable file.\n",
    .run = run_pgn,
};
