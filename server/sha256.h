/*
 * sha256.h — SHA-256 of a buffer as lowercase hex (sha256.c).  Used by the
 * sign-in code (secrets are looked up by hash) and by the page policy
 * (inline scripts are allowed by hash); neither depends on the other.
 */
#ifndef ARBITER_SERVER_SHA256_H
#define ARBITER_SERVER_SHA256_H

#include <stddef.h>

/* Hex SHA-256 of LEN bytes at DATA into OUT[65] (NUL-terminated). */
void sha256_hex(const void *data, size_t len, char out[65]);
/* Binary SHA-256 of LEN bytes at DATA into OUT. */
void sha256_bin(const void *data, size_t len, unsigned char out[32]);
/* Hex HMAC-SHA-256 (RFC 2104) of LEN bytes at DATA (at most 256: short
 * secrets only) with KEY, into OUT[65]. */
void sha256_hmac_hex(const unsigned char *key, size_t keylen, const void *data, size_t len,
                     char out[65]);

#endif
