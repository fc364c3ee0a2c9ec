/*
 * games.h — games as event logs in the store: loading a game by replaying
 * its events through the Laws engine, and appending the events of one
 * request (checked by the engine first) inside a writer job.
 *
 * The writer thread keeps the live GameState of the games it touched
 * (Games), so a move costs one engine call and one INSERT, not a replay;
 * past a couple of thousand, finished games are dropped (replayed again if
 * touched).
 * That cache belongs to the writer thread alone; a job that fails after
 * changing it, or a batch whose commit fails, evicts the game and the next
 * job replays it from the store.  Readers load games from their own
 * connection by replaying (loading = replaying, no second copy of the truth).
 *
 * games.status is 'pending' before the start event, 'running' while it is
 * being played and 'over' after its end; games.result is the engine's result
 * text: both are kept in the transaction of the event that changes them.
 * So are games.white_id and games.black_id when a `colours_reversed` event
 * (7.3) lets the game go on: they swap to the colours actually played, once,
 * when the event is stored (never on replay).  Whoever caches a game's
 * players forgets them after such an event (GameVerdict.colours_swapped).
 */
#ifndef ARBITER_DB_GAMES_H
#define ARBITER_DB_GAMES_H

#include <jansson.h>
#include <stdint.h>

#include "game.h"
#include "store.h"

typedef struct Games Games;

/* Game refusals are reported as GAMES_E_BASE + GAME_E_* so the server maps
 * them in one table. */
enum { GAMES_E_BASE = 200 };

/* What one accepted (or replayed) game action produced, for the answer and
 * for what the server does after the commit (streams, alerts, timers). */
typedef struct GameOutcome {
    int64_t gid, tid;
    int64_t event_id; /* the stored event's id, 0 when nothing was stored */
    int32_t seq;      /* its number in the game */
    GameEvent ev;     /* the stored event */
    GameVerdict v;    /* the engine's verdict */
    GameState *snap;  /* the state right after it (a copy) */
    int64_t at_ms;    /* the instant the snapshot describes */
    /* JSON forms, built by games_outcome_json() when first needed (on the
     * writer thread only when live streams listen; else on the thread that
     * answers, after the commit). */
    json_t *event;   /* the stored event with "id" and "seq", or NULL */
    json_t *update;  /* a GameUpdate (see the OpenAPI document) */
    json_t *verdict; /* the engine's verdict */
    json_t *alerts;  /* Alert objects added in the same transaction */
    /* The compact text of update, rendered once by games_outcome_text() and
     * shared by the answer and every stream. */
    char *update_text;
    size_t update_len;
    char *sheet;         /* the snapshot's scoresheet fields as text, from the
                            game's cache, or NULL (rendered from snap) */
    int64_t deadline_ms; /* next instant something happens by itself */
    int answer;          /* 0, or the error the request gets although an event
                            (e.g. the flag that fell first) was stored */
    char answer_msg[256];
    struct GameOutcome *next;
} GameOutcome;

Games *games_new(void);
void games_free(Games *g);
/* Forgets the cached state of GID (after a failed commit). */
void games_evict(Games *g, int64_t gid);

/* Replays game GID from S into a new state (caller game_free()s it) and
 * its summary row (caller decrefs).  0, STORE_E_NOT_FOUND, or -EIO for a
 * log the engine refuses. */
int games_load(Store *s, int64_t gid, GameState **st, json_t **summary, char *err, size_t n);
/* The same with only the events stored at or before CUT_MS (the public
 * view under a delay, db/feed.h); the summary's status and result are
 * those of the replayed part.  INT64_MAX: every event. */
int games_load_until(Store *s, int64_t gid, int64_t cut_ms, GameState **st, json_t **summary,
                     char *err, size_t n);

/* Inside a writer job: applies EV to game GID at the instant EV->time_ms
 * (when the request arrived; 0 or a time after now: now), never before the
 * game's last event.  The time a request waited for the writer is thus not
 * charged to the player's clock.
 * EXPECT_PLY >= 0 makes the action conditional on the current ply: a repeat
 * of the last accepted action by the same actor with the same move text is
 * answered again without storing anything; any other mismatch is
 * STORE_E_STALE.  On acceptance stores the event, updates games.status /
 * result, adds alerts, and fills OUT (caller frees with games_outcome_free).
 * Returns 0, or STORE_E_* / GAMES_E_BASE + GAME_E_* with a message in ERR. */
int games_act(Games *g, Store *s, int64_t gid, GameEvent *ev, int expect_ply, GameOutcome *out,
              char *err, size_t n);

/* Applies an arbiter-wide event (start, pause, resume) of TYPE to every game
 * of round RN, skipping games that refuse it; *OUT gets a list of outcomes.
 * For start the round must be pending; it becomes running. */
int games_round_act(Games *g, Store *s, int64_t tid, int64_t rn, int type, GameOutcome **out,
                    char *err, size_t n);

/* At startup, inside a writer job: every running game whose clocks ran is
 * paused as of the last heartbeat (the server was down since), so nobody is
 * charged for the downtime, and its round, if running, becomes paused.
 * *OUT lists the outcomes. */
int games_pause_after_downtime(Games *g, Store *s, GameOutcome **out);

/* Inside a writer job: the timer's time check of game GID (a flag event by
 * the server).  Returns 0 with OUT filled when it ended something, or a
 * GAMES_E_ code when nothing was due (then nothing is stored). */
int games_time_check(Games *g, Store *s, int64_t gid, GameOutcome *out);

/* The GameUpdate fields of ST at NOW into OBJ (ply, fen, to_move, legal,
 * state). */
void games_state_fields(const GameState *st, int64_t now, json_t *obj);
/* Stored events of GID as API objects (id, seq, and the event fields). */
json_t *games_events(Store *s, int64_t gid, int64_t after_id);
/* Replays GID and returns the GameUpdate of every event with id > AFTER_ID
 * (the state as it was right after that event), in order. */
json_t *games_updates_since(Store *s, int64_t gid, int64_t after_id);
/* Stored events of every game of tournament TID with id > AFTER_ID, as
 * {"id","game_id","seq","event"} in id order, at most LIMIT. */
json_t *games_tournament_events(Store *s, int64_t tid, int64_t after_id, int limit);
/* Games with a pending deadline (status running): {"id"} objects. */
json_t *games_running(Store *s);

/* Builds O's event, update and verdict JSON if not built yet (one thread
 * at a time). */
void games_outcome_json(GameOutcome *o);
/* The compact JSON text of O's GameUpdate (json_dumps(update, JSON_COMPACT)
 * byte for byte), rendered on the first call without building the json_t
 * tree; NULL on out-of-memory.  Owned by O; one thread at a time. */
const char *games_outcome_text(GameOutcome *o, size_t *len);
/* The answer to the action: {"verdict":...,"event":...|null,"game":update}
 * as compact JSON text, malloc'd (caller frees), length in *LEN; NULL on
 * out-of-memory. */
char *games_outcome_answer(GameOutcome *o, size_t *len);
/* Frees a list of outcomes (allocated with calloc); NULL is a no-op. */
void games_outcome_free(GameOutcome *o);
/* Frees what O holds, not O itself. */
void games_outcome_clear(GameOutcome *o);

#endif
