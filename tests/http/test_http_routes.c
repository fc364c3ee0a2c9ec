/*
 * test_http_routes.c — the OpenAPI document (server/openapi.json, the very
 * bytes the daemon serves) against the daemon's route table (routes.h),
 * both ways: the same methods and paths; each operation's x-role is the
 * route's role; an operation has a request body exactly when the route
 * reads one, and the body's schema (after $ref) has the route's fields
 * with their JSON types, the same required ones and the same limits
 * (minimum / maximum of integers, minLength / maxLength of strings, the
 * enum of strings with fixed values), objects closed with
 * additionalProperties: false, nested objects and arrays of objects
 * compared field by field where the table describes them.
 * Every difference is listed before the test fails.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "routes.h"

extern const unsigned char openapi_json[];
extern const size_t openapi_json_len;

static json_t *doc;
static char diffs[16384];
static size_t ndiff;

static void differ(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void differ(const char *fmt, ...)
{
    size_t len = strlen(diffs);
    va_list ap;
    va_start(ap, fmt);
    if (len + 2 < sizeof diffs) {
        vsnprintf(diffs + len, sizeof diffs - len - 1, fmt, ap);
        strcat(diffs, "\n");
    }
    va_end(ap);
    ndiff++;
}

/* S with every "$ref": "#/a/b" replaced by what it names. */
static json_t *resolve(json_t *s)
{
    for (int depth = 0; s && depth < 8; depth++) {
        const char *ref = json_string_value(json_object_get(s, "$ref"));
        if (!ref)
            return s;
        ck_assert_msg(strncmp(ref, "#/", 2) == 0, "a $ref outside the document: %s", ref);
        char path[256];
        snprintf(path, sizeof path, "%s", ref + 2);
        json_t *x = doc;
        for (char *save = NULL, *p = strtok_r(path, "/", &save); p && x;
             p = strtok_r(NULL, "/", &save))
            x = json_object_get(x, p);
        ck_assert_msg(x != NULL, "a $ref to nothing: %s", ref);
        s = x;
    }
    return s;
}

static const char *str(json_t *v)
{
    const char *s = json_string_value(v);
    return s ? s : "";
}

static const char *type_name(JsonFieldType t)
{
    switch (t) {
    case JF_INT: return "integer";
    case JF_STR: return "string";
    case JF_BOOL: return "boolean";
    case JF_OBJ: return "object";
    case JF_ARR: return "array";
    case JF_NUM: return "number";
    }
    return "?";
}

static const char *role_name(RouteRole r)
{
    return r == ROUTE_ARBITER   ? "arbiter"
           : r == ROUTE_CHIEF   ? "chief"
           : r == ROUTE_PLAYER  ? "player"
           : r == ROUTE_CAPTAIN ? "captain"
                                : "public";
}

/* KEY of S is the integer WANT, or absent when !PRESENT. */
static void same_int(const char *where, json_t *s, const char *key, int present, int64_t want)
{
    json_t *v = json_object_get(s, key);
    if (!present && v)
        differ("%s: %s %lld in the document, none in the table", where, key,
               (long long)json_integer_value(v));
    else if (present && (!json_is_integer(v) || json_integer_value(v) != want))
        differ("%s: %s %s in the document, %lld in the table", where, key,
               v ? (json_is_integer(v) ? "other" : "not an integer") : "absent", (long long)want);
}

static void same_object(const char *where, json_t *schema, const JsonField *fields);

static void same_field(const char *where, json_t *prop, const JsonField *f)
{
    prop = resolve(prop);
    const char *t = json_string_value(json_object_get(prop, "type"));
    if (!t || strcmp(t, type_name(f->type)))
        differ("%s: type %s in the document, %s in the table", where, t ? t : "(none)",
               type_name(f->type));
    switch (f->type) {
    case JF_INT:
        same_int(where, prop, "minimum", f->min || f->max, f->min);
        same_int(where, prop, "maximum", f->min || f->max, f->max);
        break;
    case JF_STR:
        if (f->allowed) {
            json_t *e = json_object_get(prop, "enum");
            size_t n = 0;
            for (const char *const *a = f->allowed; *a; a++, n++)
                if (!json_string_value(json_array_get(e, n)) ||
                    strcmp(json_string_value(json_array_get(e, n)), *a))
                    differ("%s: enum[%zu] is not \"%s\"", where, n, *a);
            if (json_array_size(e) != n)
                differ("%s: enum has %zu values, the table %zu", where, json_array_size(e), n);
        } else {
            same_int(where, prop, "minLength", f->min > 0, f->min);
            same_int(where, prop, "maxLength", 1, f->max ? f->max : 4096);
        }
        break;
    case JF_OBJ:
        if (f->sub)
            same_object(where, prop, f->sub);
        break;
    case JF_ARR:
        if (f->sub) {
            char w[256];
            snprintf(w, sizeof w, "%.200s[]", where);
            same_object(w, json_object_get(prop, "items"), f->sub);
        }
        break;
    default: break;
    }
}

static void same_object(const char *where, json_t *schema, const JsonField *fields)
{
    schema = resolve(schema);
    if (!schema) {
        differ("%s: no schema", where);
        return;
    }
    if (strcmp(str(json_object_get(schema, "type")), "object"))
        differ("%s: not an object schema", where);
    if (!json_is_false(json_object_get(schema, "additionalProperties")))
        differ("%s: additionalProperties is not false (unknown fields are refused)", where);
    json_t *props = json_object_get(schema, "properties");
    json_t *req = json_object_get(schema, "required");
    const char *name;
    json_t *v;
    json_object_foreach(props, name, v)
    {
        const JsonField *f = fields;
        while (f->name && strcmp(f->name, name))
            f++;
        if (!f->name)
            differ("%s.%s: documented, not accepted", where, name);
    }
    size_t nreq = 0;
    for (const JsonField *f = fields; f->name; f++) {
        char w[256];
        snprintf(w, sizeof w, "%.180s.%.60s", where, f->name);
        json_t *prop = json_object_get(props, f->name);
        if (!prop) {
            differ("%s: accepted, not documented", w);
            continue;
        }
        int documented_required = 0;
        size_t i;
        json_array_foreach(req, i, v) documented_required |= !strcmp(str(v), f->name);
        if (documented_required != !!f->required)
            differ("%s: %srequired in the document, %srequired in the table", w,
                   documented_required ? "" : "not ", f->required ? "" : "not ");
        nreq += !!f->required;
        same_field(w, prop, f);
    }
    if (json_array_size(req) != nreq)
        differ("%s: %zu required fields in the document, %zu in the table", where,
               json_array_size(req), nreq);
}

/* Check's messages are short: the whole list goes to stderr, the start of
 * it into the failure. */
static void report(void)
{
    if (ndiff)
        fprintf(stderr, "%zu differences:\n%s", ndiff, diffs);
    ck_assert_msg(ndiff == 0, "%zu differences, first: %.1500s", ndiff, diffs);
}

static void lower(const char *m, char *out, size_t n)
{
    size_t i = 0;
    for (; m[i] && i + 1 < n; i++)
        out[i] = (char)(m[i] >= 'A' && m[i] <= 'Z' ? m[i] + 32 : m[i]);
    out[i] = 0;
}

static void setup(void)
{
    json_error_t e;
    doc = json_loadb((const char *)openapi_json, openapi_json_len, 0, &e);
    ck_assert_msg(doc != NULL, "openapi.json: %s (line %d)", e.text, e.line);
    diffs[0] = 0;
    ndiff = 0;
}

static void teardown(void)
{
    json_decref(doc);
}

START_TEST(paths_and_methods_both_ways)
{
    json_t *paths = json_object_get(doc, "paths");
    const char *p;
    json_t *item;
    int documented = 0;
    json_object_foreach(paths, p, item)
    {
        const char *m;
        json_t *op;
        json_object_foreach(item, m, op)
        {
            documented++;
            int found = 0;
            for (int i = 0; i < routes_count; i++) {
                char lm[8];
                lower(routes_table[i].method_name, lm, sizeof lm);
                found |= !strcmp(routes_table[i].pattern, p) && !strcmp(lm, m);
            }
            if (!found)
                differ("%s %s: documented but not routed", m, p);
        }
    }
    for (int i = 0; i < routes_count; i++) {
        char lm[8];
        lower(routes_table[i].method_name, lm, sizeof lm);
        if (!json_object_get(json_object_get(paths, routes_table[i].pattern), lm))
            differ("%s %s: routed but not documented", routes_table[i].method_name,
                   routes_table[i].pattern);
    }
    report();
    ck_assert_int_eq(documented, routes_count);
}
END_TEST

START_TEST(roles_and_bodies)
{
    json_t *paths = json_object_get(doc, "paths");
    for (int i = 0; i < routes_count; i++) {
        const Route *rt = &routes_table[i];
        char lm[8], where[160];
        lower(rt->method_name, lm, sizeof lm);
        snprintf(where, sizeof where, "%s %s", rt->method_name, rt->pattern);
        json_t *op = json_object_get(json_object_get(paths, rt->pattern), lm);
        if (!op)
            continue; /* the other test names it */
        const char *xrole = json_string_value(json_object_get(op, "x-role"));
        if (!xrole || strcmp(xrole, role_name(rt->role)))
            differ("%s: x-role %s in the document, %s in the table", where,
                   xrole ? xrole : "(none)", role_name(rt->role));
        json_t *body = json_object_get(op, "requestBody");
        if (!rt->body) {
            if (body)
                differ("%s: the document has a body, the route reads none", where);
            continue;
        }
        if (!body) {
            differ("%s: the route reads a body, the document has none", where);
            continue;
        }
        json_t *schema = json_object_get(
            json_object_get(json_object_get(body, "content"), "application/json"), "schema");
        same_object(where, schema, rt->body);
    }
    report();
}
END_TEST

/* The comparison itself notices a difference (so a passing run means
 * something): a table that requires a field the document does not. */
START_TEST(a_difference_is_seen)
{
    static const JsonField wrong[] = {
        {"ply", JF_INT, 1, 0, 7, NULL, NULL},
        {"extra", JF_BOOL, 0, 0, 0, NULL, NULL},
        {NULL, 0, 0, 0, 0, NULL, NULL},
    };
    json_t *op = json_object_get(
        json_object_get(json_object_get(doc, "paths"), "/games/{gid}/checkin"), "post");
    ck_assert_ptr_nonnull(op);
    same_object("checkin",
                json_object_get(
                    json_object_get(json_object_get(json_object_get(op, "requestBody"), "content"),
                                    "application/json"),
                    "schema"),
                wrong);
    ck_assert_msg(ndiff >= 4, "%zu differences:\n%s", ndiff, diffs);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-routes");
    TCase *tc = tcase_create("routes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, paths_and_methods_both_ways);
    tcase_add_test(tc, roles_and_bodies);
    tcase_add_test(tc, a_difference_is_seen);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
