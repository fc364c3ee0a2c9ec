/*
 * cmd_standings.c — `arbiter standings FILE.trf`: reads a TRF and prints the
 * standings with the FIDE tie-breaks (C.07), ties broken in the order
 * given; and `arbiter trf FILE`: reads a TRF and writes it again (TRF16 or
 * TRF-2026), e.g. to convert between the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdutil.h"
#include "commands.h"
#include "tiebreak.h"
#include "trf.h"

/* Formats a tie-break value (hundredths) the way arbiters write it. */
static void format_value(TbCode code, int64_t v, bool valid, char *buf, size_t len)
{
    if (!valid) {
        snprintf(buf, len, "-");
        return;
    }
    const char *sign = v < 0 ? "-" : "";
    long long a = v < 0 ? -(long long)v : (long long)v;
    switch (code) {
    case TB_WIN:
    case TB_WON:
    case TB_BPG:
    case TB_BWG:
    case TB_REP:
    case TB_ARO:
    case TB_TPR:
    case TB_PTP:
    case TB_APRO:
    case TB_APPO:
    case TB_TPN:
    case TB_RTNG: snprintf(buf, len, "%s%lld", sign, a / TB_SCALE); break;
    case TB_SB:
    case TB_AOB: snprintf(buf, len, "%s%lld.%02lld", sign, a / TB_SCALE, a % TB_SCALE); break;
    default:
        if (a % 10 == 0)
            snprintf(buf, len, "%s%lld.%lld", sign, a / TB_SCALE, (a % TB_SCALE) / 10);
        else
            snprintf(buf, len, "%s%lld.%02lld", sign, a / TB_SCALE, a % TB_SCALE);
    }
}

static void csv_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

/* Display width of a UTF-8 string (continuation bytes do not count). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void print_standings(const Tournament *t, const Standings *st, const char *format,
                            TbEdition edition)
{
    char names[TB_MAX_SPECS][32], v[32];
    for (int k = 0; k < st->n_specs; k++)
        tiebreak_spec_name(&st->specs[k], names[k], sizeof names[k]);
    if (strcmp(format, "json") == 0) {
        printf("{\"tournament\":");
        cmdutil_json_string(t->name);
        printf(",\"rounds\":%d,\"edition\":%d,\"tiebreaks\":[", st->rounds, (int)edition);
        for (int k = 0; k < st->n_specs; k++) {
            printf(k ? "," : "");
            cmdutil_json_string(names[k]);
        }
        printf("],\"standings\":[");
        for (int a = 0; a < st->n_rows; a++) {
            const TbRow *r = &st->rows[a];
            const TrnPlayer *p = tournament_player(t, r->player);
            printf("%s{\"rank\":%d,\"start_rank\":%d,\"name\":", a ? "," : "", r->rank, p->id);
            cmdutil_json_string(p->name);
            printf(",\"rating\":%d,\"values\":[", p->rating);
            for (int k = 0; k < st->n_specs; k++) {
                format_value(st->specs[k].code, r->value[k], r->valid[k], v, sizeof v);
                printf(k ? "," : "");
                if (r->valid[k])
                    printf("%s", v);
                else
                    printf("null");
            }
            printf("]}");
        }
        printf("]}\n");
        return;
    }
    if (strcmp(format, "csv") == 0) {
        printf("rank,start_rank,name,rating");
        for (int k = 0; k < st->n_specs; k++)
            printf(",%s", names[k]);
        printf("\n");
        for (int a = 0; a < st->n_rows; a++) {
            const TbRow *r = &st->rows[a];
            const TrnPlayer *p = tournament_player(t, r->player);
            printf("%d,%d,", r->rank, p->id);
            csv_string(p->name);
            printf(",%d", p->rating);
            for (int k = 0; k < st->n_specs; k++) {
                format_value(st->specs[k].code, r->value[k], r->valid[k], v, sizeof v);
                printf(",%s", v);
            }
            printf("\n");
        }
        return;
    }
    int nw = 4;
    for (int a = 0; a < st->n_rows; a++) {
        int w = width(tournament_player(t, st->rows[a].player)->name);
        nw = w > nw ? w : nw;
    }
    printf("%4s %4s  %-*s %6s", "Rank", "SNo", nw, "Name", "Rtg");
    for (int k = 0; k < st->n_specs; k++)
        printf(" %7s", names[k]);
    printf("\n");
    for (int a = 0; a < st->n_rows; a++) {
        const TbRow *r = &st->rows[a];
        const TrnPlayer *p = tournament_player(t, r->player);
        bool shared = (a > 0 && st->rows[a - 1].rank == r->rank);
        char rk[16] = "";
        if (!shared)
            snprintf(rk, sizeof rk, "%d", r->rank);
        printf("%4s %4d  %s%*s %6d", rk, p->id, p->name, nw - width(p->name), "", p->rating);
        for (int k = 0; k < st->n_specs; k++) {
            format_value(st->specs[k].code, r->value[k], r->valid[k], v, sizeof v);
            printf(" %7s", v);
        }
        printf("\n");
    }
}

/* The edition in force on the start date (tiebreak_edition_for_date). */
static int edition_for_date(const char *d)
{
    return (int)tiebreak_edition_for_date(d);
}

static int run_standings(int argc, char **argv)
{
    const char *path = NULL, *tbs = NULL, *format = "text";
    int edition = 0, rounds = 0, unrated = 0, rr = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if ((strcmp(a, "--tiebreaks") == 0 || strcmp(a, "-t") == 0) && val) {
            tbs = val;
            i++;
        } else if (strcmp(a, "--edition") == 0 && val) {
            edition = atoi(val);
            i++;
            if (edition != 2009 && edition != 2023 && edition != 2024 && edition != 2026) {
                fprintf(stderr, "arbiter standings: --edition is 2009, 2023 or 2026\n");
                return 2;
            }
            if (edition == 2024)
                edition = 2023;
        } else if (strcmp(a, "--format") == 0 && val) {
            format = val;
            i++;
            if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "json")) {
                fprintf(stderr, "arbiter standings: --format is text, csv or json\n");
                return 2;
            }
        } else if (strcmp(a, "--rounds") == 0 && val) {
            char *end;
            rounds = (int)strtol(val, &end, 10);
            i++;
            if (*end || rounds < 1 || rounds > TRN_MAX_ROUNDS) {
                fprintf(stderr, "arbiter standings: --rounds is a number from 1 to %d\n",
                        TRN_MAX_ROUNDS);
                return 2;
            }
        } else if (strcmp(a, "--unrated") == 0 && val) {
            unrated = atoi(val);
            i++;
        } else if (strcmp(a, "--round-robin") == 0) {
            rr = 1;
        } else if (strcmp(a, "--swiss") == 0) {
            rr = 0;
        } else if (cmdutil_file_arg("standings", a, &path)) {
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: arbiter standings FILE.trf [--tiebreaks LIST] "
                        "[--edition 2009|2023|2026] [--format text|csv|json]\n");
        return 2;
    }
    Tournament *t;
    int rc = cmdutil_trf_load("standings", path, 0, &t);
    if (rc)
        return rc;
    TbSpec specs[TB_MAX_SPECS];
    int n = 0;
    char err[200];
    if (tbs) {
        if (tiebreak_parse(tbs, specs, TB_MAX_SPECS - 1, &n, err, sizeof err)) {
            fprintf(stderr, "arbiter standings: %s\n", err);
            tournament_free(t);
            return 2;
        }
    } else {
        /* 212 is the standings order, 202 the tie-breaks after points.  A
         * file may name team tie-breaks: those are left out, with a word. */
        const char *list = t->standings[0] ? t->standings : t->tiebreaks;
        char buf[TRN_TEXT_MAX], *save = NULL;
        snprintf(buf, sizeof buf, "%s", list[0] ? list : "BH/C1,BH,SB,DE");
        for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            int got;
            if (n >= TB_MAX_SPECS - 1 ||
                tiebreak_parse(item, specs + n, TB_MAX_SPECS - 1 - n, &got, err, sizeof err)) {
                fprintf(stderr, "arbiter standings: %s: leaving out tie-break '%s' (%s)\n", path,
                        item, n >= TB_MAX_SPECS - 1 ? "too many" : err);
                continue;
            }
            n += got;
        }
    }
    if (!edition)
        edition = edition_for_date(t->start_date);
    if (rr < 0)
        rr = strstr(t->system, "ROUNDROBIN") != NULL || strstr(t->system, "BERGER") != NULL;
    TbOptions opt = {.edition = (TbEdition)edition,
                     .rounds = rounds,
                     .round_robin = rr,
                     .unrated_rating = unrated};
    Standings *st;
    rc = tiebreak_standings(t, specs, n, &opt, &st);
    if (rc) {
        fprintf(stderr, "arbiter standings: %s\n",
                rc < 0 ? "out of memory" : "too many tie-breaks");
        tournament_free(t);
        return rc < 0 ? 1 : 2;
    }
    print_standings(t, st, format, (TbEdition)edition);
    tiebreak_standings_free(st);
    tournament_free(t);
    return 0;
}

const Command cmd_standings = {
    .name = "standings",
    .summary = "standings of a TRF with FIDE tie-breaks",
    .help = "usage: arbiter standings FILE.trf [--tiebreaks LIST] [--edition 2009|2023|2026]\n"
            "                         [--format text|csv|json] [--rounds N] [--unrated R]\n"
            "                         [--round-robin|--swiss]\n\n"
            "Prints the standings of the tournament in FILE (a TRF16 or TRF-2026 file):\n"
            "rank, start rank, name, rating, points and each tie-break, ties broken in\n"
            "the order given (FIDE Handbook C.07).\n\n"
            "  --tiebreaks LIST  e.g. BH/C1,BH,SB,DE or BH-C1,BH,SB,DE; codes PTS DE WIN WON\n"
            "                    BPG BWG PS REP BH FB AOB SB KS ARO TPR PTP APRO APPO STD\n"
            "                    TPN RTNG, modifiers /C1 /C2 /M1 /M2 (cut, median), KS/L+1\n"
            "                    (limit in half points), /P (forfeits as played), /F\n"
            "                    (BH/F = FB; AOB/F averages the opponents' FB).\n"
            "                    Default: the file's 212 line, else its 202 line, else\n"
            "                    BH/C1,BH,SB,DE.\n"
            "  --edition YEAR    unplayed-round rules: 2009 (virtual opponent), 2023\n"
            "                    (C.07 2023/2024), 2026 (capped dummy).  Default: 2026 for\n"
            "                    events starting from 2026/03/01 (line 042) or without a\n"
            "                    readable date, else 2023.\n"
            "  --rounds N        standings after round N.\n"
            "  --unrated R       rating for unrated opponents in ARO/TPR/PTP (else those\n"
            "                    tie-breaks are '-' when anyone is unrated).\n"
            "  --round-robin     forfeits count as games (default from line 192).\n\n"
            "Exit status: 0 ok, 2 bad arguments, 3 invalid file (the message gives\n"
            "FILE:LINE:COLUMN and what is wrong), 1 cannot read the file.\n",
    .run = run_standings,
};

static int run_trf(int argc, char **argv)
{
    const char *path = NULL;
    int flavour = 26, lenient = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--flavour") == 0 && i + 1 < argc) {
            flavour = atoi(argv[++i]);
            if (flavour != 16 && flavour != 26) {
                fprintf(stderr, "arbiter trf: --flavour is 16 or 26\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--no-points-check") == 0) {
            lenient = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "arbiter trf: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "arbiter trf: one file only\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: arbiter trf FILE [--flavour 16|26] [--no-points-check]\n");
        return 2;
    }
    Tournament *t;
    int rc = cmdutil_trf_load("trf", path, lenient ? TRF_READ_NO_POINTS_CHECK : 0, &t);
    if (rc)
        return rc;
    size_t len;
    char *out = trf_write(t, (TrfFlavour)flavour, &len);
    tournament_free(t);
    if (!out) {
        fprintf(stderr, "arbiter trf: out of memory\n");
        return 1;
    }
    rc = fwrite(out, 1, len, stdout) == len ? 0 : 1;
    free(out);
    return rc;
}

const Command cmd_trf = {
    .name = "trf",
    .summary = "read a TRF and write it again (TRF16 or TRF-2026)",
    .help = "usage: arbiter trf FILE [--flavour 16|26] [--no-points-check]\n\n"
            "Reads FILE (TRF16 or TRF-2026, JaVaFo XX and bbpPairings BB lines; CR, LF or\n"
            "CRLF line ends), checks it, and writes it to standard output with CR line\n"
            "ends in the chosen flavour: 16 (TRF16 with XXR/XXC/XXS/XXA/XXP/XXZ) or 26\n"
            "(TRF-2026 codes 142/152/162/192/202/240/250/260; the default).  TRF16 has no\n"
            "lines 142-222: rounds, colour and points go to XXR/XXC/XXS, acceleration to\n"
            "XXA; system, tie-break and time control codes are left out.\n"
            "--no-points-check accepts points (columns 81-84) that differ from the results.\n"
            "Exit status: 0 ok, 2 bad arguments, 3 invalid file (FILE:LINE:COLUMN: why).\n",
    .run = run_trf,
};
