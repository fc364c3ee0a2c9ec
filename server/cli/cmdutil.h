/*
 * cmdutil.h — what the subcommands that read a TRF and print a report share:
 * the one FILE argument, loading the TRF with the command line's messages
 * and exit statuses, and JSON strings on standard output.
 *
 * Workload: once per command; output goes to stdout, messages to stderr.
 */
#ifndef ARBITER_SERVER_CMDUTIL_H
#define ARBITER_SERVER_CMDUTIL_H

#include "tournament.h"

/*
 * Takes the argument A of subcommand CMD that is not a known option: an
 * unknown option is refused, a first file name goes to *PATH, a second is
 * refused.  Returns 0, or the exit status 2 after a message on stderr.
 */
int cmdutil_file_arg(const char *cmd, const char *a, const char **path);

/*
 * Reads and checks the TRF at PATH for subcommand CMD (FLAGS as
 * trf_read()): 0 with *T (caller frees with tournament_free), else the exit
 * status after a message on stderr: 3 invalid file (FILE:LINE:COLUMN:
 * why), 1 I/O or memory.
 */
int cmdutil_trf_load(const char *cmd, const char *path, int flags, Tournament **t);

/* Prints S to stdout as a JSON string (quotes, escapes). */
void cmdutil_json_string(const char *s);

#endif
