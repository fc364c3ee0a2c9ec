/*
 * fide_text.c — folding, transliteration and spelling keys of FIDE names.
 * See fide_text.h.
 *
 * The Cyrillic table follows the common Russian and Bulgarian passport
 * spellings (х kh, ц ts, ч ch, ш sh, щ shch, ю yu, я ya); where the two
 * languages differ the spelling key makes them meet: Bulgarian х is h and
 * щ is sht, and the key writes kh as h and shch as sht.  The hard sign is
 * silent in Russian (before a vowel: Подъячев) and the vowel a in
 * Bulgarian (Дъскалов).
 */
#include "fide_text.h"

#include <string.h>

/* Base letters of U+00C0..U+00FF; ' ' marks a non-letter. */
static const char LATIN1[] = "aaaaaaaceeeeiiiidnooooo ouuuuyts"
                             "aaaaaaaceeeeiiiidnooooo ouuuuyty";
/* Base letters of U+0100..U+017F (Latin Extended-A), in pairs. */
static const char LATIN_A[] = "aaaaaacc"
                              "ccccccdd"
                              "ddeeeeee"
                              "eeeegggg"
                              "gggghhhh"
                              "iiiiiiii"
                              "iiiijjkk"
                              "klllllll"
                              "lllnnnnn"
                              "nnnnoooo"
                              "oooorrrr"
                              "rrssssss"
                              "sstttttt"
                              "uuuuuuuu"
                              "uuuuwwyy"
                              "yzzzzzzs";
_Static_assert(sizeof LATIN1 == 65 && sizeof LATIN_A == 129, "one letter per code point");

/* Latin of U+0430..U+044F (а..я); the hard sign (ъ) is handled apart. */
static const char *const CYRILLIC[32] = {
    "a", "b", "v", "g", "d", "e",  "zh", "z",  "i",  "y",    "k", "l", "m", "n", "o",  "p",
    "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "",  "y", "",  "e", "yu", "ya",
};
/* Latin of U+0450..U+045F (ѐ ё ђ ѓ є ѕ і ї ј љ њ ћ ќ ѝ ў џ). */
static const char *const CYRILLIC_EXT[16] = {
    "e", "e", "d", "g", "e", "dz", "i", "i", "j", "lj", "nj", "c", "k", "i", "u", "dz",
};

/* The code point at *P (advanced past it); a byte that does not start a
 * valid UTF-8 sequence is taken as Latin-1.  0 at the end. */
static unsigned next_cp(const unsigned char **p)
{
    const unsigned char *s = *p;
    unsigned c = s[0];
    if (c < 0x80) {
        *p += c != 0;
        return c;
    }
    int len = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (c >= 0xF5)
        len = 0;
    unsigned cp = len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            len = 0;
            break;
        }
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (len == 0) {
        *p += 1;
        return c;
    }
    *p += len;
    return cp;
}

static int cyrillic_vowel(unsigned cp)
{
    static const unsigned v[] = {0x435, 0x451, 0x44E, 0x44F, 0x438,
                                 0x415, 0x401, 0x42E, 0x42F, 0x418};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (v[i] == cp)
            return 1;
    return 0;
}

/* The Latin letters of CP ("" for a silent letter, NULL for a non-letter);
 * NEXT is the code point after it.  Sets *CYR for Cyrillic. */
static const char *latin_of(unsigned cp, unsigned next, char one[2], int *cyr)
{
    one[1] = 0;
    if (cp < 0x80) {
        if (cp >= 'A' && cp <= 'Z')
            cp += 'a' - 'A';
        if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
            one[0] = (char)cp;
            return one;
        }
        return NULL;
    }
    switch (cp) {
    case 0xDF: return "ss";
    case 0xC6:
    case 0xE6: return "ae";
    case 0x152:
    case 0x153: return "oe";
    case 0xDE:
    case 0xFE: return "th";
    case 0x218:
    case 0x219: return "s";
    case 0x21A:
    case 0x21B: return "t";
    case 0x490:
    case 0x491: *cyr = 1; return "g";
    case 0x42A:
    case 0x44A: *cyr = 1; return cyrillic_vowel(next) ? "" : "a";
    }
    if (cp >= 0xC0 && cp <= 0x17F) {
        one[0] = cp < 0x100 ? LATIN1[cp - 0xC0] : LATIN_A[cp - 0x100];
        return one[0] == ' ' ? NULL : one;
    }
    if (cp >= 0x400 && cp <= 0x45F) {
        *cyr = 1;
        if (cp < 0x410)
            cp += 0x50;
        else if (cp < 0x430)
            cp += 0x20;
        return cp < 0x450 ? CYRILLIC[cp - 0x430] : CYRILLIC_EXT[cp - 0x450];
    }
    return NULL;
}

size_t fide_text_fold(const char *in, char *out, size_t n, int *cyrillic)
{
    size_t o = 0;
    int cyr = 0, gap = 0;
    if (n == 0)
        return 0;
    const unsigned char *p = (const unsigned char *)in;
    unsigned cp = next_cp(&p);
    while (cp) {
        unsigned next = next_cp(&p);
        char one[2];
        const char *lat = latin_of(cp, next, one, &cyr);
        if (!lat) {
            gap = o > 0;
        } else if (*lat) {
            size_t len = strlen(lat) + (size_t)gap;
            if (o + len >= n)
                break;
            if (gap)
                out[o++] = ' ';
            gap = 0;
            memcpy(out + o, lat, strlen(lat));
            o += strlen(lat);
        }
        cp = next;
    }
    out[o] = 0;
    if (cyrillic)
        *cyrillic = cyr;
    return o;
}

/* Appends C to the key unless it doubles the letter before it. */
static void put(char *out, size_t *o, size_t n, char c)
{
    if (*o + 1 >= n || (*o > 0 && out[*o - 1] == c && c != ' '))
        return;
    out[(*o)++] = c;
}

size_t fide_text_key(const char *in, char *out, size_t n)
{
    char fold[512];
    if (n == 0)
        return 0;
    fide_text_fold(in, fold, sizeof fold, NULL);
    size_t o = 0;
    for (const char *w = fold; *w;) {
        size_t start = o;
        while (*w && *w != ' ') {
            static const struct {
                const char *from, *to;
            } RULES[] = {{"shch", "sht"}, {"sch", "sh"}, {"kh", "h"}, {"ck", "k"}, {"ph", "f"},
                         {"tz", "ts"},    {"x", "ks"},   {"w", "v"},  {"y", "i"},  {"j", "i"}};
            const char *to = NULL;
            size_t len = 1;
            for (size_t r = 0; r < sizeof RULES / sizeof RULES[0] && !to; r++)
                if (strncmp(w, RULES[r].from, strlen(RULES[r].from)) == 0) {
                    to = RULES[r].to;
                    len = strlen(RULES[r].from);
                }
            char one[2] = {*w, 0};
            for (const char *t = to ? to : one; *t; t++)
                put(out, &o, n, *t);
            w += len;
        }
        /* A word-initial ye/ie/je is the e of Евгений. */
        if (o >= start + 2 && out[start] == 'i' && out[start + 1] == 'e') {
            memmove(out + start, out + start + 1, o - start - 1);
            o--;
        }
        if (*w == ' ') {
            put(out, &o, n, ' ');
            w++;
        }
    }
    out[o] = 0;
    return o;
}

size_t fide_text_utf8(const char *in, size_t n, char *out, size_t outn)
{
    size_t o = 0;
    if (outn == 0)
        return 0;
    const unsigned char *s = (const unsigned char *)in;
    for (size_t i = 0; i < n;) {
        /* Copy a valid sequence as it is, re-encode anything else. */
        const unsigned char *p = s + i;
        unsigned char tmp[5] = {0};
        size_t avail = n - i < 4 ? n - i : 4;
        memcpy(tmp, p, avail);
        const unsigned char *q = tmp;
        unsigned cp = next_cp(&q);
        size_t used = (size_t)(q - tmp);
        if (used == 0)
            used = 1; /* a NUL byte */
        int valid = used > 1 || tmp[0] < 0x80;
        if (valid) {
            if (o + used >= outn)
                break;
            memcpy(out + o, p, used);
            o += used;
        } else {
            if (o + 2 >= outn)
                break;
            out[o++] = (char)(0xC0 | cp >> 6);
            out[o++] = (char)(0x80 | (cp & 0x3F));
        }
        i += used;
    }
    out[o] = 0;
    return o;
}
