/*
 * fuzz_events.c — the event codec and the Laws engine under arbitrary
 * event logs (JSON lines, docs/events.md; the first line may be settings).
 *
 * Every line is either refused by the codec with a message, or parsed; a
 * parsed event formats and parses back to itself; game_apply() either
 * accepts it or refuses it with a reason and leaves the state exactly as it
 * was; and the folded game always exports to PGN that rules/pgn reads back
 * with the same number of moves.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "event_json.h"
#include "game.h"
#include "game_pgn.h"
#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { LINES_MAX = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    GameSettings settings;
    game_settings_default(&settings);
    GameState *st = NULL;
    char err[256];
    char *save = NULL;
    int lines = 0;
    for (char *line = strtok_r(text, "\n", &save); line && lines < LINES_MAX;
         line = strtok_r(NULL, "\n", &save), lines++) {
        if (!st && strstr(line, "\"settings\"")) {
            err[0] = '\0';
            if (event_json_settings_parse(line, &settings, err, sizeof err) != 0 && !err[0])
                abort();
            continue;
        }
        GameEvent ev, back;
        err[0] = '\0';
        if (event_json_parse(line, &ev, err, sizeof err) != 0) {
            if (!err[0])
                abort();
            continue;
        }
        char *again = event_json_format(&ev);
        if (!again || event_json_parse(again, &back, err, sizeof err) != 0 ||
            memcmp(&ev, &back, sizeof ev) != 0)
            abort();
        free(again);
        if (!st && !(st = game_new(&settings, err, sizeof err)))
            break; /* a settings FEN the engine refuses: nothing to fold */
        json_t *before = event_json_state_to_json(st, ev.time_ms);
        GameVerdict v;
        if (game_apply(st, &ev, ev.time_ms, &v) != GAME_OK) {
            json_t *after = event_json_state_to_json(st, ev.time_ms);
            if (!v.reason[0] || !json_equal(before, after))
                abort();
            json_decref(after);
        }
        json_decref(before);
    }
    if (st) {
        char *pgn = NULL;
        if (game_pgn(st, NULL, &pgn, err, sizeof err) != 0)
            abort();
        PgnGame *games;
        int count;
        if (pgn_read(pgn, strlen(pgn), &games, &count, err, sizeof err) != 0 || count != 1 ||
            games[0].nplies != st->nplies)
            abort();
        pgn_games_free(games, count);
        free(pgn);
        game_free(st);
    }
    free(text);
    return 0;
}
