/*
 * gamecache.c — a direct-mapped table of (game, white, black) guarded by
 * striped mutexes.  A slot is valid while its generation is the current
 * one and its time has not run out; the generation moves on after every
 * committed write that may edit pairings, so a stale slot is never used.
 * The time limit covers writes made by another process on the same
 * database.  Workload: two lookups per move, thousands per second.
 */
#include "gamecache.h"

#include <pthread.h>
#include <stdatomic.h>

#include "rounds.h"

enum { SLOTS = 8192, LOCKS = 16, TTL_MS = 10000 };

typedef struct Slot {
    int64_t gid, white, black;
    uint64_t gen;
    int64_t until_ms;
} Slot;

static Slot slots[SLOTS];
/* A range initialiser (GCC and Clang): every one of the LOCKS stripes,
 * however many there are. */
static pthread_mutex_t locks[LOCKS] = {[0 ... LOCKS - 1] = PTHREAD_MUTEX_INITIALIZER};
static _Atomic uint64_t generation = 1;

void gamecache_forget(void)
{
    atomic_fetch_add(&generation, 1);
}

int gamecache_players(Store *s, int64_t gid, int64_t *white, int64_t *black)
{
    size_t i = (size_t)((uint64_t)gid % SLOTS);
    pthread_mutex_t *m = &locks[i % LOCKS];
    int64_t now = store_now_ms();
    uint64_t gen = atomic_load(&generation);
    pthread_mutex_lock(m);
    Slot c = slots[i];
    pthread_mutex_unlock(m);
    if (c.gid == gid && c.gen == gen && now < c.until_ms) {
        *white = c.white;
        *black = c.black;
        return 0;
    }
    int rc = rounds_game_players(s, gid, white, black);
    if (rc)
        return rc;
    pthread_mutex_lock(m);
    slots[i] = (Slot){gid, *white, *black, gen, now + TTL_MS};
    pthread_mutex_unlock(m);
    return 0;
}
