/*
 * fide_text.h — the text side of the FIDE register: names folded to plain
 * lower-case ASCII (accents off), Cyrillic turned into Latin letters, and a
 * spelling key that makes the usual ways of writing a Russian or Bulgarian
 * name in Latin letters meet (Kh/H, Y/I/J, X/Ks, Shch/Sht, doubled letters).
 *
 * The register keeps the key of every FIDE name; a search typed in Cyrillic
 * is turned into keys the same way, so "Топалов" finds "Topalov, Veselin"
 * and "Чепаринов" finds "Cheparinov".  A key of a typed prefix is a prefix of
 * the key of the whole word (the rules look only backwards), which is what
 * search-as-you-type needs.
 *
 * Pure text processing on UTF-8: no allocation, no I/O.  Input that is not
 * valid UTF-8 is read as Latin-1 (FIDE's older TXT lists are).
 */
#ifndef ARBITER_DB_FIDE_TEXT_H
#define ARBITER_DB_FIDE_TEXT_H

#include <stddef.h>

/*
 * Folds IN (NUL-terminated) into OUT (N bytes, always terminated): letters
 * become lower-case ASCII (accented Latin letters lose the accent, Cyrillic
 * letters are transliterated), digits stay, everything else becomes one
 * space between words.  *CYRILLIC (if not NULL) is set when IN has a
 * Cyrillic letter.  Returns the length written (truncated at a word end
 * when OUT is too small).
 */
size_t fide_text_fold(const char *in, char *out, size_t n, int *cyrillic);

/*
 * The spelling key of IN: IN folded, then each word rewritten by the rules
 * above, words separated by one space.  Same contract as fide_text_fold.
 */
size_t fide_text_key(const char *in, char *out, size_t n);

/* Copies the N bytes at IN to OUT (OUTN bytes, terminated) as UTF-8:
 * valid UTF-8 is kept, any other byte is read as Latin-1.  Returns the
 * length written. */
size_t fide_text_utf8(const char *in, size_t n, char *out, size_t outn);

#endif
