/*
 * fuzz_timecontrol.c — time-control strings under arbitrary text.
 *
 * timecontrol_parse() must refuse with a message or produce a control whose
 * canonical text (timecontrol_format) parses back to an equal control and
 * prints the same text again; the derived category and penalty must be
 * among the documented values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "timecontrol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';

    TimeControl tc, again;
    char err[160];
    err[0] = '\0';
    if (timecontrol_parse(&tc, text, err, sizeof err) != 0) {
        if (err[0] == '\0')
            abort(); /* a refusal must say why */
        return 0;
    }
    if (!timecontrol_equal(&tc, &tc))
        abort();
    char out[TC_TEXT_MAX], out2[TC_TEXT_MAX];
    memset(out, 0, sizeof out);
    timecontrol_format(&tc, out);
    if (memchr(out, '\0', sizeof out) == NULL)
        abort();
    if (timecontrol_parse(&again, out, err, sizeof err) != 0 || !timecontrol_equal(&tc, &again))
        abort();
    timecontrol_format(&again, out2);
    if (strcmp(out, out2) != 0)
        abort();
    if (!tc.untimed) {
        for (int s = 0; s < 2; s++) {
            const TcSide *side = &tc.side[s];
            if (side->nperiods < 1 || side->nperiods > TC_PERIODS_MAX ||
                side->periods[side->nperiods - 1].moves != 0)
                abort();
            for (int i = 0; i < side->nperiods; i++)
                if (side->periods[i].base_ms < 0 || side->periods[i].bonus_ms < 0 ||
                    side->periods[i].moves < 0 || side->periods[i].bonus > TC_BONUS_BRONSTEIN)
                    abort();
        }
    }
    int cat = timecontrol_category(&tc);
    if (cat < TC_STANDARD || cat > TC_UNTIMED || (cat == TC_UNTIMED) != tc.untimed)
        abort();
    const char *name = timecontrol_category_name(cat);
    if (!name || !*name)
        abort();
    int64_t pen = timecontrol_penalty_ms(&tc);
    if (pen != 60000 && pen != 120000)
        abort();
    return 0;
}
