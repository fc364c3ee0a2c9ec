/*
 * cmd_replay.c — `arbiter replay [--fen FEN]`: plays the moves read on
 * stdin and prints, per ply, one JSON object on one line: the SAN and UCI of
 * the move, the FEN after it, the sorted legal moves there (UCI, castling as
 * the king's two-square move) and the game status.  Other tools and tests
 * read this output, so its shape is a contract:
 *   {"ply":1,"san":"e4","uci":"e2e4","fen":"...","legal":[...],"status":"ongoing"}
 * status is one of ongoing, checkmate, stalemate, insufficient, fivefold,
 * seventyfive.  A move that cannot be played prints {"ply":N,"error":"..."}
 * and ends the run with exit status 2; so does a move after the end.
 *
 * Moves may be in any notation notation_parse() accepts, separated by
 * white space; move numbers ("12." "12...") are skipped, a separate
 * "e.p." token belongs to the move before it, and a result token ("1-0",
 * "0-1", "1/2-1/2", "*") ends the input; anywhere else it is an error.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "commands.h"
#include "notation.h"
#include "outcome.h"

static int cmp_uci(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void print_json(json_t *obj)
{
    char *s = json_dumps(obj, JSON_COMPACT | JSON_ENSURE_ASCII);
    if (s) {
        fputs(s, stdout);
        fputc('\n', stdout);
        free(s);
    }
    json_decref(obj);
}

/* A JSON string of msg; bytes that are not valid UTF-8 (a mistyped move
 * is quoted in its message) become '?'. */
static json_t *json_text(const char *msg)
{
    json_t *s = json_string(msg);
    if (s)
        return s;
    char clean[512];
    size_t n = 0;
    for (const char *p = msg; *p && n + 1 < sizeof clean; p++)
        clean[n++] = (unsigned char)*p < 0x80 ? *p : '?';
    clean[n] = '\0';
    return json_string(clean);
}

static int print_error(int ply, const char *msg)
{
    json_t *o = json_object();
    json_object_set_new(o, "ply", json_integer(ply));
    json_object_set_new(o, "error", json_text(msg));
    print_json(o);
    return 2;
}

/* A move number: digits followed by dots only ("12." or "12..."). */
static size_t move_number_len(const char *t)
{
    size_t i = 0;
    while (t[i] >= '0' && t[i] <= '9')
        i++;
    if (i == 0 || t[i] != '.')
        return 0;
    while (t[i] == '.')
        i++;
    return i;
}

/* A game result as PGN and scoresheets write it after the last move. */
static bool is_result(const char *t)
{
    return strcmp(t, "1-0") == 0 || strcmp(t, "0-1") == 0 || strcmp(t, "1/2-1/2") == 0 ||
           strcmp(t, "\xc2\xbd-\xc2\xbd") == 0 || strcmp(t, "*") == 0;
}

static bool is_ep_mark(const char *t)
{
    return strcmp(t, "e.p.") == 0 || strcmp(t, "e.p") == 0 || strcmp(t, "ep") == 0 ||
           strcmp(t, "(ep)") == 0 || strcmp(t, "(e.p.)") == 0;
}

/* Reads one whitespace-separated token of at most cap-1 bytes; a longer
 * one is cut (and then fails to parse, with its start shown).  Returns
 * false at end of input. */
static bool read_token(FILE *in, char *tok, size_t cap)
{
    int c;
    while ((c = getc(in)) != EOF &&
           (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'))
        ;
    if (c == EOF)
        return false;
    size_t n = 0;
    do {
        if (n + 1 < cap)
            tok[n++] = (char)c;
    } while ((c = getc(in)) != EOF &&
             !(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'));
    tok[n] = '\0';
    return true;
}

static int run(int argc, char **argv)
{
    const char *fen = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc) {
            fen = argv[++i];
        } else if (strncmp(argv[i], "--fen=", 6) == 0) {
            fen = argv[i] + 6;
        } else {
            fprintf(stderr, "usage: arbiter replay [--fen FEN] < moves\n");
            return 2;
        }
    }
    Board b;
    char err[NOTATION_ERR_MAX];
    if (fen) {
        if (board_from_fen(&b, fen, err, sizeof err)) {
            fprintf(stderr, "arbiter replay: bad FEN: %s\n", err);
            return 2;
        }
    } else {
        board_start(&b);
    }

    size_t keys_cap = 256;
    int nkeys = 0;
    uint64_t *keys = malloc(keys_cap * sizeof *keys);
    if (!keys) {
        fprintf(stderr, "arbiter replay: out of memory\n");
        return 1;
    }
    keys[nkeys++] = b.key;
    Outcome status = outcome_of_game(&b, keys, nkeys);

    int ply = 0, rc = 0;
    char tok[256];
    while (read_token(stdin, tok, sizeof tok)) {
        const char *text = tok + move_number_len(tok);
        if (!*text || is_ep_mark(text))
            continue;
        ply++;
        if (is_result(text)) {
            /* The result closes the record: accepted only as the last token. */
            char more[256];
            if (!read_token(stdin, more, sizeof more))
                break;
            char msg[320];
            snprintf(msg, sizeof msg, "the result '%s' may only end the moves", text);
            rc = print_error(ply, msg);
            break;
        }
        if (status != OUTCOME_ONGOING) {
            char msg[64];
            snprintf(msg, sizeof msg, "the game is over: %s", outcome_name(status));
            rc = print_error(ply, msg);
            break;
        }
        Move m;
        if (notation_parse(&b, text, &m, err, sizeof err)) {
            rc = print_error(ply, err);
            break;
        }
        char san[NOTATION_SAN_MAX], uci[6], fenout[FEN_MAX];
        notation_san(&b, m, san);
        board_move_to_uci(m, uci);
        board_make(&b, m);
        if ((size_t)nkeys == keys_cap) {
            uint64_t *k = realloc(keys, 2 * keys_cap * sizeof *keys);
            if (!k) {
                fprintf(stderr, "arbiter replay: out of memory\n");
                rc = 1;
                break;
            }
            keys = k;
            keys_cap *= 2;
        }
        keys[nkeys++] = b.key;
        status = outcome_of_game(&b, keys, nkeys);
        board_to_fen(&b, fenout);

        MoveList list;
        movegen_legal_moves(&b, &list);
        char ucis[MOVES_MAX][6];
        for (int i = 0; i < list.count; i++)
            board_move_to_uci(list.moves[i], ucis[i]);
        qsort(ucis, (size_t)list.count, sizeof ucis[0], cmp_uci);
        json_t *legal = json_array();
        for (int i = 0; i < list.count; i++)
            json_array_append_new(legal, json_string(ucis[i]));

        json_t *o = json_object();
        json_object_set_new(o, "ply", json_integer(ply));
        json_object_set_new(o, "san", json_string(san));
        json_object_set_new(o, "uci", json_string(uci));
        json_object_set_new(o, "fen", json_string(fenout));
        json_object_set_new(o, "legal", legal);
        json_object_set_new(o, "status", json_string(outcome_name(status)));
        print_json(o);
    }
    free(keys);
    if (fflush(stdout) != 0 && rc == 0) {
        fprintf(stderr, "arbiter replay: cannot write the output\n");
        rc = 1;
    }
    return rc;
}

const Command cmd_replay = {
    .name = "replay",
    .summary = "play moves from stdin, print each position as JSON",
    .help = "usage: arbiter replay [--fen FEN] < moves\n\n"
            "Reads moves in any common notation (SAN, long algebraic, UCI, figurines,\n"
            "Russian or Bulgarian piece letters), separated by white space, from the\n"
            "start position or FEN, and prints one JSON object per ply on one line:\n"
            "  {\"ply\":1,\"san\":\"e4\",\"uci\":\"e2e4\",\"fen\":\"...\",\"legal\":[...],"
            "\"status\":\"ongoing\"}\n"
            "legal is the sorted list of legal moves (UCI, castling as the king's move)\n"
            "after the move; status is ongoing, checkmate, stalemate, insufficient,\n"
            "fivefold or seventyfive.  Move numbers (\"1.\", \"1...\") are skipped;\n"
            "a result (1-0, 0-1, 1/2-1/2, *) may end the input.\n"
            "A move that is malformed, ambiguous or illegal, or comes after the end of\n"
            "the game, prints {\"ply\":N,\"error\":\"...\"} and stops.\n"
            "Exit status: 0 ok, 2 bad move or bad FEN.\n",
    .run = run,
};
