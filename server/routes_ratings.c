/*
 * routes_ratings.c — a tournament's FIDE rating changes and title norms
 * (rules/tournament/rating.h, rules/tournament/norms.h), computed on each request from the same
 * Tournament the standings use (the rounds with results), and the norm
 * certificate of one player.  Public: no sign-in.
 *
 * JSON is the text of `arbiter ratings|norms --format json` (ratings_json.h)
 * with each player's id added, so the daemon and the command line agree to
 * the byte on the same TRF; ?format=html|csv and ?lang=en|ru|bg as for the
 * other printable lists (routes_exports.c).
 *
 * The kind of rating (standard, rapid, blitz) comes from the tournament's
 * time control, by the Laws' category (Appendices A.1, B.1: later periods
 * within 60 moves count): a tournament has no setting of its own for it.  K is the player's K in
 * the FIDE register (the imported rating list) of that kind when the register has the player's
 * FIDE ID, else the regulations' default.  The norm checks follow the tournament's settings
 * `norm_min_games` and `national_championship` (rules/tournament/norms.h).  The tournament holds
 * no arbiters, end date or host federation: the certificate leaves those lines blank.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "errors.h"
#include "export_ratings.h"
#include "fide.h"
#include "ratings_json.h"
#include "routes.h"
#include "timecontrol.h"
#include "tournaments.h"
#include "tournament_io.h"

/* What a report is computed from: the standings' Tournament, or for a
 * tournament without players an empty one. */
typedef struct Source {
    TournamentIoStandings ts;
    Tournament *t;
    int64_t *ids;
} Source;

static void source_clear(Source *src)
{
    if (src->t != src->ts.t) {
        tournament_free(src->t);
        free(src->ids);
    }
    tournament_io_standings_clear(&src->ts);
    memset(src, 0, sizeof *src);
}

/* Fills *SRC for the tournament of R; on failure answers and returns -1. */
static int source_load(Req *r, Source *src)
{
    memset(src, 0, sizeof *src);
    Store *s = http_reader(r->srv);
    if (!s)
        return http_error(r, API_E_INTERNAL, "the store is not available"), -1;
    if (!route_tournament_exists(r, s))
        return -1;
    char err[160] = "";
    int rc = tournament_io_standings_build(s, r->id[0], &src->ts);
    if (!rc && src->ts.t) {
        src->t = src->ts.t;
        src->ids = src->ts.ids;
        return 0;
    }
    if (!rc)
        rc = tournament_io_build(s, r->id[0], 0, &src->t, &src->ids, err, sizeof err);
    if (rc) {
        source_clear(src);
        return http_error(r, rc < 0 ? API_E_INTERNAL : rc, "%s",
                          err[0] ? err : "out of memory while computing the report"),
               -1;
    }
    return 0;
}

/* The rating list a tournament's games count for: its time control's
 * category (rating_kind_for_control), an untimed event standard. */
static RatingKind kind_of(const char *time_control)
{
    return rating_kind_for_control(time_control);
}

/* The register's rating type for a kind of play. */
static int fide_type(RatingKind kind)
{
    return kind == RATING_RAPID ? FIDE_RAPID : kind == RATING_BLITZ ? FIDE_BLITZ : FIDE_STANDARD;
}

static const char *query(Req *r, const char *name)
{
    return r->conn ? MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name) : NULL;
}

static int answer_json(Req *r, char *text, size_t len)
{
    if (!text)
        return http_error(r, API_E_INTERNAL, "out of memory while rendering the report");
    return http_text(r, 200, "application/json", text, len);
}

/* Answers TEXT (owned) of the list WHAT in format F: JSON as it is, HTML
 * or CSV as a printable named WHAT-TID. */
static int reply(Req *r, ExportFormat f, char *text, size_t len, const char *what)
{
    if (f == EXPORT_JSON)
        return answer_json(r, text, len);
    char name[64];
    snprintf(name, sizeof name, "%s-%lld", what, (long long)r->id[0]);
    return route_export_reply(r, f, text, len, name);
}

int route_ratings(Req *r)
{
    ExportFormat f;
    ExportLang l;
    if (route_export_format(r, &f, &l))
        return ROUTE_DONE;
    Source src;
    if (source_load(r, &src))
        return ROUTE_DONE;
    RatingOptions opt = {0};
    opt.kind = kind_of(src.t->encoded_tc);
    opt.rounds = src.ts.rounds;
    int *k_of = calloc(TRN_MAX_PLAYERS + 1, sizeof *k_of);
    if (!k_of || fide_k_of(http_reader(r->srv), fide_type(opt.kind), src.t, k_of) < 0) {
        free(k_of);
        source_clear(&src);
        return http_error(r, API_E_INTERNAL, "the FIDE register could not be read");
    }
    opt.k_of = k_of;
    RatingReport *rep = NULL;
    int rc = rating_event(src.t, &opt, &rep);
    free(k_of);
    if (rc) {
        source_clear(&src);
        return http_error(r, API_E_INTERNAL, "rating report failed (%d)", rc);
    }
    size_t len = 0;
    char *text = f == EXPORT_JSON ? ratings_json_ratings(src.t, rep, src.ids, &len)
                                  : export_ratings_list(src.t, rep, f, l, &len);
    rating_report_free(rep);
    source_clear(&src);
    return reply(r, f, text, len, "ratings");
}

/* The check the certificate prints: the title asked for (?title=), else
 * the first norm made, else the first check.  NULL when there is none. */
static const NormCheck *certificate_check(const NormRow *w, const char *title)
{
    const NormCheck *pick = NULL;
    for (int k = 0; w && k < w->n_checks; k++) {
        const NormCheck *c = &w->checks[k];
        if (title ? strcmp(norms_level(c->title)->name, title) == 0 : c->norm)
            return c;
        if (!pick && !title)
            pick = c;
    }
    return pick;
}

/* The certificate of the player ?player=PID names; answers in every case. */
static int certificate(Req *r, const Source *src, const NormReport *rep, ExportLang l,
                       const char *pid_text)
{
    char *end;
    long long pid = strtoll(pid_text, &end, 10);
    int rank = 0;
    for (int i = 0; !*end && src->ids && i < src->t->n_players; i++)
        if (src->ids[i] == pid)
            rank = i + 1;
    if (!rank)
        return http_error(r, STORE_E_NOT_FOUND, "no player '%.20s' in tournament %lld", pid_text,
                          (long long)r->id[0]);
    const NormRow *row = NULL;
    for (int i = 0; i < rep->n_rows; i++)
        if (rep->rows[i].player == rank)
            row = &rep->rows[i];
    const char *title = query(r, "title");
    const NormCheck *c = certificate_check(row, title);
    if (!c)
        return http_error(r, STORE_E_NOT_FOUND, "player %lld has no %s norm check", pid,
                          title ? title : "title");
    size_t len = 0;
    char *text = export_ratings_certificate(src->t, rep, rank, c, l, &len);
    char name[80];
    snprintf(name, sizeof name, "norm-%s-%lld-%lld", norms_level(c->title)->name,
             (long long)r->id[0], pid);
    return route_export_reply(r, EXPORT_HTML, text, len, name);
}

int route_norms(Req *r)
{
    ExportFormat f;
    ExportLang l;
    if (route_export_format(r, &f, &l))
        return ROUTE_DONE;
    const char *pid = query(r, "player");
    if (pid && f != EXPORT_HTML)
        return http_error(r, API_E_INVALID_VALUE, "the norm certificate (player=) is format=html");
    Source src;
    if (source_load(r, &src))
        return ROUTE_DONE;
    NormOptions opt = {0};
    opt.rounds = src.ts.rounds;
    opt.swiss = !src.ts.round_robin;
    json_t *row = tournaments_get(http_reader(r->srv), r->id[0]);
    json_t *settings = json_object_get(row, "settings");
    opt.min_games = (int)json_integer_value(json_object_get(settings, "norm_min_games"));
    opt.national_championship = json_is_true(json_object_get(settings, "national_championship"));
    json_decref(row);
    NormReport *rep = NULL;
    int rc = norms_event(src.t, &opt, &rep);
    if (rc) {
        source_clear(&src);
        return http_error(r, API_E_INTERNAL, "norm report failed (%d)", rc);
    }
    if (pid) {
        rc = certificate(r, &src, rep, l, pid);
        norms_report_free(rep);
        source_clear(&src);
        return rc;
    }
    size_t len = 0;
    char *text = f == EXPORT_JSON ? ratings_json_norms(src.t, rep, src.ids, &len)
                                  : export_ratings_norms(src.t, rep, f, l, &len);
    norms_report_free(rep);
    source_clear(&src);
    return reply(r, f, text, len, "norms");
}
