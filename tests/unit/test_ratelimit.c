/*
 * test_ratelimit.c — the token bucket arithmetic with the time passed in
 * (deterministic, no sleeping), the "RATE[,BURST]" option syntax, client
 * address keys and trusted proxies, and the bounded table: addresses apart,
 * reads and writes apart, memory bounded however many addresses come, and
 * exact counts when several threads take from one bucket at once.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ratelimit.h"
#include "testutil.h"

static const RateRule TEN = {10000, 20}; /* 10/s, bursts of 20 */

START_TEST(bucket_burst_then_rate)
{
    TokenBucket b;
    int64_t t = 5000;
    ratelimit_bucket_init(&b, &TEN, t);
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t), 0);
    /* Empty: the next token comes in 1/10 s. */
    ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t), 100);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t + 40), 60);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t + 99), 1);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t + 100), 0);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t + 100), 100);
    /* One second brings 10 tokens, not more. */
    t += 1100;
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t), 0);
    ck_assert_int_gt(ratelimit_bucket_take(&b, &TEN, t), 0);
    /* A long idle time fills it to the burst and no further. */
    t += 3600 * 1000;
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t), 0);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t), 100);
}
END_TEST

START_TEST(bucket_steady_rate_is_served)
{
    /* From an empty bucket, a client keeping to 10/s (one request every
     * 100 ms) is never refused; one at 11/s for 10 s gets the 100 tokens
     * that came in that time, the other 10 are refused. */
    TokenBucket b;
    ratelimit_bucket_init(&b, &TEN, 0);
    b.micro = 0;
    for (int64_t t = 100; t <= 60000; t += 100)
        ck_assert_int_eq(ratelimit_bucket_take(&b, &TEN, t), 0);
    ratelimit_bucket_init(&b, &TEN, 0);
    b.micro = 0;
    int refused = 0;
    for (int i = 1; i <= 11 * 10; i++)
        refused += ratelimit_bucket_take(&b, &TEN, (int64_t)i * 10000 / 110) > 0;
    ck_assert_int_eq(refused, 10);
}
END_TEST

START_TEST(bucket_odd_times_and_rules)
{
    TokenBucket b;
    /* Half a request per second, one at a time. */
    RateRule slow = {500, 1};
    ratelimit_bucket_init(&b, &slow, 0);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &slow, 0), 0);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &slow, 0), 2000);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &slow, 1999), 1);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &slow, 2000), 0);
    /* A clock that goes back adds nothing and breaks nothing. */
    ck_assert_int_eq(ratelimit_bucket_take(&b, &slow, 1000), 2000);
    ck_assert_int_eq(ratelimit_bucket_take(&b, &slow, 4000), 0);
    /* Huge gaps and rates do not overflow. */
    RateRule fast = {1000000000, 1000000000};
    ratelimit_bucket_init(&b, &fast, 0);
    b.micro = 0;
    ck_assert_int_eq(ratelimit_bucket_take(&b, &fast, INT64_MAX / 2), 0);
    ck_assert_int_eq(b.micro, 1000000000LL * 1000000 - 1000000);
    /* No limit. */
    RateRule off = {0, 0};
    ratelimit_bucket_init(&b, &off, 0);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(ratelimit_bucket_take(&b, &off, 0), 0);
}
END_TEST

START_TEST(rule_syntax)
{
    RateRule r;
    char err[200];
    ck_assert_int_eq(ratelimit_rule_parse("20", &r, err, sizeof err), 0);
    ck_assert_int_eq(r.milli_per_s, 20000);
    ck_assert_int_eq(r.burst, 40);
    ck_assert_int_eq(ratelimit_rule_parse("20,5", &r, err, sizeof err), 0);
    ck_assert_int_eq(r.burst, 5);
    ck_assert_int_eq(ratelimit_rule_parse("0.5", &r, err, sizeof err), 0);
    ck_assert_int_eq(r.milli_per_s, 500);
    ck_assert_int_eq(r.burst, 1);
    ck_assert_int_eq(ratelimit_rule_parse("2.5", &r, err, sizeof err), 0);
    ck_assert_int_eq(r.burst, 5);
    ck_assert_int_eq(ratelimit_rule_parse("0", &r, err, sizeof err), 0);
    ck_assert_int_eq(r.milli_per_s, 0);
    const char *bad[] = {"",    "fast", "-1",  "10,",    "10,0", "10,-3", "10,2.5", "10,x",
                         "1e7", "nan",  "inf", "0.0001", "10 ",  ",5",    "10,5,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        ck_assert_msg(ratelimit_rule_parse(bad[i], &r, err, sizeof err) == RATELIMIT_E_SYNTAX,
                      "'%s' accepted", bad[i]);
        ck_assert_msg(err[0], "no message for '%s'", bad[i]);
    }
}
END_TEST

START_TEST(address_keys)
{
    unsigned char a[16], b[16];
    char text[64];
    ck_assert_int_eq(ratelimit_addr_parse("127.0.0.1", a), 0);
    ck_assert(ratelimit_addr_loopback(a));
    ck_assert_int_eq(ratelimit_addr_parse("127.8.9.10", a), 0);
    ck_assert(ratelimit_addr_loopback(a));
    ck_assert_int_eq(ratelimit_addr_parse("::1", a), 0);
    ck_assert(ratelimit_addr_loopback(a));
    ck_assert_int_eq(ratelimit_addr_parse("[::1]", b), 0);
    ck_assert_mem_eq(a, b, 16);
    ck_assert_int_eq(ratelimit_addr_parse("10.1.2.3", a), 0);
    ck_assert(!ratelimit_addr_loopback(a));
    /* An IPv4 client seen over IPv6 is the same client. */
    ck_assert_int_eq(ratelimit_addr_parse("::ffff:10.1.2.3", b), 0);
    ck_assert_mem_eq(a, b, 16);
    ratelimit_addr_text(a, text, sizeof text);
    ck_assert_str_eq(text, "10.1.2.3");
    ck_assert_int_eq(ratelimit_addr_parse("2001:DB8:0:0::7", a), 0);
    ratelimit_addr_text(a, text, sizeof text);
    ck_assert_str_eq(text, "2001:db8::7");
    const char *bad[] = {"",       "localhost", "10.1.2", "10.1.2.3:80", "[::1]:80",
                         "::1%lo", "1.2.3.4 ",  "[",      "256.1.1.1",   "2001:db8::g"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(ratelimit_addr_parse(bad[i], a) == RATELIMIT_E_SYNTAX, "'%s'", bad[i]);
}
END_TEST

START_TEST(trusted_proxies)
{
    ProxyList pl = {0};
    char err[200];
    unsigned char k[16];
    ck_assert_int_eq(ratelimit_proxies_add(&pl, "127.0.0.1, ::1", err, sizeof err), 0);
    ck_assert_int_eq(ratelimit_proxies_add(&pl, "127.0.0.1", err, sizeof err), 0);
    ck_assert_int_eq(pl.n, 2);
    ratelimit_addr_parse("::1", k);
    ck_assert(ratelimit_proxies_has(&pl, k));
    ratelimit_addr_parse("127.0.0.2", k);
    ck_assert(!ratelimit_proxies_has(&pl, k));
    ck_assert(!ratelimit_proxies_has(NULL, k));
    ck_assert_int_eq(ratelimit_proxies_add(&pl, "nginx", err, sizeof err), RATELIMIT_E_SYNTAX);
    ck_assert_int_eq(ratelimit_proxies_add(&pl, "10.0.0.1,", err, sizeof err), RATELIMIT_E_SYNTAX);
    ck_assert_int_eq(ratelimit_proxies_add(&pl, "", err, sizeof err), RATELIMIT_E_SYNTAX);
    ProxyList full = {0};
    int rc = 0;
    for (int i = 0; i < RATELIMIT_MAX_PROXIES + 1 && !rc; i++) {
        char a[32];
        snprintf(a, sizeof a, "192.0.2.%d", i + 1);
        rc = ratelimit_proxies_add(&full, a, err, sizeof err);
    }
    ck_assert_int_eq(rc, RATELIMIT_E_FULL);
    ck_assert_int_eq(full.n, RATELIMIT_MAX_PROXIES);
}
END_TEST

static void key_of(unsigned i, unsigned char k[16])
{
    char a[48];
    snprintf(a, sizeof a, "2001:db8::%x:%x", i >> 16, i & 0xffff);
    ck_assert_int_eq(ratelimit_addr_parse(a, k), 0);
}

START_TEST(table_keeps_addresses_and_kinds_apart)
{
    RateRule write = {2000, 4}, read = {10000, 20};
    RateLimiter *rl = ratelimit_new(&read, &write, 0);
    ck_assert_ptr_nonnull(rl);
    unsigned char a[16], b[16];
    key_of(1, a);
    key_of(2, b);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(ratelimit_check(rl, a, 1, 1000), 0);
    ck_assert_int_eq(ratelimit_check(rl, a, 1, 1000), 500);
    /* Reads of A and anything of B are untouched. */
    for (int i = 0; i < 20; i++) {
        ck_assert_int_eq(ratelimit_check(rl, a, 0, 1000), 0);
        ck_assert_int_eq(ratelimit_check(rl, b, 1, 1000), i < 4 ? 0 : 500);
    }
    ck_assert_int_eq(ratelimit_check(rl, a, 0, 1000), 100);
    ck_assert_int_eq(ratelimit_check(rl, a, 1, 1500), 0);
    ck_assert_int_eq(ratelimit_count(rl), 2);
    ck_assert_int_eq(ratelimit_rule(rl, 1)->burst, 4);
    ratelimit_free(rl);
    ratelimit_free(NULL);
    /* Reads unlimited: they do not even enter the table. */
    RateRule off = {0, 0};
    rl = ratelimit_new(&off, &write, 0);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(ratelimit_check(rl, a, 0, 0), 0);
    ck_assert_int_eq(ratelimit_count(rl), 0);
    ratelimit_free(rl);
}
END_TEST

START_TEST(table_is_bounded)
{
    RateRule r = {10000, 20};
    RateLimiter *rl = ratelimit_new(&r, &r, 1000); /* rounded up to 1024 */
    unsigned char k[16];
    for (unsigned i = 0; i < 50000; i++) {
        key_of(i, k);
        ck_assert_int_eq(ratelimit_check(rl, k, 0, (int64_t)i), 0);
    }
    ck_assert_int_le(ratelimit_count(rl), 1024);
    ck_assert_int_ge(ratelimit_count(rl), 900);
    ratelimit_free(rl);
    /* One set of eight: a drained address that all others came after is
     * the one that gives way, and comes back with a full bucket. */
    rl = ratelimit_new(&r, &r, 8);
    unsigned char a[16];
    key_of(0xa, a);
    for (int i = 0; i < 20; i++)
        ratelimit_check(rl, a, 0, 0);
    ck_assert_int_gt(ratelimit_check(rl, a, 0, 0), 0);
    for (unsigned i = 1; i <= 7; i++) {
        key_of(0x100 + i, k);
        ratelimit_check(rl, k, 0, 10);
    }
    /* Full, A is still there and still drained. */
    ck_assert_int_eq(ratelimit_count(rl), 8);
    ck_assert_int_gt(ratelimit_check(rl, a, 0, 0), 0);
    key_of(0x200, k);
    ratelimit_check(rl, k, 0, 20);
    ck_assert_int_eq(ratelimit_count(rl), 8);
    ck_assert_int_eq(ratelimit_check(rl, a, 0, 20), 0); /* A was evicted: a new bucket */
    ratelimit_free(rl);
}
END_TEST

typedef struct Worker {
    RateLimiter *rl;
    int taken;
} Worker;

static void *hammer(void *arg)
{
    Worker *w = arg;
    unsigned char k[16];
    key_of(42, k);
    for (int i = 0; i < 5000; i++)
        w->taken += ratelimit_check(w->rl, k, 1, 7) == 0;
    return NULL;
}

START_TEST(threads_share_one_bucket_exactly)
{
    /* At one instant, 4 threads take 20,000 times from a bucket of 10,000:
     * exactly 10,000 succeed. */
    RateRule r = {1000, 10000};
    RateLimiter *rl = ratelimit_new(&r, &r, 0);
    pthread_t th[4];
    Worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (Worker){rl, 0};
        pthread_create(&th[i], NULL, hammer, &w[i]);
    }
    int total = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        total += w[i].taken;
    }
    ck_assert_int_eq(total, 10000);
    ratelimit_free(rl);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ratelimit");
    TCase *tc = tcase_create("ratelimit");
    tcase_add_test(tc, bucket_burst_then_rate);
    tcase_add_test(tc, bucket_steady_rate_is_served);
    tcase_add_test(tc, bucket_odd_times_and_rules);
    tcase_add_test(tc, rule_syntax);
    tcase_add_test(tc, address_keys);
    tcase_add_test(tc, trusted_proxies);
    tcase_add_test(tc, table_keeps_addresses_and_kinds_apart);
    tcase_add_test(tc, table_is_bounded);
    tcase_add_test(tc, threads_share_one_bucket_exactly);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
