/*
 * fileio.h — the one whole-file reader of the server and its command line
 * (TRF files, scoresheets, anything read in one piece).
 *
 * Invariants: the text handed back is always NUL-terminated one byte past
 * its length, so it may be read as a string when it holds no NUL.
 * Workload: files of a few kilobytes to a few megabytes, read once.
 */
#ifndef ARBITER_SERVER_FILEIO_H
#define ARBITER_SERVER_FILEIO_H

#include <stddef.h>

/* The largest file file_read_all() reads (a TRF of a large open is ~1 MB). */
#define FILE_READ_MAX ((size_t)64 << 20)

/*
 * Reads the whole file PATH.  Returns a malloc'd buffer of *len bytes plus
 * a NUL that the caller frees, or NULL with a sentence in ERR ("PATH: why")
 * when the file cannot be opened or read, is larger than FILE_READ_MAX, or
 * memory runs out.  *len is left alone on failure.
 */
char *file_read_all(const char *path, size_t *len, char *err, size_t errlen);

#endif
