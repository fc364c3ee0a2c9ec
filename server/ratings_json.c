/*
 * ratings_json.c — rating and norm reports as JSON text and the norm
 * sentences.  See ratings_json.h.  Text is built with strbuf; its sticky
 * failure turns into one NULL answer at the end.
 */
#include "ratings_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void ratings_json_centi(long long v, char *buf, size_t len)
{
    const char *sign = v < 0 ? "-" : "";
    long long a = v < 0 ? -v : v;
    if (a % 100 == 0)
        snprintf(buf, len, "%s%lld", sign, a / 100);
    else if (a % 10 == 0)
        snprintf(buf, len, "%s%lld.%lld", sign, a / 100, (a % 100) / 10);
    else
        snprintf(buf, len, "%s%lld.%02lld", sign, a / 100, a % 100);
}

long long ratings_json_rounded(long long v)
{
    return v >= 0 ? (v + 50) / 100 : -((-v + 50) / 100);
}

void ratings_json_points(int tenths, char *buf, size_t len)
{
    if (tenths % 10)
        snprintf(buf, len, "%d.%d", tenths / 10, tenths % 10);
    else
        snprintf(buf, len, "%d", tenths / 10);
}

const char *ratings_json_kind(RatingKind kind)
{
    static const char *const kinds[] = {"standard", "rapid", "blitz"};
    return kind >= RATING_STANDARD && kind <= RATING_BLITZ ? kinds[kind] : kinds[0];
}

const char *ratings_json_initial(RatingInitial s)
{
    switch (s) {
    case RATING_INITIAL_OK: return "ok";
    case RATING_INITIAL_FEW_GAMES: return "fewer than 5 games against rated opponents";
    case RATING_INITIAL_ZERO: return "no points against rated opponents";
    case RATING_INITIAL_BELOW_FLOOR: return "below the rating floor 1400";
    default: return "";
    }
}

void ratings_json_missing(const NormCheck *c, char *buf, size_t len)
{
    buf[0] = 0;
    struct {
        bool ok;
        const char *what;
    } req[] = {
        {c->ok_games, "games"},
        {c->ok_average, "average"},
        {c->ok_performance, "performance"},
        {c->ok_titled, "titled 50%"},
        {c->ok_title_holders, "title holders 1/3"},
        {c->ok_unrated, "unrated 20%"},
        {c->ok_federations, "federations"},
    };
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
        if (!req[i].ok) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s%s", n ? ", " : "", req[i].what);
        }
}

/*
 * "a draw in round 9 gives an IM norm" when the score is all that is left;
 * "GM norm needs a draw in round 9, and: title holders 1/3" when the
 * remaining opponents must also bring what the opposition still lacks.
 */
void ratings_json_dropped(const NormCheck *c, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < c->n_dropped && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", c->dropped[i]);
}

void ratings_json_outlook(const NormCheck *c, int rounds, char *buf, size_t len)
{
    const char *t = norms_level(c->title)->name;
    const char *an = c->title == NORM_IM ? "an" : "a";
    char p[16], what[48];
    if (c->norm && !c->remaining) {
        char r[NORMS_MAX_DROPPED * 4 + 1];
        ratings_json_dropped(c, r, sizeof r);
        snprintf(buf, len, "%s norm%s%s", t, r[0] ? ", leaving out the wins of rounds " : "", r);
        return;
    }
    if (c->need < 0 || !c->possible) {
        snprintf(buf, len, "no %s norm", t);
        return;
    }
    if (c->remaining == 1) {
        snprintf(what, sizeof what, "%s in round %d",
                 c->need == 0   ? "any result"
                 : c->need == 5 ? "a draw"
                                : "a win",
                 rounds + 1);
    } else if (c->need == 0) {
        snprintf(what, sizeof what, "any results in rounds %d-%d", rounds + 1,
                 rounds + c->remaining);
    } else {
        ratings_json_points(c->need, p, sizeof p);
        snprintf(what, sizeof what, "%s from rounds %d-%d", p, rounds + 1, rounds + c->remaining);
    }
    NormCheck rest = *c;
    rest.ok_games = rest.ok_average = rest.ok_performance = true;
    char m[200];
    ratings_json_missing(&rest, m, sizeof m);
    if (m[0])
        snprintf(buf, len, "%s norm needs %s, and: %s", t, what, m);
    else if (c->remaining == 1)
        snprintf(buf, len, "%s gives %s %s norm", what, an, t);
    else
        snprintf(buf, len, "%s norm needs %s", t, what);
}

/* S as a JSON string: quotes and backslashes escaped, control bytes as \u. */
static void jstring(StrBuf *b, const char *s)
{
    strbuf_putc(b, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            strbuf_appendf(b, "\\%c", ch);
        else if (ch < 0x20)
            strbuf_appendf(b, "\\u%04x", ch);
        else
            strbuf_putc(b, (char)ch);
    }
    strbuf_putc(b, '"');
}

/* The opening of one player's object: start rank, player id, name. */
static void player_head(StrBuf *b, int i, int rank, const int64_t *ids, const char *name)
{
    strbuf_appendf(b, "%s\n{\"start_rank\":%d,", i ? "," : "", rank);
    if (ids)
        strbuf_appendf(b, "\"player_id\":%lld,", (long long)ids[rank - 1]);
    strbuf_puts(b, "\"name\":");
    jstring(b, name);
}

static char *finish(StrBuf *b, size_t *len)
{
    size_t n = b->len;
    char *text = strbuf_take(b);
    if (len)
        *len = text ? n : 0;
    return text;
}

static void rating_unrated(StrBuf *b, const RatingRow *w)
{
    strbuf_appendf(b,
                   ",\"k\":null,\"expected\":null,\"rating_change\":null,\"initial_ra\":%d,"
                   "\"initial_percentage\":%d,\"initial_rating\":",
                   w->initial_ra, w->initial_p);
    if (w->initial == RATING_INITIAL_OK)
        strbuf_appendf(b, "%d", w->initial_rating);
    else
        strbuf_puts(b, "null");
    strbuf_puts(b, ",\"initial_status\":");
    jstring(b, ratings_json_initial(w->initial));
}

char *ratings_json_ratings(const Tournament *t, const RatingReport *r, const int64_t *ids,
                           size_t *len)
{
    StrBuf b = STRBUF_INIT;
    char x[32], y[32];
    strbuf_putc(&b, '[');
    for (int i = 0; i < r->n_rows; i++) {
        const RatingRow *w = &r->rows[i];
        player_head(&b, i, w->player, ids, tournament_player(t, w->player)->name);
        ratings_json_centi(w->score, x, sizeof x);
        strbuf_appendf(&b, ",\"rating\":%d,\"kind\":\"%s\",\"rated_games\":%d,\"score\":%s",
                       w->rating, ratings_json_kind(r->kind), w->rated_games, x);
        if (w->rating > 0) {
            ratings_json_centi(w->expected, x, sizeof x);
            ratings_json_centi(w->change, y, sizeof y);
            strbuf_appendf(&b, ",\"k\":%d,\"expected\":%s,\"rating_change\":%s,\"new_rating\":%lld",
                           w->k, x, y, w->rating + ratings_json_rounded(w->change));
        } else {
            rating_unrated(&b, w);
        }
        strbuf_puts(&b, ",\"games\":[");
        for (int g = 0; g < w->n_games; g++) {
            const RatingGame *m = &w->games[g];
            ratings_json_centi(m->score, x, sizeof x);
            strbuf_appendf(&b,
                           "%s{\"round\":%d,\"opponent\":%d,\"opponent_rating\":%d,\"score\":%s",
                           g ? "," : "", m->round, m->opponent, m->opp_rating, x);
            if (w->rating > 0) {
                ratings_json_centi(m->expected, x, sizeof x);
                ratings_json_centi(m->change, y, sizeof y);
                strbuf_appendf(&b, ",\"expected\":%s,\"change\":%s", x, y);
            }
            strbuf_putc(&b, '}');
        }
        strbuf_puts(&b, "]}");
    }
    strbuf_puts(&b, "\n]\n");
    return finish(&b, len);
}

static void norm_check(StrBuf *b, const NormCheck *c, int k, int rounds)
{
    char s[16], m[200], o[320];
    ratings_json_points(c->score, s, sizeof s);
    ratings_json_missing(c, m, sizeof m);
    ratings_json_outlook(c, rounds, o, sizeof o);
    strbuf_appendf(b,
                   "%s{\"title\":\"%s\",\"games\":%d,\"score\":%s,\"average\":%d,"
                   "\"raised_from\":%d,\"performance\":%d,\"titled\":%d,\"title_holders\":%d,"
                   "\"unrated\":%d,\"other_federations\":%d,\"own_federation\":%d,"
                   "\"max_one_federation\":%d,\"federations_waived\":%s,\"norm\":%s,"
                   "\"possible\":%s,\"remaining\":%d,\"need\":",
                   k ? "," : "", norms_level(c->title)->name, c->games, s, c->average,
                   c->raised_from, c->performance, c->titled, c->title_holders, c->unrated,
                   c->federations, c->own_federation, c->max_one_federation,
                   c->federations_waived ? "true" : "false", c->norm ? "true" : "false",
                   c->possible ? "true" : "false", c->remaining);
    if (c->need >= 0) {
        ratings_json_points(c->need, s, sizeof s);
        strbuf_puts(b, s);
    } else {
        strbuf_puts(b, "null");
    }
    strbuf_puts(b, ",\"dropped_rounds\":[");
    ratings_json_dropped(c, m, sizeof m);
    strbuf_puts(b, m);
    strbuf_puts(b, "],\"missing\":");
    jstring(b, m);
    strbuf_puts(b, ",\"outlook\":");
    jstring(b, o);
    strbuf_putc(b, '}');
}

char *ratings_json_norms(const Tournament *t, const NormReport *r, const int64_t *ids, size_t *len)
{
    StrBuf b = STRBUF_INIT;
    strbuf_appendf(&b, "{\"rounds\":%d,\"total_rounds\":%d,\"swiss_exception\":%s,\"players\":[",
                   r->rounds, r->total_rounds, r->swiss_exception ? "true" : "false");
    for (int i = 0; i < r->n_rows; i++) {
        const NormRow *w = &r->rows[i];
        const TrnPlayer *p = tournament_player(t, w->player);
        player_head(&b, i, w->player, ids, p->name);
        strbuf_appendf(&b, ",\"title\":\"%s\",\"federation\":", norms_title_code(p->title));
        jstring(&b, p->federation);
        strbuf_puts(&b, ",\"norms\":[");
        for (int k = 0; k < w->n_checks; k++)
            norm_check(&b, &w->checks[k], k, r->rounds);
        strbuf_puts(&b, "]}");
    }
    strbuf_puts(&b, "\n]}\n");
    return finish(&b, len);
}
