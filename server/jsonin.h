/*
 * jsonin.h — checking a request body against the fields a route accepts:
 * unknown fields, wrong types, missing fields and out-of-range values are
 * each refused with a message naming the field.
 */
#ifndef ARBITER_SERVER_JSONIN_H
#define ARBITER_SERVER_JSONIN_H

#include <jansson.h>
#include <stdint.h>

#include "http.h"

typedef enum { JF_INT = 1, JF_STR, JF_BOOL, JF_OBJ, JF_ARR, JF_NUM } JsonFieldType;

typedef struct JsonField {
    const char *name;
    JsonFieldType type;
    int required;
    int64_t min, max;           /* JF_INT: value range; JF_STR: length range (max 0 = 4096) */
    const char *const *allowed; /* JF_STR: NULL-terminated list of the allowed values */
    /* JF_OBJ, or JF_ARR of objects: their fields (what the route checks
     * in them); NULL when the route does not describe them. */
    const struct JsonField *sub;
} JsonField;

/* The fields of a body that must be empty: nothing but {} is accepted. */
extern const JsonField jsonin_none[];

/* Checks OBJ against FIELDS (terminated by a {NULL}); on a problem answers
 * 400 with the right code and returns -1. */
int jsonin_check(Req *r, json_t *obj, const JsonField *fields, const char *where);

/* Accessors for checked objects (defaults when absent). */
int64_t jsonin_int(json_t *obj, const char *name, int64_t dflt);
const char *jsonin_str(json_t *obj, const char *name, const char *dflt);

#endif
