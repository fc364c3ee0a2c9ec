/*
 * pgn_out.c — PGN export of stored games: the tags the store knows (event,
 * site, date, round.board, names, ratings, FIDE ids) handed to the Laws
 * engine's PGN writer (rules/laws/game_pgn.h).  See pgn_out.h.
 */
#include "pgn_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game_pgn.h"

static void tag(GamePgnTags *t, const char *name, const char *value)
{
    if (!value || !*value || t->count >= GAME_PGN_TAGS_MAX || game_pgn_tag_check(name, value) != 0)
        return;
    snprintf(t->name[t->count], sizeof t->name[0], "%s", name);
    snprintf(t->value[t->count], sizeof t->value[0], "%s", value);
    t->count++;
}

static const char *str(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static void num(GamePgnTags *t, const char *name, json_t *o, const char *k)
{
    json_int_t v = json_integer_value(json_object_get(o, k));
    if (v > 0) {
        char buf[24];
        snprintf(buf, sizeof buf, "%lld", (long long)v);
        tag(t, name, buf);
    }
}

void pgn_out_write_game(StrBuf *b, const GameState *st, json_t *game, json_t *tournament,
                        json_t *white, json_t *black)
{
    GamePgnTags *t = calloc(1, sizeof *t);
    if (!t)
        return;
    char buf[64];
    tag(t, "Event", str(tournament, "name"));
    tag(t, "Site", str(tournament, "place"));
    if (st->started) {
        time_t sec = (time_t)(st->start_ms / 1000);
        struct tm tm;
        gmtime_r(&sec, &tm);
        strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
        tag(t, "Date", buf);
    }
    /* "round.board", as the broadcast platforms read it to place the game. */
    json_int_t rn = json_integer_value(json_object_get(game, "round"));
    json_int_t bd = json_integer_value(json_object_get(game, "board"));
    if (bd > 0)
        snprintf(buf, sizeof buf, "%lld.%lld", (long long)rn, (long long)bd);
    else
        snprintf(buf, sizeof buf, "%lld", (long long)rn);
    tag(t, "Round", buf);
    tag(t, "White", str(white, "name"));
    tag(t, "Black", str(black, "name"));
    num(t, "WhiteElo", white, "rating");
    num(t, "BlackElo", black, "rating");
    tag(t, "WhiteTitle", str(white, "title"));
    tag(t, "BlackTitle", str(black, "title"));
    tag(t, "WhiteFideId", str(white, "fide_id"));
    tag(t, "BlackFideId", str(black, "fide_id"));
    num(t, "Board", game, "board");
    size_t need = game_pgn_write(st, t, NULL, 0);
    char *text = malloc(need + 1);
    if (text) {
        size_t n = game_pgn_write(st, t, text, need + 1);
        strbuf_append(b, text, n);
        free(text);
        /* Exactly one empty line after each game. */
        n = b->data ? b->len : 0;
        while (n && b->data[n - 1] == '\n')
            n--;
        strbuf_truncate(b, n);
        strbuf_puts(b, "\n\n");
    }
    free(t);
}
