/*
 * test_sse.c — the live hub's bookkeeping without a network: who listens,
 * and how long a topic stays in memory.  A finished game's topic must go
 * with its last viewer, however many games a long event plays, and topics
 * coming and going while the writer publishes and the keepalive runs must
 * never be used after they are freed (the sanitizer build runs this too).
 * The delay line holds each message until it falls due, keeps a group's
 * order, and frees what it still holds when the hub goes.
 * Streams here are attached but never handed to a connection, so nothing is
 * sent; sending is covered by the http tests.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "sse.h"
#include "store.h"
#include "testutil.h"

/* Waits (at most 10 s) for the waker thread to let go of the topics its
 * pending wake-ups hold; returns the topics left. */
static int settled(Hub *h)
{
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 10000 && sse_topics(h) > 0; i++)
        nanosleep(&ms, NULL);
    return sse_topics(h);
}

START_TEST(topic_lives_while_watched)
{
    Hub *h = sse_new();
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(sse_listened(h, "g:1"), 0);
    /* Asking and publishing to nobody creates nothing. */
    sse_publish(h, "g:1", 5, "game", "{}");
    ck_assert_int_eq(sse_topics(h), 0);

    Stream *a = sse_attach(h, "g:1"), *b = sse_attach(h, "g:1");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(sse_topics(h), 1);
    ck_assert_int_eq(sse_count(h), 2);
    ck_assert_int_eq(sse_listened(h, "g:1"), 1);
    ck_assert_int_eq(sse_listened(h, "g:2"), 0);
    sse_publish(h, "g:1", 6, "game", "{\"ply\":1}");
    sse_keepalive(h);

    sse_detach(a);
    ck_assert_int_eq(sse_listened(h, "g:1"), 1);
    ck_assert_int_eq(sse_topics(h), 1);
    sse_detach(b);
    ck_assert_int_eq(sse_count(h), 0);
    ck_assert_int_eq(sse_listened(h, "g:1"), 0);
    /* The publish above may still hold the topic for its wake-up. */
    ck_assert_int_eq(settled(h), 0);
    sse_free(h);
}
END_TEST

/* An Olympiad plays thousands of games; each was watched for a while. */
START_TEST(finished_games_leave_nothing)
{
    Hub *h = sse_new();
    char name[32];
    for (int g = 1; g <= 5000; g++) {
        snprintf(name, sizeof name, "g:%d", g);
        Stream *s = sse_attach(h, name);
        ck_assert_ptr_nonnull(s);
        sse_publish(h, name, g, "game", "{\"result\":\"1-0\"}");
        sse_detach(s);
    }
    ck_assert_int_eq(settled(h), 0);
    ck_assert_int_eq(sse_count(h), 0);
    sse_free(h);
}
END_TEST

START_TEST(delay_line_releases_when_due)
{
    Hub *h = sse_new();
    int64_t now = store_now_ms();
    Stream *s = sse_attach(h, SSE_DELAYED "g:1");
    /* Out of order across groups; within group 1 the second waits for the
     * first. */
    ck_assert_int_eq(sse_publish_later(h, SSE_DELAYED "g:1", NULL, 1, 1, "game", "{}", now + 300),
                     0);
    ck_assert_int_eq(sse_publish_later(h, SSE_DELAYED "g:2", NULL, 2, 2, "game", "{}", now + 100),
                     0);
    ck_assert_int_eq(
        sse_publish_later(h, SSE_DELAYED "g:1", SSE_DELAYED "t:1", 1, 3, "game", "{}", now + 50),
        0);
    ck_assert_int_eq(sse_later_count(h), 3);
    struct timespec ms = {0, 1000000};
    while (sse_later_count(h) == 3 && store_now_ms() < now + 5000)
        nanosleep(&ms, NULL);
    /* The first to go is group 2's (due at 100 ms); group 1's second
     * message waited for its first (300 ms). */
    ck_assert_int_ge(store_now_ms() - now, 90);
    ck_assert_int_eq(sse_later_count(h), 2);
    while (sse_later_count(h) > 0 && store_now_ms() < now + 5000)
        nanosleep(&ms, NULL);
    ck_assert_int_ge(store_now_ms() - now, 290);
    ck_assert_int_eq(sse_later_count(h), 0);
    sse_detach(s);
    /* What is still waiting goes with the hub. */
    ck_assert_int_eq(
        sse_publish_later(h, SSE_DELAYED "g:1", NULL, 1, 4, "game", "{}", store_now_ms() + 60000),
        0);
    sse_free(h);
}
END_TEST

typedef struct {
    Hub *h;
    int role, rounds;
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    char name[32];
    for (int i = 0; i < w->rounds; i++) {
        snprintf(name, sizeof name, "g:%d", i % 7);
        switch (w->role) {
        case 0: { /* a viewer coming and going */
            Stream *s = sse_attach(w->h, name);
            ck_assert_ptr_nonnull(s);
            sse_detach(s);
            break;
        }
        case 1: /* the writer */
            if (sse_listened(w->h, name))
                sse_publish(w->h, name, i + 1, "game", "{}");
            break;
        default: /* the serving loop */ sse_keepalive(w->h); break;
        }
    }
    return NULL;
}

START_TEST(topics_come_and_go_under_load)
{
    Hub *h = sse_new();
    /* One viewer stays on g:0 throughout: its topic must survive. */
    Stream *stay = sse_attach(h, "g:0");
    pthread_t th[5];
    Worker w[5] = {{h, 0, 20000}, {h, 0, 20000}, {h, 1, 40000}, {h, 1, 40000}, {h, 2, 2000}};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(pthread_create(&th[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < 5; i++)
        pthread_join(th[i], NULL);
    ck_assert_int_eq(sse_listened(h, "g:0"), 1);
    ck_assert_int_eq(sse_count(h), 1);
    sse_detach(stay);
    ck_assert_int_eq(settled(h), 0);
    sse_free(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sse");
    TCase *tc = tcase_create("sse");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, topic_lives_while_watched);
    tcase_add_test(tc, finished_games_leave_nothing);
    tcase_add_test(tc, delay_line_releases_when_due);
    tcase_add_test(tc, topics_come_and_go_under_load);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
