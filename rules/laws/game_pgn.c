/*
 * game_pgn.c — the PgnGame of a folded game (see game_pgn.h); the text
 * itself is rules/pgn's.
 */
#include "game_pgn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "pgn.h"
#include "strbuf.h"

int game_pgn_tag_check(const char *name, const char *value)
{
    if (!name || !((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
        return 1;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return 1;
    for (const unsigned char *p = (const unsigned char *)value; p && *p; p++)
        if (*p < 32 || *p == 127)
            return 1;
    return 0;
}

static const char *termination(const GameState *st)
{
    if (!st->over)
        return "unterminated";
    switch (st->end) {
    case GAME_END_TIME: return "time forfeit";
    case GAME_END_ILLEGAL_MOVES:
    case GAME_END_PENALTY: return "rules infraction";
    case GAME_END_DEFAULT: return "abandoned";
    case GAME_END_ARBITER: return "adjudication";
    default: return "normal";
    }
}

/* The PGN result token: only the four the standard knows. */
static const char *pgn_result(const GameState *st)
{
    if (!st->over)
        return "*";
    int w = st->score[WHITE], b = st->score[BLACK];
    if (w == 2 && b == 0)
        return "1-0";
    if (w == 0 && b == 2)
        return "0-1";
    if (w == 1 && b == 1)
        return "1/2-1/2";
    return "*";
}

/* Appends s; an empty s adds nothing, so a ply without notes keeps a NULL
 * comment. */
static void add(StrBuf *t, const char *s)
{
    if (*s)
        strbuf_puts(t, s);
}

static void add_sep(StrBuf *t, const char *s)
{
    if (t->len)
        add(t, "; ");
    add(t, s);
}

/* Notes made after `ply` plies, skipping the offer made with that ply's
 * move (pgn_write marks it (=) itself). */
static void notes_at(const GameState *st, int ply, bool skip_move_offer, StrBuf *t)
{
    for (int i = 0; i < st->nnotes; i++) {
        const GameNote *n = &st->notes[i];
        if (n->ply != ply)
            continue;
        if (skip_move_offer && n->type == GAME_EV_MOVE && strncmp(n->text, "(=)", 3) == 0)
            continue;
        add_sep(t, n->text);
    }
}

static const char *half(int h)
{
    return h == 2 ? "1" : h == 1 ? "1/2" : "0";
}

int game_pgn(const GameState *st, const GamePgnTags *tags, char **out, char *err, size_t errlen)
{
    *out = NULL;
    int n = st->nplies;
    PgnPly *plies = calloc((size_t)(n ? n : 1), sizeof *plies);
    StrBuf *texts = calloc((size_t)(n ? n : 1), sizeof *texts);
    PgnTag tagv[GAME_PGN_TAGS_MAX + 4];
    StrBuf before = {0}, closing = {0};
    int rc = -ENOMEM;
    if (!plies || !texts)
        goto done;

    notes_at(st, 0, false, &before);
    const char *result = pgn_result(st);
    if (st->over && (strcmp(result, "*") == 0 || st->forfeit)) {
        char buf[16], line[96];
        snprintf(line, sizeof line, "result %s (White %s, Black %s)%s", game_result_text(st, buf),
                 half(st->score[WHITE]), half(st->score[BLACK]), st->forfeit ? ", by forfeit" : "");
        add(&closing, line);
    }
    for (int i = 0; i < n; i++) {
        const GamePly *p = &st->plies[i];
        plies[i].move = p->move;
        int mover = (st->start.side + i) % 2;
        plies[i].clock_ms = st->settings.tc.untimed  ? -1
                            : p->clock_ms[mover] < 0 ? 0
                                                     : (long)p->clock_ms[mover];
        plies[i].draw_offer = (p->flags & GAME_PLY_OFFER) != 0;
        StrBuf *t = &texts[i];
        if (i == 0 && before.len) {
            add(t, "before the first move: ");
            add(t, before.data);
        }
        if (p->flags & GAME_PLY_PROMO_FORCED)
            add_sep(t, "no promotion piece chosen: a queen, an illegal move (7.5.2)");
        notes_at(st, i + 1, true, t);
        if (i == n - 1 && closing.len)
            add_sep(t, closing.data);
        plies[i].comment = t->data;
    }

    int ntags = 0;
    for (int i = 0; tags && i < tags->count && ntags < GAME_PGN_TAGS_MAX; i++) {
        static const char *const skip[] = {"Result",      "FEN",         "SetUp",
                                           "TimeControl", "Termination", "ArbiterNotes"};
        bool ours = false;
        for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
            if (strcmp(tags->name[i], skip[k]) == 0)
                ours = true;
        if (!ours)
            tagv[ntags++] = (PgnTag){tags->name[i], tags->value[i]};
    }
    char tc[TC_TEXT_MAX];
    timecontrol_format(&st->settings.tc, tc);
    tagv[ntags++] = (PgnTag){"TimeControl", tc};
    tagv[ntags++] = (PgnTag){"Termination", termination(st)};
    StrBuf notes_tag = {0};
    if (n == 0 && (before.len || closing.len)) {
        add(&notes_tag, before.data ? before.data : "");
        if (closing.len)
            add_sep(&notes_tag, closing.data);
        if (notes_tag.data)
            tagv[ntags++] = (PgnTag){"ArbiterNotes", notes_tag.data};
    }
    bool oom = before.failed || closing.failed || notes_tag.failed;
    for (int i = 0; i < n; i++)
        oom |= texts[i].failed;
    if (!oom) {
        PgnGame g = {
            .tags = tagv,
            .ntags = ntags,
            .fen = st->settings.start_fen,
            .plies = plies,
            .nplies = n,
            .result = result,
        };
        rc = pgn_write(&g, out, err, errlen);
    }
    strbuf_free(&notes_tag);
done:
    if (rc == -ENOMEM && err && errlen)
        snprintf(err, errlen, "out of memory");
    for (int i = 0; texts && i < n; i++)
        strbuf_free(&texts[i]);
    free(texts);
    free(plies);
    strbuf_free(&before);
    strbuf_free(&closing);
    return rc;
}

size_t game_pgn_write(const GameState *st, const GamePgnTags *tags, char *out, size_t cap)
{
    char *text = NULL, err[160];
    size_t len = 0;
    if (game_pgn(st, tags, &text, err, sizeof err) == 0)
        len = strlen(text);
    if (cap) {
        size_t n = len < cap ? len : cap - 1;
        if (n)
            memcpy(out, text, n);
        out[n] = '\0';
    }
    free(text);
    return len;
}
