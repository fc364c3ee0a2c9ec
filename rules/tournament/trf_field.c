/*
 * trf_field.c — TRF column and point fields (see trf_field.h).  Pure, no
 * state; a handful of byte tests and one snprintf.
 */
#include "trf_field.h"

#include <stdio.h>

int trf_field_char_len(const unsigned char *s, size_t n)
{
    int k;
    if (s[0] < 0x80)
        return 1;
    else if ((s[0] & 0xE0) == 0xC0 && s[0] >= 0xC2)
        k = 2;
    else if ((s[0] & 0xF0) == 0xE0)
        k = 3;
    else if ((s[0] & 0xF8) == 0xF0 && s[0] <= 0xF4)
        k = 4;
    else
        return 1;
    if ((size_t)k > n)
        return 1;
    for (int i = 1; i < k; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 1;
    return k;
}

void trf_field_format_points(TrnPoints p, char *buf)
{
    const char *sign = p < 0 ? "-" : "";
    long a = p < 0 ? -(long)p : p;
    snprintf(buf, 16, "%s%ld.%ld", sign, a / TRN_POINT, a % TRN_POINT);
}
