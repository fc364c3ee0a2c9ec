/*
 * jsonin.c — request body checks.  See jsonin.h.
 */
#include "jsonin.h"

#include <string.h>

#include "errors.h"

const JsonField jsonin_none[] = {{NULL, 0, 0, 0, 0, NULL, NULL}};

/* The offset of the first control character of S (C0, DEL, or C1 as UTF-8
 * U+0080..U+009F), or -1.  Every text field ends up in a fixed-column or
 * line-based format (TRF, PGN tags, CSV, logs): a CR, LF or ESC there would
 * start a record of its own. */
static long control_at(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return (long)(p - (const unsigned char *)s);
    return -1;
}

static const char *type_name(JsonFieldType t)
{
    switch (t) {
    case JF_INT: return "an integer";
    case JF_STR: return "a string";
    case JF_BOOL: return "true or false";
    case JF_OBJ: return "an object";
    case JF_ARR: return "an array";
    case JF_NUM: return "a number";
    }
    return "?";
}

static int type_ok(JsonFieldType t, json_t *v)
{
    switch (t) {
    case JF_INT: return json_is_integer(v);
    case JF_STR: return json_is_string(v);
    case JF_BOOL: return json_is_boolean(v);
    case JF_OBJ: return json_is_object(v);
    case JF_ARR: return json_is_array(v);
    case JF_NUM: return json_is_number(v);
    }
    return 0;
}

int jsonin_check(Req *r, json_t *obj, const JsonField *fields, const char *where)
{
    const char *key;
    json_t *v;
    const char *pre = where ? where : "";
    const char *dot = where ? "." : "";
    json_object_foreach(obj, key, v)
    {
        const JsonField *f = fields;
        while (f->name && strcmp(f->name, key) != 0)
            f++;
        if (!f->name) {
            http_error(r, API_E_UNKNOWN_FIELD, "unknown field '%s%s%s'", pre, dot, key);
            return -1;
        }
        if (!type_ok(f->type, v)) {
            http_error(r, API_E_WRONG_TYPE, "field '%s%s%s' must be %s", pre, dot, key,
                       type_name(f->type));
            return -1;
        }
        if (f->type == JF_INT && (f->min || f->max)) {
            json_int_t x = json_integer_value(v);
            if (x < f->min || x > f->max) {
                http_error(r, API_E_INVALID_VALUE, "field '%s%s%s' must be from %lld to %lld", pre,
                           dot, key, (long long)f->min, (long long)f->max);
                return -1;
            }
        }
        if (f->type == JF_STR) {
            size_t len = json_string_length(v);
            size_t max = f->max ? (size_t)f->max : 4096;
            if (len < (size_t)f->min || len > max) {
                http_error(r, API_E_INVALID_VALUE,
                           "field '%s%s%s' must have %lld to %zu characters", pre, dot, key,
                           (long long)f->min, max);
                return -1;
            }
            if (strlen(json_string_value(v)) != len) {
                http_error(r, API_E_INVALID_VALUE, "field '%s%s%s' contains a NUL character", pre,
                           dot, key);
                return -1;
            }
            long at = control_at(json_string_value(v));
            if (at >= 0) {
                http_error(r, API_E_INVALID_VALUE,
                           "field '%s%s%s' contains a control character "
                           "(byte %ld): names, places and notes are one line of text",
                           pre, dot, key, at + 1);
                return -1;
            }
            if (f->allowed) {
                int ok = 0;
                for (const char *const *a = f->allowed; *a; a++)
                    ok |= strcmp(*a, json_string_value(v)) == 0;
                if (!ok) {
                    char list[256] = "";
                    for (const char *const *a = f->allowed; *a; a++)
                        snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'",
                                 a == f->allowed ? "" : ", ", *a);
                    http_error(r, API_E_INVALID_VALUE, "field '%s%s%s' must be one of %s", pre, dot,
                               key, list);
                    return -1;
                }
            }
        }
    }
    for (const JsonField *f = fields; f->name; f++)
        if (f->required && !json_object_get(obj, f->name)) {
            http_error(r, API_E_MISSING_FIELD, "missing field '%s%s%s'", pre, dot, f->name);
            return -1;
        }
    return 0;
}

int64_t jsonin_int(json_t *obj, const char *name, int64_t dflt)
{
    json_t *v = json_object_get(obj, name);
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}

const char *jsonin_str(json_t *obj, const char *name, const char *dflt)
{
    json_t *v = json_object_get(obj, name);
    return json_is_string(v) ? json_string_value(v) : dflt;
}
