/*
 * trf_field.h — the field-level conventions the TRF reader and writer share:
 * columns counted in characters, and points written in tenths.  Both
 * trf.c and trf_write.c sit above this file and no longer call each other.
 */
#ifndef ARBITER_RULES_TRF_FIELD_H
#define ARBITER_RULES_TRF_FIELD_H

#include <stddef.h>

#include "tournament.h"

/*
 * Columns are characters: the byte length of the character at s (n bytes
 * left) — its UTF-8 length if it starts a valid sequence, else 1 (a Latin-1
 * byte is one column too).
 */
int trf_field_char_len(const unsigned char *s, size_t n);

/* Formats tenths of a point as the TRF does ("11.5", "3.0"); buf >= 16 bytes. */
void trf_field_format_points(TrnPoints p, char *buf);

#endif
