/*
 * startrank.c — the C.04.2 initial order (see startrank.h).
 */
#include "startrank.h"

#include "collate.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* C.04.2 Art. 2.2: the order of titles. */
static const char *const TITLES[] = {"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"};
enum { N_TITLES = sizeof TITLES / sizeof TITLES[0] };

int startrank_title_order(const char *title)
{
    if (!title)
        return N_TITLES;
    /* Registration forms write "GM " or " IM"; blanks are not part of it. */
    while (*title == ' ')
        title++;
    size_t len = strlen(title);
    while (len && title[len - 1] == ' ')
        len--;
    for (int i = 0; i < N_TITLES; i++)
        if (strlen(TITLES[i]) == len && strncasecmp(TITLES[i], title, len) == 0)
            return i;
    return N_TITLES;
}

/* The rating the order uses: the rating, else the arbiter's estimate. */
static int order_rating(const StartEntry *e)
{
    return e->rating > 0 ? e->rating : e->estimate > 0 ? e->estimate : 0;
}

int startrank_compare(const StartEntry *a, const StartEntry *b)
{
    int ra = order_rating(a), rb = order_rating(b);
    if (ra != rb)
        return ra > rb ? -1 : 1;
    int ta = startrank_title_order(a->title), tb = startrank_title_order(b->title);
    if (ta != tb)
        return ta < tb ? -1 : 1;
    int c = collate_names_cmp(a->name, b->name);
    if (c)
        return c < 0 ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

static int entry_cmp(const void *pa, const void *pb)
{
    const StartEntry *a = pa, *b = pb;
    if ((a->frozen > 0) != (b->frozen > 0))
        return a->frozen > 0 ? -1 : 1;
    if (a->frozen > 0) {
        if (a->frozen != b->frozen)
            return a->frozen < b->frozen ? -1 : 1;
        return a->key < b->key ? -1 : a->key > b->key;
    }
    return startrank_compare(a, b);
}

void startrank_assign(StartEntry *e, int n)
{
    if (n <= 0)
        return;
    qsort(e, (size_t)n, sizeof *e, entry_cmp);
    for (int i = 0; i < n; i++)
        e[i].rank = i + 1;
}
