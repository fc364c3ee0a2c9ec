/*
 * fuzz_pgn.c — PGN import under arbitrary bytes.
 *
 * pgn_read() must refuse with a line-numbered message or return games that
 * pgn_write() can export; reading the export again gives the same moves,
 * clocks and results.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    PgnGame *games;
    int count;
    char err[200];
    err[0] = '\0';
    int rc = pgn_read((const char *)data, size, &games, &count, err, sizeof err);
    if (rc != 0) {
        if (games || count || err[0] == '\0' || (rc > 0 && strncmp(err, "line ", 5) != 0))
            abort();
        return 0;
    }
    for (int i = 0; i < count; i++) {
        char *out;
        if (pgn_write(&games[i], &out, err, sizeof err) != 0)
            abort();
        PgnGame *again;
        int n;
        if (pgn_read(out, strlen(out), &again, &n, err, sizeof err) != 0 || n != 1 ||
            again[0].nplies != games[i].nplies || strcmp(again[0].result, games[i].result) != 0)
            abort();
        for (int k = 0; k < games[i].nplies; k++)
            if (again[0].plies[k].move != games[i].plies[k].move ||
                again[0].plies[k].draw_offer != games[i].plies[k].draw_offer ||
                (again[0].plies[k].clock_ms < 0) != (games[i].plies[k].clock_ms < 0))
                abort();
        pgn_games_free(again, n);
        free(out);
    }
    pgn_games_free(games, count);
    return 0;
}
