/*
 * game.h — the Laws engine: folds a game's event log into its state.
 *
 * A game is an append-only list of events (the scoresheet), each stamped
 * with the server's wall-clock time in ms.  game_apply() checks one event
 * against the Laws and the tournament's GameSettings and either accepts it
 * (the state moves on) or refuses it with a documented reason (the state is
 * left exactly as it was).  Loading a game is replaying its accepted events:
 * the same events with the same times give the same state, clocks included.
 * Nothing here reads a clock, prints or keeps globals.
 *
 * Invariants of a GameState built by game_new() and changed only by
 * game_apply():
 *   - `board` is the start position with plies[0..nplies) played;
 *   - keys[i] is the repetition identity (Board.key) after i plies, i <= nplies;
 *   - once `over`, only checkin/confirm/call/penalty/result events are
 *     accepted (penalties and results may still change the scores).
 *
 * Workload: a few events a minute per game, up to a few thousand plies.
 * A fold costs about 2 us per ply, dead-position check (rules/canmate)
 * included: 0.7-1.5 us a ply, 1.2-1.7 times bare parse-and-make, in
 * `tests/bench/bench_game 10` on an 80-ply game (single runs on a busy
 * machine stray several-fold), so loading even a long game takes well
 * under a millisecond.
 */
#ifndef ARBITER_RULES_GAME_H
#define ARBITER_RULES_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "clock.h"
#include "timecontrol.h"

/* ---- settings ---------------------------------------------------------- */

enum { GAME_ILLEGAL_PENALIZE = 0, GAME_ILLEGAL_REJECT = 1 };
enum { GAME_OFFERS_FREE = 0, GAME_OFFERS_SOFIA = 1, GAME_OFFERS_ARBITER = 2 };

typedef struct GameSettings {
    TimeControl tc;                /* default "5400+30" */
    uint8_t illegal_entry;         /* GAME_ILLEGAL_*, default PENALIZE (7.5.1) */
    uint8_t illegal_moves_to_lose; /* 7.5.5, default 3 (FIDE 2023: 2); 0 = never */
    uint8_t draw_offers;           /* GAME_OFFERS_*, default FREE (9.1.1) */
    uint16_t sofia_moves;          /* with SOFIA: no agreement before both
                                      players have completed this many moves */
    int64_t default_time_ms;       /* 6.7, default 0: present at the start */
    bool flags_claimed;            /* false (default): the server calls flags;
                                      true: the opponent must claim (A.5) */
    bool supervised;               /* A.4 (default true); false = A.5 limits */
    int64_t penalty_ms;            /* 0 (default) = by category: 2 min, rapid/blitz 1 */
    bool guidelines_iii;           /* Guidelines III announced (games without
                                      increment): claims `increment`, `no_effort` */
    char start_fen[FEN_MAX];       /* default the standard start position */
} GameSettings;

/* The defaults above. */
void game_settings_default(GameSettings *s);

/* ---- events ------------------------------------------------------------ */

enum {
    GAME_EV_START,       /* arbiter starts the round: White's clock runs (6.6) */
    GAME_EV_CHECKIN,     /* player present at the board (6.7); the arbiter
                            admitting `side` after the default time */
    GAME_EV_MOVE,        /* player submits a move (the clock press); may offer */
    GAME_EV_OFFER,       /* player offers a draw (9.1.2) */
    GAME_EV_DECLINE,     /* player (or arbiter, consent mode) declines the offer */
    GAME_EV_ACCEPT,      /* player accepts the offer (or arbiter consents) */
    GAME_EV_CLAIM,       /* player on move claims 9.2 / 9.3, maybe with a move */
    GAME_EV_RESIGN,      /* player resigns (5.1.2) */
    GAME_EV_FLAG,        /* time check at its instant: flags (6.9), default time
                            (6.7); by a player = a claim on the opponent's flag */
    GAME_EV_CONFIRM,     /* player confirms the result (8.7) */
    GAME_EV_CALL,        /* player calls the arbiter: clocks pause (6.11) */
    GAME_EV_PAUSE,       /* arbiter */
    GAME_EV_RESUME,      /* arbiter */
    GAME_EV_ADJUST,      /* arbiter: set/add time, fix a move counter (6.10, 7.1) */
    GAME_EV_RESTORE,     /* arbiter: back to a ply (7.1, 7.5.1, 7.6) */
    GAME_EV_ILLEGAL,     /* arbiter: illegal move found on the board (7.5) */
    GAME_EV_PENALTY,     /* arbiter: a 12.9 penalty */
    GAME_EV_RESULT,      /* arbiter: sets each player's score */
    GAME_EV_COLOURS,     /* arbiter: the game began with colours reversed (7.3);
                            the types below came later, appended so that
                            stored type numbers never move */
    GAME_EV_TOUCH,       /* arbiter, on a claim: the player on move touched a
                            piece (4.3, 4.4): he is bound to it */
    GAME_EV_PRESS,       /* arbiter: a move made on the board whose clock press
                            was forgotten (6.2.1, 6.2.2): the press is now */
    GAME_EV_ILLEGAL_ACT, /* arbiter: clock pressed without a move (7.5.3) or
                            a move made with two hands (7.5.4) */
    GAME_EV_DISPLACED,   /* arbiter: pieces displaced (7.4), re-established */
    GAME_EV_SETUP,       /* arbiter: wrong initial position or board placed
                            contrary to 2.1, found during the game (7.2) */
    GAME_EV_DEAD,        /* arbiter: dead position or not (5.2.2, 6.9, 7.5.5)
                            where canmate left it undecided */
    GAME_EV_COUNT
};

enum {
    GAME_ACTOR_WHITE = 0,
    GAME_ACTOR_BLACK = 1,
    GAME_ACTOR_ARBITER = 2,
    GAME_ACTOR_SERVER = 3 /* the daemon's own timers */
};

enum {
    GAME_CLAIM_THREEFOLD = 0,
    GAME_CLAIM_FIFTY = 1,
    GAME_CLAIM_INCREMENT = 2, /* III.4: 5 s increment for both (a draw offer) */
    GAME_CLAIM_NO_EFFORT = 3  /* III.5: the opponent cannot win by normal
                                 means / makes no effort */
};

/* 12.9 penalties. */
enum {
    GAME_PENALTY_WARNING,
    GAME_PENALTY_TIME_ADD,   /* `ms` added to the opponent's clock */
    GAME_PENALTY_TIME_SUB,   /* `ms` taken from the offender's clock */
    GAME_PENALTY_SCORE_UP,   /* opponent's score in this game raised to `score` */
    GAME_PENALTY_SCORE_DOWN, /* offender's score reduced to `score` */
    GAME_PENALTY_LOSS,       /* game declared lost by the offender */
    GAME_PENALTY_EXCLUSION,  /* offender excluded: game lost */
    GAME_PENALTY_COUNT
};

/* GameEvent.kind, by event type. */
enum { GAME_ACT_NO_MOVE = 0, GAME_ACT_TWO_HANDS = 1, GAME_ACT_COUNT };          /* illegal_act */
enum { GAME_SETUP_POSITION = 0, GAME_SETUP_ORIENTATION = 1, GAME_SETUP_COUNT }; /* setup */
enum { GAME_DEAD_YES = 0, GAME_DEAD_NO = 1, GAME_DEAD_COUNT };                  /* dead_position */
enum { /* displaced: the arbiter's penalty (7.4.3), none by default */
       GAME_DISPLACED_NONE = 0,
       GAME_DISPLACED_WARNING,
       GAME_DISPLACED_TIME_ADD,
       GAME_DISPLACED_TIME_SUB,
       GAME_DISPLACED_COUNT
};

/* "Not given" for the optional numeric fields of an event. */
#define GAME_NONE INT64_MIN

enum { GAME_MOVE_TEXT_MAX = 32, GAME_NOTE_MAX = 200 };

/*
 * One event.  Which fields count depends on the type (docs/events.md):
 *   move     move (text as typed: SAN, long form or UCI), offer
 *   claim    claim, move (intended move, may be empty)
 *   flag     side (whose flag a player/arbiter calls; -1 = any)
 *   adjust   side, and any of set_ms / add_ms / moves
 *   restore  ply, and optionally white_ms / black_ms (the clocks after it)
 *   illegal  side (offender), ply (position to go back to), white_ms/black_ms
 *   penalty  side (offender), penalty, ms (time kinds), score (score kinds)
 *   result   score[WHITE], score[BLACK], forfeit
 *   touch    side (bound player, on move), square, optionally ply (the
 *            offender's move to take back first)
 *   press    side (the player who forgot), move
 *   illegal_act  side (offender), kind (GAME_ACT_*)
 *   displaced    side (who displaced), kind (GAME_DISPLACED_*), ms (time
 *            kinds), optionally ply / white_ms / black_ms as restore
 *   setup    kind (GAME_SETUP_*)
 *   dead_position  kind (GAME_DEAD_*)
 * note: free text for any event (the arbiter's reason), kept for the record.
 */
typedef struct GameEvent {
    uint8_t type;  /* GAME_EV_* */
    uint8_t actor; /* GAME_ACTOR_* */
    int64_t time_ms;
    char move[GAME_MOVE_TEXT_MAX];
    bool offer;
    uint8_t claim;       /* GAME_CLAIM_* */
    int8_t side;         /* WHITE, BLACK, or -1 */
    uint8_t penalty;     /* GAME_PENALTY_* */
    int64_t ms;          /* penalty time; GAME_NONE if absent */
    int64_t set_ms;      /* adjust; GAME_NONE if absent */
    int64_t add_ms;      /* adjust; GAME_NONE if absent */
    int32_t moves;       /* adjust: completed moves of `side`; -1 if absent */
    int32_t ply;         /* restore / illegal; -1 if absent */
    int64_t clock_ms[2]; /* restore / illegal; GAME_NONE if absent */
    int8_t score[2];     /* half-points 0..2, -1 absent (result; penalty uses [0]) */
    bool forfeit;        /* result: the game was not played (+/-) */
    uint8_t kind;        /* illegal_act, displaced, setup, dead_position:
                            what happened (see above), 0 by default */
    int8_t square;       /* touch: the square of the piece touched; -1 absent */
    char note[GAME_NOTE_MAX];
} GameEvent;

/* An event of the given type, actor and time with every optional field
 * absent. */
void game_event_init(GameEvent *ev, int type, int actor, int64_t time_ms);

const char *game_event_type_name(int type);   /* "move", ... */
int game_event_type_from_name(const char *s); /* -1 if unknown */
const char *game_actor_name(int actor);       /* "white", ... */
int game_actor_from_name(const char *s);
const char *game_claim_name(int claim); /* "threefold", "fifty", "increment", "no_effort" */
int game_claim_from_name(const char *s);
const char *game_penalty_name(int penalty); /* "warning", "time_add", ... */
int game_penalty_from_name(const char *s);
/* The name of GameEvent.kind for an event of `type` ("no_move", ...; "?"
 * when out of range or the type has no kind), and back (-1 if unknown). */
const char *game_kind_name(int type, int kind);
int game_kind_from_name(int type, const char *s);
/* Whether events of `type` carry a kind. */
bool game_type_has_kind(int type);

/* ---- verdicts ---------------------------------------------------------- */

/* Documented refusals (GameVerdict.code); the reason text says more. */
enum {
    GAME_OK = 0,
    GAME_E_ORDER = 1,   /* event earlier than the previous one or in the future */
    GAME_E_ACTOR,       /* this actor may not send this event */
    GAME_E_NOT_STARTED, /* the round has not been started */
    GAME_E_STARTED,     /* start: already started */
    GAME_E_OVER,        /* the game has ended */
    GAME_E_NOT_OVER,    /* confirm before the end */
    GAME_E_TURN,        /* not this player's turn */
    GAME_E_NOTATION,    /* the move text is not a move (syntax, ambiguity) */
    GAME_E_ILLEGAL,     /* illegal move refused (illegal_entry = reject) */
    GAME_E_TOUCH,       /* must move the piece of the illegal move (4.3);
                           no claim after touching a piece (9.4) */
    GAME_E_PAUSED,      /* the clocks are paused by the arbiter */
    GAME_E_FLAG_FELL,   /* a flag fell (or default time passed) before this
                           event: record a `flag` event first */
    GAME_E_NO_FLAG,     /* flag: nobody's time has run out */
    GAME_E_NO_OFFER,    /* accept/decline without a pending offer */
    GAME_E_OFFER_RULE,  /* offer/accept not allowed now (9.1.1, 5.2.3) */
    GAME_E_PAYLOAD,     /* missing or inconsistent fields */
    GAME_E_LIMIT,       /* too many plies or notes */
    GAME_E_SCORE        /* the scores of a played game would add up to
                           more than one point (10.2) */
};

typedef struct GameVerdict {
    int code;             /* GAME_OK or GAME_E_* */
    char reason[200];     /* why refused, or what happened when accepted */
    bool ended;           /* this event ended the game */
    bool illegal;         /* a move was judged a completed illegal move */
    bool claim_correct;   /* claim: it was correct */
    bool colours_swapped; /* colours_reversed: the game plays on (7.3), so
                             the players' colours in the pairing swap to
                             the ones actually played */
    bool dead_question;   /* the Laws need "cannot mate" and it is
                             undecided: the game waits for the arbiter */
} GameVerdict;

/* ---- state ------------------------------------------------------------- */

enum {
    GAME_END_NONE = 0,
    GAME_END_CHECKMATE,     /* 5.1.1 */
    GAME_END_RESIGNATION,   /* 5.1.2 */
    GAME_END_STALEMATE,     /* 5.2.1 */
    GAME_END_DEAD_POSITION, /* 5.2.2 */
    GAME_END_AGREEMENT,     /* 5.2.3, 9.1 */
    GAME_END_THREEFOLD,     /* 9.2 claim */
    GAME_END_FIFTY,         /* 9.3 claim */
    GAME_END_FIVEFOLD,      /* 9.6.1 */
    GAME_END_SEVENTY_FIVE,  /* 9.6.2 */
    GAME_END_TIME,          /* 6.9 (a draw when the opponent cannot mate) */
    GAME_END_ILLEGAL_MOVES, /* 7.5.5 */
    GAME_END_DEFAULT,       /* 6.7 absence: forfeit */
    GAME_END_PENALTY,       /* 12.9 game declared lost / exclusion */
    GAME_END_ARBITER,       /* result set by the arbiter */
    GAME_END_COUNT
};

/* A note on the scoresheet: offers, claims, penalties, arbiter actions,
 * attached after `ply` plies (PGN comments). */
typedef struct GameNote {
    int32_t ply;
    int64_t time_ms;
    uint8_t type; /* GAME_EV_* that produced it */
    uint8_t actor;
    char text[240];
} GameNote;

typedef struct GamePly {
    Move move;
    uint8_t flags;       /* GAME_PLY_* */
    int64_t time_ms;     /* when it was completed */
    int64_t clock_ms[2]; /* both readings right after it (for %clk) */
} GamePly;

enum {
    GAME_PLY_OFFER = 1,       /* a draw offer was made with it (=) */
    GAME_PLY_PROMO_FORCED = 2 /* 7.5.2: promoted to a queen by rule */
};

typedef struct GameState {
    GameSettings settings;
    Board start; /* position before ply 0 */
    Board board; /* current position */
    Clock clock;
    bool started;
    int64_t start_ms; /* when the round was started */
    int64_t last_ms;  /* time of the last accepted event */
    bool checked_in[2];
    int64_t checkin_ms[2];
    bool over;
    int8_t score[2];   /* half-points 0..2; -1 while the game runs */
    bool forfeit;      /* the result is a forfeit (+/-, -/+, -/-) */
    uint8_t end;       /* GAME_END_* */
    int8_t end_side;   /* side the ending concerns (mated, flagged,
                          resigned, penalised), or -1 */
    int64_t end_ms;    /* the instant the game ended */
    bool confirmed[2]; /* 8.7 */
    int8_t offer;      /* side whose draw offer stands, -1 none */
    bool offer_agreed; /* consent mode: agreed, awaiting the arbiter */
    bool call_pending; /* a player's call paused the clocks */
    int8_t call_side;
    uint8_t illegal_count[2];
    int8_t touch_square;      /* after an illegal move: the piece that must move
                                 (4.3), SQ of it, or -1 */
    int8_t touch_capture;     /* after an illegal capture whose own piece cannot
                                 move: the opponent's piece touched, which
                                 must be captured if it can be (4.3.3), or -1 */
    int8_t touch_castle;      /* king then rook touched where castling on that
                                 side is legal: the king's castling square,
                                 the only move allowed (4.4.1), or -1 */
    bool touched;             /* the player on move made a completed illegal
                                 move on this move: no 9.2/9.3 claim (9.4) */
    int8_t score_override[2]; /* 12.9 score raised/reduced, -1 none */
    int8_t iii_claim;         /* Guidelines III claim awaiting the arbiter
                                 (GAME_CLAIM_INCREMENT / NO_EFFORT), or -1 */
    int8_t iii_side;          /* who made it */
    int8_t dead_side;         /* the side that would lose (flag fall 6.9, illegal
                                 moves 7.5.5) had the opponent been proven able
                                 to mate, while canmate could not decide: the
                                 clocks are paused and the arbiter decides with
                                 a `result`; -1 none */
    uint8_t dead_end;         /* GAME_END_TIME or _ILLEGAL_MOVES with dead_side */
    uint8_t warnings[2];
    bool excluded[2];
    bool colours_reversed; /* 7.3: found after 10 moves each, the game goes
                              on; toggled by every such report */
    int32_t nplies;
    int32_t cap_plies;
    GamePly *plies; /* nplies moves played */
    uint64_t *keys; /* nplies + 1 repetition keys */
    int32_t nnotes;
    int32_t cap_notes;
    GameNote *notes;
    int32_t nevents; /* accepted events so far */
} GameState;

/* A game before its first event, or NULL (out of memory, or the start FEN of
 * s is invalid: then err says why).  s NULL = defaults.  Free with
 * game_free(). */
GameState *game_new(const GameSettings *s, char *err, size_t errlen);

/* Frees st; NULL is a no-op. */
void game_free(GameState *st);

/* Applies ev.  now_ms is the server's current time: events stamped later
 * than now, or earlier than the last accepted event, are refused.  Fills *v
 * (never NULL) and returns v->code.  On refusal *st is unchanged. */
int game_apply(GameState *st, const GameEvent *ev, int64_t now_ms, GameVerdict *v);

/* Side to move (WHITE/BLACK). */
int game_side_to_move(const GameState *st);

/* Remaining time of side at now (ms); 0 for an untimed game. */
int64_t game_remaining(const GameState *st, int side, int64_t now);

/* The next instant at which something happens by itself: a flag falls
 * (when the server calls flags) or a default time passes; CLOCK_NEVER if
 * none.  The server sets its timer for it and then appends a `flag` event
 * stamped at (or after) that instant. */
int64_t game_next_deadline(const GameState *st, int64_t now);

/* Side whose flag has fallen by now (the running side only), or -1. */
int game_flag_fallen(const GameState *st, int64_t now);

/* "1-0", "0-1", "1/2-1/2", "*", or forfeits "+/-", "-/+", "-/-", "+/+";
 * penalty results like "1/2-0" where the scores do not add up. */
const char *game_result_text(const GameState *st, char buf[16]);

/* "checkmate", "time", ... ; "" while the game runs. */
const char *game_end_name(int end);

/* The position after ply plies (0 <= ply <= nplies) into *b. */
void game_position_at(const GameState *st, int ply, Board *b);

/* How many times the current position has occurred (Art. 9.2.3 identity). */
int game_repetitions(const GameState *st);

#endif
