/*
 * fide_read.c — streaming readers of FIDE's rating list files (XML and
 * fixed-width TXT; plain, gzip or zip).  See fide_read.h.
 */
#include "fide_read.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "fide_text.h"

enum { BUF = 1 << 16, FIELD_MAX = 256, LINE_MAX_TXT = 1024, XML_DEPTH = 8, NAME_MAX_XML = 32 };

/* A byte source: the file itself, or its inflated contents. */
typedef struct Src {
    FILE *f;
    const char *path;
    int inflating, z_live, z_end;
    long stored_left; /* bytes left of a stored zip member, -1 = to the end */
    z_stream z;
    long line; /* 1-based line of the next byte */
    size_t pos, len;
    char member[128]; /* the zip member's name, else "" */
    char *err;
    size_t errn;
    int failed;
    unsigned char in[BUF];
    unsigned char buf[BUF];
} Src;

static int fail(Src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(Src *s, const char *fmt, ...)
{
    if (s->failed)
        return FIDE_READ_E_FILE;
    int k = snprintf(s->err, s->errn, "%s:%ld: ", s->path, s->line);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < s->errn)
        vsnprintf(s->err + k, s->errn - (size_t)k, fmt, ap);
    va_end(ap);
    s->failed = 1;
    return FIDE_READ_E_FILE;
}

/* Fills s->buf; returns the number of bytes now there (0 at the end or
 * on an error, which sets s->failed). */
static size_t refill(Src *s)
{
    s->pos = s->len = 0;
    if (s->failed)
        return 0;
    if (!s->inflating) {
        size_t want = BUF;
        if (s->stored_left >= 0 && (size_t)s->stored_left < want)
            want = (size_t)s->stored_left;
        s->len = want ? fread(s->buf, 1, want, s->f) : 0;
        if (s->stored_left >= 0)
            s->stored_left -= (long)s->len;
        if (ferror(s->f))
            fail(s, "read error: %s", strerror(errno));
        return s->len;
    }
    while (!s->z_end) {
        if (s->z.avail_in == 0) {
            size_t got = fread(s->in, 1, BUF, s->f);
            if (got == 0) {
                fail(s, "the compressed data is cut short");
                return 0;
            }
            s->z.next_in = s->in;
            s->z.avail_in = (uInt)got;
        }
        s->z.next_out = s->buf;
        s->z.avail_out = BUF;
        int rc = inflate(&s->z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END)
            s->z_end = 1;
        else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            fail(s, "the compressed data is damaged (%s)", s->z.msg ? s->z.msg : "zlib");
            return 0;
        }
        s->len = BUF - s->z.avail_out;
        if (s->len)
            return s->len;
    }
    return 0;
}

static inline int sgetc(Src *s)
{
    if (s->pos == s->len && refill(s) == 0)
        return EOF;
    int c = s->buf[s->pos++];
    s->line += c == '\n';
    return c;
}

static unsigned le16(const unsigned char *p)
{
    return p[0] | (unsigned)p[1] << 8;
}

static unsigned long le32(const unsigned char *p)
{
    return le16(p) | (unsigned long)le16(p + 2) << 16;
}

/* Opens PATH and sets up the decompression its first bytes ask for. */
static int src_open(Src *s, const char *path)
{
    s->path = path;
    s->line = 1;
    s->stored_left = -1;
    s->f = fopen(path, "rb");
    if (!s->f) {
        snprintf(s->err, s->errn, "%s: cannot open: %s", path, strerror(errno));
        s->failed = 1;
        return FIDE_READ_E_FILE;
    }
    unsigned char h[30];
    size_t got = fread(h, 1, 4, s->f);
    if (got == 4 && memcmp(h, "PK\3\4", 4) == 0) {
        if (fread(h + 4, 1, 26, s->f) != 26)
            return fail(s, "the zip file is cut short");
        unsigned flags = le16(h + 6), method = le16(h + 8), nlen = le16(h + 26);
        unsigned xlen = le16(h + 28);
        char name[128];
        size_t keep = nlen < sizeof name ? nlen : sizeof name - 1;
        if (fread(name, 1, keep, s->f) != keep ||
            fseek(s->f, (long)(nlen - keep + xlen), SEEK_CUR) != 0)
            return fail(s, "the zip file is cut short");
        name[keep] = 0;
        snprintf(s->member, sizeof s->member, "%s", name);
        if (method == 0 && !(flags & 8)) {
            s->stored_left = (long)le32(h + 18);
            return 0;
        }
        if (method != 8)
            return fail(s,
                        "the zip member %s uses compression method %u; only deflate and "
                        "stored are read",
                        s->member, method);
        if (inflateInit2(&s->z, -MAX_WBITS) != Z_OK)
            return -ENOMEM;
        s->inflating = s->z_live = 1;
        return 0;
    }
    if (got >= 2 && h[0] == 0x1f && h[1] == 0x8b) {
        if (inflateInit2(&s->z, MAX_WBITS + 16) != Z_OK)
            return -ENOMEM;
        s->inflating = s->z_live = 1;
        memcpy(s->in, h, got);
        s->z.next_in = s->in;
        s->z.avail_in = (uInt)got;
        return 0;
    }
    memcpy(s->buf, h, got);
    s->len = got;
    return 0;
}

static void src_close(Src *s)
{
    if (s->z_live)
        inflateEnd(&s->z);
    if (s->f)
        fclose(s->f);
}

/* ---- fields, shared by both formats ---- */

typedef enum {
    F_OTHER,
    F_ID,
    F_NAME,
    F_FED,
    F_SEX,
    F_TITLE,
    F_WTITLE,
    F_OTITLE,
    F_FOA,
    F_RATING,
    F_GAMES,
    F_K,
    F_BIRTH,
    F_FLAG
} Field;

static int is_blank(const char *t)
{
    while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
        t++;
    return *t == 0;
}

/* The number in TEXT (blank = 0); -1 when it is not one.  With YEAR, only
 * the first four digits count (a birth date written in full). */
static long number(const char *t, int year)
{
    while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
        t++;
    long v = 0;
    int digits = 0;
    for (; *t >= '0' && *t <= '9'; t++, digits++)
        if (!year || digits < 4)
            v = digits < 12 ? v * 10 + (*t - '0') : v;
    if (year && digits >= 4 && (*t == '-' || *t == '.' || *t == '/'))
        return v;
    while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
        t++;
    return *t ? -1 : v;
}

static void copy_trim(char *out, size_t n, const char *t)
{
    while (*t == ' ' || *t == '\t' || *t == '\r' || *t == '\n')
        t++;
    size_t len = strlen(t);
    while (len &&
           (t[len - 1] == ' ' || t[len - 1] == '\t' || t[len - 1] == '\r' || t[len - 1] == '\n'))
        len--;
    fide_text_utf8(t, len, out, n);
}

/* Stores TEXT as field F (rating type TYPE) of ROW; LABEL names it in a
 * message. */
static int set_field(Src *s, FideRow *row, Field f, int type, const char *label, const char *t)
{
    long v = 0;
    if (f == F_ID || f == F_RATING || f == F_GAMES || f == F_K || f == F_BIRTH) {
        v = number(t, f == F_BIRTH);
        if (v < 0 || (f != F_ID && v > 99999))
            return fail(s, "%s is not a number: '%.40s'", label, t);
    }
    switch (f) {
    case F_ID: row->id = v; break;
    case F_NAME: copy_trim(row->name, sizeof row->name, t); break;
    case F_FED: copy_trim(row->federation, sizeof row->federation, t); break;
    case F_SEX:
        copy_trim(row->sex, sizeof row->sex, t);
        row->sex[0] = (char)toupper((unsigned char)row->sex[0]);
        break;
    case F_TITLE: copy_trim(row->title, sizeof row->title, t); break;
    case F_WTITLE: copy_trim(row->w_title, sizeof row->w_title, t); break;
    case F_OTITLE: copy_trim(row->o_title, sizeof row->o_title, t); break;
    case F_FOA: copy_trim(row->foa_title, sizeof row->foa_title, t); break;
    case F_RATING: row->r[type].rating = (int)v; break;
    case F_GAMES: row->r[type].games = (int)v; break;
    case F_K: row->r[type].k = (int)v; break;
    case F_BIRTH: row->birth_year = (int)v; break;
    case F_FLAG: row->inactive = strchr(t, 'i') != NULL || strchr(t, 'I') != NULL; break;
    case F_OTHER: break;
    }
    return 0;
}

/* Checks and normalises a complete ROW and hands it to FN. */
static int finish_row(Src *s, FideRow *row, unsigned types, FideRowFn fn, void *ctx,
                      FideReadInfo *info)
{
    if (row->id <= 0)
        return fail(s, "a player without a FIDE ID");
    if (!row->name[0])
        return fail(s, "player %lld has no name", (long long)row->id);
    for (int t = 0; t < FIDE_TYPES; t++)
        if (row->r[t].rating == 0 || !(types & 1u << t))
            row->r[t] = (FideRating){0, 0, 0};
    row->types = types;
    row->line = s->line;
    info->rows++;
    return fn(ctx, row);
}

/* ---- XML ---- */

static const struct {
    const char *name;
    Field f;
    int type; /* -1: the list's own type */
} XML_FIELDS[] = {
    {"fideid", F_ID, 0},
    {"name", F_NAME, 0},
    {"country", F_FED, 0},
    {"sex", F_SEX, 0},
    {"title", F_TITLE, 0},
    {"w_title", F_WTITLE, 0},
    {"o_title", F_OTITLE, 0},
    {"foa_title", F_FOA, 0},
    {"rating", F_RATING, -1},
    {"games", F_GAMES, -1},
    {"k", F_K, -1},
    {"rapid_rating", F_RATING, FIDE_RAPID},
    {"rapid_games", F_GAMES, FIDE_RAPID},
    {"rapid_k", F_K, FIDE_RAPID},
    {"blitz_rating", F_RATING, FIDE_BLITZ},
    {"blitz_games", F_GAMES, FIDE_BLITZ},
    {"blitz_k", F_K, FIDE_BLITZ},
    {"birthday", F_BIRTH, 0},
    {"flag", F_FLAG, 0},
};

/* Skips up to and including the text END. */
static int skip_past(Src *s, const char *end)
{
    size_t m = 0, len = strlen(end);
    int c;
    while ((c = sgetc(s)) != EOF) {
        if (c == end[m])
            m++;
        else if (!(m == 2 && c == '-' && end[0] == '-'))
            m = c == end[0]; /* "--->" still ends a comment */
        if (m == len)
            return 0;
    }
    return fail(s, "the file ends inside a comment or declaration");
}

/* Appends the entity after '&' to TEXT. */
static int entity(Src *s, char *text, size_t *len)
{
    char e[12];
    size_t n = 0;
    int c;
    while ((c = sgetc(s)) != EOF && c != ';' && n < sizeof e - 1)
        e[n++] = (char)c;
    e[n] = 0;
    if (c != ';')
        return fail(s, "an unfinished entity '&%s'", e);
    unsigned long cp = 0;
    if (strcmp(e, "amp") == 0)
        cp = '&';
    else if (strcmp(e, "lt") == 0)
        cp = '<';
    else if (strcmp(e, "gt") == 0)
        cp = '>';
    else if (strcmp(e, "quot") == 0)
        cp = '"';
    else if (strcmp(e, "apos") == 0)
        cp = '\'';
    else if (e[0] == '#')
        cp = e[1] == 'x' ? strtoul(e + 2, NULL, 16) : strtoul(e + 1, NULL, 10);
    if (cp == 0 || cp > 0x10FFFF)
        return fail(s, "an unknown entity '&%s;'", e);
    char u[4];
    size_t k = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (k == 1)
        u[0] = (char)cp;
    else {
        for (size_t i = k - 1; i > 0; i--, cp >>= 6)
            u[i] = (char)(0x80 | (cp & 0x3F));
        u[0] = (char)((k == 2 ? 0xC0 : k == 3 ? 0xE0 : 0xF0) | cp);
    }
    if (*len + k >= FIELD_MAX)
        return fail(s, "a value longer than %d bytes", FIELD_MAX - 1);
    memcpy(text + *len, u, k);
    *len += k;
    return 0;
}

static int read_xml(Src *s, int type, FideRowFn fn, void *ctx, FideReadInfo *info)
{
    char stack[XML_DEPTH][NAME_MAX_XML];
    int depth = 0, seen_root = 0, rc;
    char text[FIELD_MAX];
    size_t tlen = 0;
    FideRow row;
    unsigned types = type >= 0 ? 1u << type : 7u;
    info->types = types;
    int c;
    while ((c = sgetc(s)) != EOF) {
        if (c == '&' && depth == 3) {
            if ((rc = entity(s, text, &tlen)))
                return rc;
            continue;
        }
        if (c != '<') {
            if (depth == 3) {
                if (tlen + 1 >= FIELD_MAX)
                    return fail(s, "<%s> is longer than %d bytes", stack[2], FIELD_MAX - 1);
                text[tlen++] = (char)c;
            } else if (!isspace(c) && depth < 3) {
                return fail(s, "text outside a player's fields");
            }
            continue;
        }
        c = sgetc(s);
        if (c == '?') {
            if ((rc = skip_past(s, "?>")))
                return rc;
            continue;
        }
        if (c == '!') {
            int d = sgetc(s);
            if ((rc = skip_past(s, d == '-' ? "-->" : ">")))
                return rc;
            continue;
        }
        int closing = c == '/';
        if (closing)
            c = sgetc(s);
        char name[NAME_MAX_XML];
        size_t nl = 0;
        while (c != EOF && (isalnum(c) || c == '_' || c == '-' || c == ':' || c == '.')) {
            if (nl + 1 >= sizeof name)
                return fail(s, "an element name longer than %d bytes", NAME_MAX_XML - 1);
            name[nl++] = (char)c;
            c = sgetc(s);
        }
        name[nl] = 0;
        if (!nl)
            return fail(s, "a '<' that starts no element");
        /* Attributes are skipped; quotes may hold '>'. */
        int self = 0, quote = 0;
        while (c != EOF && (quote || c != '>')) {
            if (quote && c == quote)
                quote = 0;
            else if (!quote && (c == '"' || c == '\''))
                quote = c;
            self = !quote && c == '/';
            c = sgetc(s);
        }
        if (c == EOF)
            break;
        if (closing) {
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return fail(s, "</%s> where %s%s%s was expected", name, depth ? "</" : "no end tag",
                            depth ? stack[depth - 1] : "", depth ? ">" : "");
            depth--;
        } else {
            if (depth == XML_DEPTH)
                return fail(s, "elements nested deeper than %d", XML_DEPTH);
            if (depth == 0 && seen_root)
                return fail(s, "a second root element <%s>", name);
            if (depth == 3)
                return fail(s, "an element <%s> inside <%s>", name, stack[2]);
            seen_root = 1;
            snprintf(stack[depth++], NAME_MAX_XML, "%s", name);
            if (depth == 2)
                memset(&row, 0, sizeof row);
            tlen = 0;
            if (!self)
                continue;
            depth--;
        }
        /* An element ended (or was empty): a field, or a whole player. */
        if (depth == 2 && strcmp(stack[1], "player") == 0) {
            text[tlen] = 0;
            for (size_t i = 0; i < sizeof XML_FIELDS / sizeof XML_FIELDS[0]; i++)
                if (strcmp(XML_FIELDS[i].name, name) == 0) {
                    int t = XML_FIELDS[i].type < 0 ? (type >= 0 ? type : FIDE_STANDARD)
                                                   : XML_FIELDS[i].type;
                    char label[48];
                    snprintf(label, sizeof label, "<%s>", name);
                    if ((rc = set_field(s, &row, XML_FIELDS[i].f, t, label, text)))
                        return rc;
                }
        } else if (depth == 1 && strcmp(name, "player") == 0) {
            if ((rc = finish_row(s, &row, types, fn, ctx, info)))
                return rc;
        }
        tlen = 0;
    }
    if (s->failed)
        return FIDE_READ_E_FILE;
    if (depth > 0)
        return fail(s, "the file ends inside <%s>", stack[depth - 1]);
    if (!seen_root)
        return fail(s, "no XML element in the file");
    return 0;
}

/* ---- TXT ---- */

typedef struct Column {
    Field f;
    int type;
    size_t start;
    char label[16];
} Column;

/* Reads one line without its end into LINE (LINE_MAX_TXT bytes); returns
 * its length, -1 at the end of the file, -2 when it is too long. */
static long read_line(Src *s, char *line)
{
    long n = 0;
    int c;
    while ((c = sgetc(s)) != EOF && c != '\n') {
        if (n + 1 >= LINE_MAX_TXT)
            return -2;
        line[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return -1;
    if (n && line[n - 1] == '\r')
        n--;
    line[n] = 0;
    return n;
}

static int month_date(const char *label, char *out, size_t n)
{
    static const char MONTHS[] = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
    if (strlen(label) != 5 || !isdigit((unsigned char)label[3]) ||
        !isdigit((unsigned char)label[4]))
        return 0;
    for (int m = 0; m < 12; m++)
        if (strncasecmp(label, MONTHS + 3 * m, 3) == 0) {
            int yy = (label[3] - '0') * 10 + (label[4] - '0');
            snprintf(out, n, "%04d-%02d-01", yy < 70 ? 2000 + yy : 1900 + yy, m + 1);
            return 1;
        }
    return 0;
}

static const struct {
    const char *label;
    Field f;
    int type; /* -1: the list's own type */
} TXT_LABELS[] = {
    {"ID", F_ID, 0},
    {"Name", F_NAME, 0},
    {"Fed", F_FED, 0},
    {"Sex", F_SEX, 0},
    {"Tit", F_TITLE, 0},
    {"Titl", F_TITLE, 0},
    {"WTit", F_WTITLE, 0},
    {"OTit", F_OTITLE, 0},
    {"FOA", F_FOA, 0},
    {"SRtng", F_RATING, FIDE_STANDARD},
    {"SGm", F_GAMES, FIDE_STANDARD},
    {"SK", F_K, FIDE_STANDARD},
    {"RRtng", F_RATING, FIDE_RAPID},
    {"RGm", F_GAMES, FIDE_RAPID},
    {"RK", F_K, FIDE_RAPID},
    {"BRtng", F_RATING, FIDE_BLITZ},
    {"BGm", F_GAMES, FIDE_BLITZ},
    {"BK", F_K, FIDE_BLITZ},
    {"Gms", F_GAMES, -1},
    {"Games", F_GAMES, -1},
    {"K", F_K, -1},
    {"B-day", F_BIRTH, 0},
    {"Bday", F_BIRTH, 0},
    {"Born", F_BIRTH, 0},
    {"Flag", F_FLAG, 0},
};

/* The columns of the header line; returns their number or a failure. */
static int txt_header(Src *s, const char *line, int type, Column *cols, int max, FideReadInfo *info)
{
    int nc = 0, has_id = 0, has_name = 0, typed = 0;
    for (size_t i = 0; line[i];) {
        if (line[i] == ' ' || line[i] == '\t') {
            i++;
            continue;
        }
        size_t start = i;
        char label[16];
        size_t k = 0;
        while (line[i] && line[i] != ' ' && line[i] != '\t') {
            if (k + 1 < sizeof label)
                label[k++] = line[i];
            i++;
        }
        label[k] = 0;
        if (nc > 0 && cols[nc - 1].f == F_ID && strcasecmp(label, "Number") == 0)
            continue; /* "ID Number" is one label */
        if (nc == max)
            return fail(s, "more than %d columns in the header line", max);
        Column *c = &cols[nc++];
        *c = (Column){F_OTHER, 0, start, ""};
        snprintf(c->label, sizeof c->label, "%s", label);
        for (size_t j = 0; j < sizeof TXT_LABELS / sizeof TXT_LABELS[0]; j++)
            if (strcasecmp(TXT_LABELS[j].label, label) == 0) {
                c->f = TXT_LABELS[j].f;
                c->type = TXT_LABELS[j].type;
            }
        if (c->f == F_OTHER && month_date(label, info->list_date, sizeof info->list_date)) {
            c->f = F_RATING;
            c->type = -1;
        }
        typed |= c->type < 0;
        if (c->type >= 0 && (c->f == F_RATING || c->f == F_GAMES || c->f == F_K))
            info->types |= 1u << c->type;
        has_id |= c->f == F_ID;
        has_name |= c->f == F_NAME;
    }
    if (!has_id || !has_name)
        return fail(s, "not a FIDE rating list: the first line has no 'ID Number' and 'Name' "
                       "columns");
    if (typed && type < 0)
        return fail(s, "cannot tell whether this is the standard, rapid or blitz list: name the "
                       "file as FIDE does (standard_..., rapid_..., blitz_...) or give the type");
    for (int j = 0; j < nc; j++)
        if (cols[j].type < 0) {
            cols[j].type = type;
            info->types |= 1u << type;
        }
    return nc;
}

/* Fills OFF[i] with the byte offset of character i of LINE (LEN bytes)
 * and returns the number of characters: columns count characters, which
 * are bytes in FIDE's single-byte lists but not in a list saved as UTF-8.
 * A line that is not valid UTF-8 counts bytes. */
static size_t char_offsets(const char *line, size_t len, size_t *off)
{
    size_t nc = 0;
    for (size_t i = 0; i < len; nc++) {
        unsigned char c = (unsigned char)line[i];
        size_t k = c < 0x80                ? 1
                   : c >= 0xC2 && c < 0xE0 ? 2
                   : c >= 0xE0 && c < 0xF0 ? 3
                   : c >= 0xF0 && c < 0xF5 ? 4
                                           : 0;
        for (size_t j = 1; k && j < k; j++)
            if (i + j >= len || ((unsigned char)line[i + j] & 0xC0) != 0x80)
                k = 0;
        if (!k) {
            for (size_t b = 0; b <= len; b++)
                off[b] = b;
            return len;
        }
        off[nc] = i;
        i += k;
    }
    off[nc] = len;
    return nc;
}

static int read_txt(Src *s, int type, FideRowFn fn, void *ctx, FideReadInfo *info)
{
    char line[LINE_MAX_TXT], field[LINE_MAX_TXT];
    size_t off[LINE_MAX_TXT + 1];
    Column cols[32];
    /* Messages name the line just read: AT, not the line counter. */
    long at = s->line;
    long len = read_line(s, line);
    s->line = at;
    if (len < 0)
        return fail(s, len == -1 ? "the file is empty" : "the header line is too long");
    int nc = txt_header(s, line, type, cols, 32, info);
    if (s->failed)
        return FIDE_READ_E_FILE;
    s->line = at + 1;
    FideRow row;
    int rc;
    for (at = s->line; (len = read_line(s, line)) != -1; at = s->line) {
        s->line = at;
        if (len == -2)
            return fail(s, "a line longer than %d bytes", LINE_MAX_TXT - 1);
        s->line = at + 1;
        if (is_blank(line))
            continue;
        memset(&row, 0, sizeof row);
        s->line = at;
        size_t chars = char_offsets(line, (size_t)len, off);
        for (int j = 0; j < nc; j++) {
            size_t a = cols[j].start, b = j + 1 < nc ? cols[j + 1].start : chars;
            if (a >= chars) {
                field[0] = 0;
            } else {
                if (b > chars)
                    b = chars;
                memcpy(field, line + off[a], off[b] - off[a]);
                field[off[b] - off[a]] = 0;
            }
            if (cols[j].f == F_ID && number(field, 0) <= 0)
                return fail(s, "the ID Number '%.20s' is not a number", field);
            if ((rc = set_field(s, &row, cols[j].f, cols[j].type, cols[j].label, field)))
                return rc;
        }
        if ((rc = finish_row(s, &row, info->types, fn, ctx, info)))
            return rc;
        s->line = at + 1;
    }
    return s->failed ? FIDE_READ_E_FILE : 0;
}

/* The rating type a FIDE file name announces, or -1. */
static int type_of_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    static const char *const PREFIX[FIDE_TYPES] = {"standard", "rapid", "blitz"};
    for (int t = 0; t < FIDE_TYPES; t++)
        if (strncasecmp(base, PREFIX[t], strlen(PREFIX[t])) == 0)
            return t;
    return -1;
}

int fide_read_file(const char *path, int type, FideRowFn fn, void *ctx, FideReadInfo *info,
                   char *err, size_t n)
{
    memset(info, 0, sizeof *info);
    Src *s = calloc(1, sizeof *s);
    if (!s)
        return -ENOMEM;
    s->err = err;
    s->errn = n;
    int rc = src_open(s, path);
    if (rc)
        goto done;
    if (type < 0)
        type = type_of_name(s->member[0] ? s->member : path);
    if (type < 0 && s->member[0])
        type = type_of_name(path);
    /* Skip a byte-order mark and blank space to see the format. */
    int c;
    do
        c = sgetc(s);
    while (c == 0xEF || c == 0xBB || c == 0xBF || (c != EOF && isspace(c)));
    if (c == EOF) {
        rc = s->failed ? FIDE_READ_E_FILE : fail(s, "the file is empty");
        goto done;
    }
    s->pos--;
    rc = c == '<' ? read_xml(s, type, fn, ctx, info) : read_txt(s, type, fn, ctx, info);
done:
    src_close(s);
    free(s);
    return rc;
}
