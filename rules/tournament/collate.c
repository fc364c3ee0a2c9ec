/*
 * collate.c — the alphabetical order of player names (see collate.h).
 *
 * Each character becomes one or two collation elements (two for the
 * expansions ß, æ, œ, ĳ), each with a weight per level, in the manner of
 * the Unicode Collation Algorithm with "shifted" punctuation; the tables
 * cover the scripts player names are written in here (Latin with the
 * diacritics of the European languages, Cyrillic) and fall back to the
 * code point for the rest.  The comparison walks both strings once per
 * level without building anything, so it allocates nothing and cannot
 * fail.
 */
#include "collate.h"

#include <stdint.h>
#include <string.h>

/* Level 1 weights: 0 ignorable, then the comma, digits, Latin, Cyrillic,
 * other characters by code point, bytes that are not UTF-8. */
enum {
    W_COMMA = 1,
    W_DIGIT = 0x10,
    W_LATIN = 0x100, /* a..z, then þ */
    W_GREEK = 0x180, /* α..ω */
    W_CYRILLIC = 0x200,
    W_OTHER = 0x1000, /* + code point */
    W_BAD_BYTE = 0x200000,
};

typedef enum Kind { K_LETTER, K_PUNCT, K_MARK } Kind;

typedef struct Elem {
    Kind kind;
    uint32_t primary, secondary, tertiary, punct;
} Elem;

typedef struct Iter {
    const unsigned char *s;
    Elem pending; /* the second element of an expansion */
    int has_pending;
} Iter;

/* Base letters of U+00C0..U+017F; '#' a symbol, '1' ae, '2' oe, '3' ij,
 * '4' ss, '5' thorn. */
static const char LATIN[] = "aaaaaa1ceeeeiiii"
                            "dnooooo#ouuuuy54" /* C0-DF */
                            "aaaaaa1ceeeeiiii"
                            "dnooooo#ouuuuy5y" /* E0-FF */
                            "aaaaaaccccccccdd"
                            "ddeeeeeeeeeegggg" /* 100-11F */
                            "gggghhhhiiiiiiii"
                            "ii33jjkkklllllll" /* 120-13F */
                            "lllnnnnnnnnnoooo"
                            "oo22rrrrrrssssss" /* 140-15F */
                            "ssttttttuuuuuuuu"
                            "uuuuwwyyyzzzzzzs"; /* 160-17F */
_Static_assert(sizeof LATIN == 0x180 - 0xc0 + 1, "one base letter per code point");

/* Cyrillic letters (lower case) in alphabet order: Russian and Bulgarian,
 * with the Ukrainian, Belarusian, Serbian and Macedonian letters after the
 * ones they follow. */
static const uint16_t CYRILLIC[] = {
    0x430, 0x431, 0x432, 0x433, 0x491, 0x434, 0x452, 0x453, /* а б в г ґ д ђ ѓ */
    0x435, 0x454, 0x436, 0x437, 0x455, 0x438, 0x456, 0x457, /* е є ж з ѕ и і ї */
    0x439, 0x458, 0x43a, 0x43b, 0x459, 0x43c, 0x43d, 0x45a, /* й ј к л љ м н њ */
    0x43e, 0x43f, 0x440, 0x441, 0x442, 0x45b, 0x45c, 0x443, /* о п р с т ћ ќ у */
    0x45e, 0x444, 0x445, 0x446, 0x447, 0x45f, 0x448, 0x449, /* ў ф х ц ч џ ш щ */
    0x44a, 0x44b, 0x44c, 0x44d, 0x44e, 0x44f,               /* ъ ы ь э ю я */
};

/* The next code point of *S (advanced past it), or -1 for a byte that does
 * not begin a well-formed sequence (advanced by that one byte only). */
static int32_t decode(const unsigned char **s)
{
    const unsigned char *p = *s;
    uint32_t c = p[0];
    int more;
    uint32_t min;
    if (c < 0x80) {
        *s = p + 1;
        return (int32_t)c;
    }
    if (c >= 0xc2 && c <= 0xdf)
        more = 1, min = 0x80, c &= 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        more = 2, min = 0x800, c &= 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        more = 3, min = 0x10000, c &= 0x07;
    else
        goto bad;
    for (int i = 1; i <= more; i++) {
        if ((p[i] & 0xc0) != 0x80)
            goto bad;
        c = c << 6 | (p[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        goto bad;
    *s = p + 1 + more;
    return (int32_t)c;
bad:
    *s = p + 1;
    return -1;
}

static int is_punct(uint32_t c)
{
    if (c < 0x80)
        return !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
               c != ',';
    return (c >= 0x80 && c <= 0xbf) || c == 0xd7 || c == 0xf7 || (c >= 0x2b9 && c <= 0x2bf) ||
           (c >= 0x2000 && c <= 0x206f) || c == 0x3000 || c == 0xfeff;
}

static Elem letter(uint32_t primary, uint32_t secondary, int upper)
{
    return (Elem){K_LETTER, primary, secondary, upper ? 1u : 0u, 0};
}

/* Latin U+00C0..U+017F: is C upper case, and its lower-case partner. */
static int latin_upper(uint32_t c, uint32_t *lower)
{
    int up;
    if (c < 0x100)
        up = c <= 0xde;
    else if (c == 0x138 || c == 0x149 || c == 0x17f)
        up = 0;
    else if (c == 0x178)
        up = 1;
    else if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e))
        up = c & 1;
    else
        up = !(c & 1);
    *lower = !up ? c : c == 0x178 ? 0xff : c < 0x100 ? c + 0x20 : c + 1;
    return up;
}

/* A few letters of Latin Extended-B met in names: Romanian ș ț, the
 * Azerbaijani schwa, the pinyin and Vietnamese vowels.  Returns the base
 * letter or 0. */
static char latin_ext_b(uint32_t c, uint32_t *lower, int *upper)
{
    static const struct {
        uint16_t lo, hi;
        char base;
        char upper_parity; /* the upper case of each pair: 0 even, 1 odd */
    } R[] = {{0x1a0, 0x1a1, 'o', 0}, {0x1af, 0x1b0, 'u', 1}, {0x1cd, 0x1ce, 'a', 1},
             {0x1cf, 0x1d0, 'i', 1}, {0x1d1, 0x1d2, 'o', 1}, {0x1d3, 0x1dc, 'u', 1},
             {0x218, 0x219, 's', 0}, {0x21a, 0x21b, 't', 0}};
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++)
        if (c >= R[i].lo && c <= R[i].hi) {
            *upper = (int)(c & 1) == R[i].upper_parity;
            *lower = *upper ? c + 1 : c;
            return R[i].base;
        }
    if (c == 0x18f || c == 0x259) { /* Ə ə */
        *upper = c == 0x18f;
        *lower = 0x259;
        return 'e';
    }
    return 0;
}

/* The Greek letters with tonos or dialytika: the base letter (lower
 * case), the diacritic as its combining code point in *MARK, the case in
 * *UPPER; 0 for anything else. */
static uint32_t greek_accented(uint32_t c, uint32_t *mark, int *upper)
{
    static const struct {
        uint16_t c, base, mark;
        char upper;
    } G[] = {{0x386, 0x3b1, 0x301, 1}, {0x388, 0x3b5, 0x301, 1}, {0x389, 0x3b7, 0x301, 1},
             {0x38a, 0x3b9, 0x301, 1}, {0x38c, 0x3bf, 0x301, 1}, {0x38e, 0x3c5, 0x301, 1},
             {0x38f, 0x3c9, 0x301, 1}, {0x390, 0x3b9, 0x344, 0}, {0x3aa, 0x3b9, 0x308, 1},
             {0x3ab, 0x3c5, 0x308, 1}, {0x3ac, 0x3b1, 0x301, 0}, {0x3ad, 0x3b5, 0x301, 0},
             {0x3ae, 0x3b7, 0x301, 0}, {0x3af, 0x3b9, 0x301, 0}, {0x3b0, 0x3c5, 0x344, 0},
             {0x3ca, 0x3b9, 0x308, 0}, {0x3cb, 0x3c5, 0x308, 0}, {0x3cc, 0x3bf, 0x301, 0},
             {0x3cd, 0x3c5, 0x301, 0}, {0x3ce, 0x3c9, 0x301, 0}};
    for (size_t i = 0; i < sizeof G / sizeof G[0]; i++)
        if (G[i].c == c) {
            *mark = G[i].mark;
            *upper = G[i].upper;
            return G[i].base;
        }
    return 0;
}

static int cyrillic_rank(uint32_t lower)
{
    for (size_t i = 0; i < sizeof CYRILLIC / sizeof CYRILLIC[0]; i++)
        if (CYRILLIC[i] == lower)
            return (int)i;
    return -1;
}

/* The elements of code point C (or of a bad byte, C < 0: -1 - byte) in
 * OUT; returns how many (1 or 2). */
static int elements(int32_t c, unsigned bad_byte, Elem out[2])
{
    if (c < 0) {
        out[0] = (Elem){K_LETTER, W_BAD_BYTE + bad_byte, 0, 0, 0};
        return 1;
    }
    uint32_t u = (uint32_t)c, lower;
    int upper;
    if (u >= 'a' && u <= 'z')
        return out[0] = letter(W_LATIN + u - 'a', 0, 0), 1;
    if (u >= 'A' && u <= 'Z')
        return out[0] = letter(W_LATIN + u - 'A', 0, 1), 1;
    if (u >= '0' && u <= '9')
        return out[0] = (Elem){K_LETTER, W_DIGIT + u - '0', 0, 0, 0}, 1;
    if (u == ',')
        return out[0] = (Elem){K_LETTER, W_COMMA, 0, 0, 0}, 1;
    if (u >= 0x300 && u <= 0x36f) /* combining diacritics: level 2 only */
        return out[0] = (Elem){K_MARK, 0, u, 0, 0}, 1;
    if (is_punct(u))
        return out[0] = (Elem){K_PUNCT, 0, 0, 0, 1 + u}, 1;
    if (u >= 0xc0 && u <= 0x17f && LATIN[u - 0xc0] != '#') {
        upper = latin_upper(u, &lower);
        char b = LATIN[u - 0xc0];
        static const char *const EXPAND[] = {"ae", "oe", "ij", "ss"};
        if (b >= '1' && b <= '4') {
            const char *x = EXPAND[b - '1'];
            out[0] = letter(W_LATIN + (uint32_t)(x[0] - 'a'), lower, upper);
            out[1] = letter(W_LATIN + (uint32_t)(x[1] - 'a'), lower, upper);
            return 2;
        }
        if (b == '5')
            return out[0] = letter(W_LATIN + 26, 0, upper), 1;
        return out[0] = letter(W_LATIN + (uint32_t)(b - 'a'), lower, upper), 1;
    }
    char b = latin_ext_b(u, &lower, &upper);
    if (b)
        return out[0] = letter(W_LATIN + (uint32_t)(b - 'a'), lower, upper), 1;
    /* Greek, between Latin and Cyrillic as in the Unicode order. */
    if (u >= 0x386 && u <= 0x3ce) {
        uint32_t base = 0, mark = 0;
        if (u >= 0x391 && u <= 0x3a9 && u != 0x3a2)
            base = u + 0x20, upper = 1;
        else if (u >= 0x3b1 && u <= 0x3c9)
            base = u == 0x3c2 ? 0x3c3 : u, mark = u == 0x3c2 ? u : 0, upper = 0;
        else
            base = greek_accented(u, &mark, &upper);
        if (base)
            return out[0] = letter(W_GREEK + base - 0x3b1, mark, upper), 1;
    }
    /* Cyrillic: fold the case, then ё ѐ ѝ to their base letters. */
    if (u >= 0x400 && u <= 0x491) {
        upper = (u >= 0x400 && u <= 0x42f) || u == 0x490;
        lower = u <= 0x40f ? u + 0x50 : u <= 0x42f ? u + 0x20 : u == 0x490 ? 0x491 : u;
        uint32_t base = lower == 0x450 || lower == 0x451 ? 0x435 : lower == 0x45d ? 0x438 : lower;
        int rank = cyrillic_rank(base);
        if (rank >= 0)
            return out[0] = letter(W_CYRILLIC + (uint32_t)rank, base == lower ? 0 : lower, upper),
                   1;
    }
    out[0] = (Elem){K_LETTER, W_OTHER + u, 0, 0, 0};
    return 1;
}

static int next(Iter *it, Elem *e)
{
    if (it->has_pending) {
        *e = it->pending;
        it->has_pending = 0;
        return 1;
    }
    if (!*it->s)
        return 0;
    unsigned first = *it->s;
    int32_t c = decode(&it->s);
    Elem out[2];
    int n = elements(c, first, out);
    *e = out[0];
    if (n == 2) {
        it->pending = out[1];
        it->has_pending = 1;
    }
    return 1;
}

/* The weight of E at LEVEL (1-4) in *W; 0 when E has none there. */
static int weight(const Elem *e, int level, uint32_t *w)
{
    switch (level) {
    case 1: *w = e->primary; return e->kind == K_LETTER;
    case 2: *w = e->secondary; return e->kind != K_PUNCT;
    case 3: *w = e->tertiary; return e->kind == K_LETTER;
    default: *w = e->kind == K_PUNCT ? e->punct : UINT32_MAX; return e->kind != K_MARK;
    }
}

/* The next weight of IT at LEVEL; 0 at the end. */
static int next_weight(Iter *it, int level, uint32_t *w)
{
    Elem e;
    while (next(it, &e))
        if (weight(&e, level, w))
            return 1;
    return 0;
}

static int level_cmp(const char *a, const char *b, int level)
{
    Iter x = {(const unsigned char *)a, {0}, 0}, y = {(const unsigned char *)b, {0}, 0};
    for (;;) {
        uint32_t wa = 0, wb = 0;
        int ha = next_weight(&x, level, &wa), hb = next_weight(&y, level, &wb);
        if (!ha || !hb)
            return ha - hb;
        if (wa != wb)
            return wa < wb ? -1 : 1;
    }
}

int collate_names_cmp(const char *a, const char *b)
{
    a = a ? a : "";
    b = b ? b : "";
    for (int level = 1; level <= 4; level++) {
        int c = level_cmp(a, b, level);
        if (c)
            return c;
    }
    int c = strcmp(a, b);
    return (c > 0) - (c < 0);
}
