/*
 * error.c — filling a message buffer and returning the code.  See error.h.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int error_set(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}
