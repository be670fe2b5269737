/* SPDX-License-Identifier: Apache-2.0 */
/* api_c_race: the C API of include/syncguard/syncguard.h, as a program finds
 * it (dlsym(RTLD_DEFAULT) under the preload): the version, the race count
 * (first reports and repeats), the races as JSON Lines (cut to a small
 * buffer, since a given occurrence, with text, count, first and last), and
 * the context label in the report and in its JSON. The same site under
 * another context is a race of its own (reported again, with its stacks).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^  Context: phase one$
 * SG-GREP: ^  Context: phase two$
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/syncguard/syncguard.h"
#include "sgtest.h"

static int (*api_version)(void);
static unsigned long (*race_count)(void);
static size_t (*races_json)(unsigned long, char *, size_t);
static void (*set_context)(const char *);

static void find_api(void)
{
    api_version = (int (*)(void))dlsym(RTLD_DEFAULT, "syncguard_api_version");
    race_count = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "syncguard_race_count");
    races_json = (size_t (*)(unsigned long, char *, size_t))dlsym(RTLD_DEFAULT,
                                                                   "syncguard_races_json");
    set_context = (void (*)(const char *))dlsym(RTLD_DEFAULT, "syncguard_set_context");
    SGT_EXPECT(api_version && race_count && races_json && set_context);
    SGT_EXPECT(api_version() >= SYNCGUARD_API_VERSION);
}

/* One race at one site: a held copy, read before any synchronization. */
static unsigned race_once(CUdeviceptr dev, uint32_t *host, CUstream s)
{
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    return wrong;
}

/* races_json(since) in a buffer of the size it asks for. */
static char *races_since(unsigned long since)
{
    size_t n = races_json(since, NULL, 0);
    char *buf = malloc(n + 1);
    SGT_EXPECT(buf != NULL);
    SGT_EXPECT(races_json(since, buf, n + 1) == n && strlen(buf) == n);
    return buf;
}

static unsigned lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* What the API says after each step (step 0: the first race, 1: its
 * repeat, 2: the same site under another context). */
static void check_step(int step)
{
    char small[16];
    if (step == 0) {
        SGT_EXPECT(race_count() == 1);
        /* Cut: the whole length comes back, the buffer ends in '\0'. */
        size_t whole = races_json(0, small, sizeof small);
        SGT_EXPECT(whole > sizeof small && strlen(small) == sizeof small - 1);
        char *one = races_since(0);
        SGT_EXPECT(lines(one) == 1 && strncmp(one, "{\"type\":\"race\",", 15) == 0);
        SGT_EXPECT(strstr(one, "\"kind\":\"early-host-read\"") != NULL);
        SGT_EXPECT(strstr(one, "\"context\":\"phase one\"") != NULL);
        SGT_EXPECT(strstr(one, "\"text\":\"==") != NULL);
        SGT_EXPECT(strstr(one, "\\u000a  Context: phase one\\u000a") != NULL);
        SGT_EXPECT(strstr(one, "SUMMARY: syncguard: early-host-read api_c_race.c:") != NULL);
        SGT_EXPECT(strstr(one, ",\"count\":1,\"first\":1,\"last\":1}\n") != NULL);
        free(one);
    } else if (step == 1) {
        /* A repeat: counted, not reported again; its entry moves on. */
        SGT_EXPECT(race_count() == 2);
        char *again = races_since(1);
        SGT_EXPECT(lines(again) == 1 &&
                   strstr(again, ",\"count\":2,\"first\":1,\"last\":2}\n") != NULL);
        free(again);
        SGT_EXPECT(races_json(2, small, sizeof small) == 0);
    } else {
        /* Another context: the same site is a new race, with its own report. */
        SGT_EXPECT(race_count() == 3);
        char *two = races_since(2);
        SGT_EXPECT(lines(two) == 1 && strstr(two, "\"context\":\"phase two\"") &&
                   strstr(two, ",\"count\":1,\"first\":3,\"last\":3}\n"));
        free(two);
        char *all = races_since(0);
        SGT_EXPECT(lines(all) == 2);
        free(all);
    }
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    find_api();
    char small[16];
    SGT_EXPECT(race_count() == 0);
    SGT_EXPECT(races_json(0, small, sizeof small) == 0 && small[0] == '\0');
    unsigned wrong = 0;
    for (int step = 0; step < 3; step++) {
        set_context(step < 2 ? "phase one" : "phase two");
        wrong += race_once(dev, host, s); /* one call site: one race site */
        set_context(NULL);
        check_step(step);
    }
    return sgt_verdict(wrong, "early reads");
}
