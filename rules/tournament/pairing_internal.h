/*
 * pairing_internal.h — what pairing_check.c and pairing_quality.c share:
 * the player facts of the round being checked and the report being filled.
 * Not part of the rules API; only these two files include it.
 *
 * Invariant: Ctx.in[id].known for every start rank of the tournament, the
 * facts derived from rounds 1..round-1 as the Dutch engine derives them.
 */
#ifndef ARBITER_RULES_PAIRING_INTERNAL_H
#define ARBITER_RULES_PAIRING_INTERNAL_H

#include <stdbool.h>

#include "pairing_check.h"

enum { P_NONE = 0, P_WHITE = 1, P_BLACK = 2 };
enum { F_NONE = 0, F_DOWN = 1, F_UP = 2 };

typedef struct Info {
    bool known, absent, withdrawn, elig, top;
    TrnPoints score;
    int pref;      /* P_* */
    bool abspref;  /* |CD| > 1 or the last two played games had one colour */
    bool strong;   /* |CD| == 1, not absolute */
    int cd;        /* colour difference: White games minus Black games played */
    int rep;       /* P_* of the last two played games when they had one colour */
    int fl[3];     /* F_* float of the round 1 and 2 rounds back (index 1, 2) */
    int unplayed;  /* rounds before this one without a played game */
    int uses;      /* appearances in the proposal */
} Info;

typedef struct Ctx {
    const Tournament *t;
    int round, max_id;
    Info *in; /* max_id + 1 */
    PcReport *rep;
} Ctx;

/* The facts of start rank ID, or NULL when ID is not a player. */
Info *pc_info(Ctx *c, int id);

/* True when A and B played a game (not a forfeit) before the round. */
bool pc_met_before(const Ctx *c, int a, int b);

/* Appends an item to c->rep (message from FMT, players copied up to
 * PC_MAX_ITEM_PLAYERS).  Returns 0 or -ENOMEM. */
int pc_item_add(Ctx *c, const char *code, PcKind kind, int board, const int *players, int np,
                const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Pairs the round with the Dutch engine into c->rep->engine and, where the
 * proposal PROP differs, adds ENGINE and the quality items C5-C21 bracket by
 * bracket.  Returns 0 or -ENOMEM. */
int pc_quality_compare(Ctx *c, const PcProposal *prop);

#endif
