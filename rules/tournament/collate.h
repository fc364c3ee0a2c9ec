/*
 * collate.h — the alphabetical order of player names (UTF-8), the same on
 * every machine: no locale, no libc collation tables.
 *
 * A name is compared level by level, each level only when all before it
 * are equal:
 *
 *   1. letters and digits, case and diacritics folded: digits before
 *      letters; Latin letters a-z (Latin-1 Supplement, Latin Extended-A and
 *      the Romanian/Azerbaijani letters of Latin Extended-B fold to their
 *      base letter: é->e, ö->o, ł->l, đ->d, ø->o, ş->s, ž->z, ı->i; ß->ss,
 *      æ->ae, œ->oe, ĳ->ij; þ is a letter after z); then Greek (tonos,
 *      dialytika and the final sigma folded); then Cyrillic in
 *      alphabet order (Russian and Bulgarian: ё sorts as е, as dictionaries
 *      do; the Ukrainian, Belarusian, Serbian and Macedonian letters after
 *      the letter they follow in those alphabets: ґ after г, ђ ѓ after д,
 *      є after е, ѕ after з, і ї after и, ј after й, љ after л, њ after н,
 *      ћ ќ after т, ў after у, џ after ч); then any other character by code
 *      point, and bytes that are not UTF-8 last, byte by byte.
 *      Spaces, hyphens, apostrophes, periods and other punctuation count
 *      for nothing here ("O'Brien" is "obrien", "de Vries" is "devries"),
 *      except the comma, which ends the surname of "Surname, Given names"
 *      and sorts before every letter: the surname is compared first, so
 *      "Li, Wei" comes before "Lie, Anna" (a printed list of players is
 *      ordered by surname; glibc's en_US order, which drops the comma,
 *      differs here and only here).
 *   2. diacritics, letter by letter: the plain letter first ("Muller"
 *      before "Müller", "ss" before "ß"); different diacritics of one
 *      letter by code point.
 *   3. case, letter by letter: lower case first.
 *   4. punctuation: where it stands and which ("OBrien" after "O'Brien").
 *   5. the bytes (strcmp), so that only equal strings compare equal.
 *
 * Invalid UTF-8 never fails: each byte that does not begin a valid
 * sequence stands for itself (level 1, after all characters).
 *
 * Pure: no allocation, no globals, no locale.  Workload: sorting a few
 * hundred names per request; each comparison walks the two names at most
 * five times.
 */
#ifndef ARBITER_RULES_COLLATE_H
#define ARBITER_RULES_COLLATE_H

/* Negative when name A sorts before name B, positive after, 0 only when
 * the two strings are byte for byte equal.  NULL counts as "". */
int collate_names_cmp(const char *a, const char *b);

#endif
