/*
 * pairing_ctx.h — what pairing_check.c and pairing_quality.c share: the
 * player facts of the round being checked and the report being filled.
 * Not part of the rules API; only the pairing_* files include it.  Both
 * checkers sit above this file, and pairing_check.c above pairing_quality.c.
 *
 * Invariant: Ctx.in[id].known for every start rank of the tournament, the
 * facts derived from rounds 1..round-1 as the Dutch engine derives them.
 */
#ifndef ARBITER_RULES_PAIRING_CTX_H
#define ARBITER_RULES_PAIRING_CTX_H

#include <stdbool.h>

#include "pairing_check.h"
#include "swiss.h"

enum { P_NONE = 0, P_WHITE = 1, P_BLACK = 2 };
enum { F_NONE = 0, F_DOWN = 1, F_UP = 2 };

typedef struct Info {
    bool known, absent, withdrawn, elig, top;
    TrnPoints score;
    int pref;     /* P_* */
    bool abspref; /* |CD| > 1 or the last two played games had one colour */
    bool strong;  /* |CD| == 1, not absolute */
    int cd;       /* colour difference: White games minus Black games played */
    int rep;      /* P_* of the last two played games when they had one colour */
    int fl[3];    /* F_* float of the round 1 and 2 rounds back (index 1, 2) */
    int unplayed; /* rounds before this one without a played game */
    int uses;     /* appearances in the proposal */
} Info;

typedef struct Ctx {
    const Tournament *t;
    int round, max_id;
    SwissSystem swiss; /* the engine the round is compared with */
    Info *in;          /* max_id + 1 */
    PairingCheckReport *rep;
} Ctx;

/* True when g is a game actually played over the board. */
static inline int pairing_ctx_played(const TrnGame *g)
{
    return g->opponent && tournament_result_is_played(g->result) &&
           (g->colour == TRN_WHITE || g->colour == TRN_BLACK);
}

/* Round r of p (1-based); an empty game outside the rounds played. */
static inline const TrnGame *pairing_ctx_game_of(const TrnPlayer *p, int r)
{
    static const TrnGame none = {0, 0, 0};
    return r >= 1 && r <= p->rounds ? &p->games[r - 1] : &none;
}

/*
 * Derives the facts of every player of c->t before c->round into c->in
 * (allocated here; the caller frees c->in, also on failure).  c->t, c->round
 * and c->rep are set by the caller.  Returns 0 or -ENOMEM.
 */
int pairing_ctx_setup(Ctx *c, const PairingCheckOptions *opt);

/* The facts of start rank ID, or NULL when ID is not a player. */
Info *pairing_ctx_info(Ctx *c, int id);

/* True when A and B played a game (not a forfeit) before the round. */
bool pairing_ctx_met_before(const Ctx *c, int a, int b);

/* Appends an item to c->rep (message from FMT, players copied up to
 * PAIRING_CHECK_MAX_ITEM_PLAYERS).  Returns 0 or -ENOMEM. */
int pairing_ctx_item_add(Ctx *c, const char *code, PairingCheckKind kind, int board,
                         const int *players, int np, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

#endif
