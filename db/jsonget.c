/*
 * jsonget.c — one field of a JSON object, NULL or 0 when absent.  See
 * jsonget.h.
 */
#include "jsonget.h"

const char *jsonget_str(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

int64_t jsonget_int(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

bool jsonget_has_int(json_t *o, const char *k)
{
    return json_is_integer(json_object_get(o, k));
}
