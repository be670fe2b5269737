/* SPDX-License-Identifier: Apache-2.0 */
/* robust_settle_other_thread_race: while one thread settles a page (it kept
 * faulting on the page's neighbour bytes, and now waits for the page's
 * copies before opening it), another thread reads the bytes of one of
 * those copies without having observed it.  That read is a race and must
 * be reported, by the reading thread: the settling thread reports nothing
 * (it touched no copy's bytes), so without care the race would be lost.
 *
 * Two copies fill the first two quarters of a pinned page, each on its own
 * held stream: Y (enqueued first, bytes 1024-2047) and X (bytes 0-1023).
 * Thread A reads a word of the second half 100 times (one load: after 64
 * faults in a row at one pc syncguard settles the page, waiting for Y
 * first).  The emulator tells the main thread when A blocks; the main
 * thread arms X's release for its next host wait and reads X's first word:
 * reported (in flight), waited for, the right value.  Then it releases Y
 * and A finishes.  Emulator only: it needs the emulator's "call on host
 * wait" hook.  Twin: robust_settle_other_thread_ok (the main thread
 * synchronizes X's stream before its read: X is observed while A still
 * settles, so the read, which still faults, is waited for, not reported).
 *
 * SG-EMU-ONLY
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_settle_other_thread_race.c:[0-9]* in main
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 0 of a 1024-byte copy
 * SG-GREP: syncguard: 1 race reported
 * SG-GREP: stats: .*faults_race=1, faults_waited=0,
 */
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgtest.h"

/* tests/emu/sgemu.h's hook, looked up at run time: a real driver has none
 * (this test is SG-EMU-ONLY, but the GPU suite builds every program). */
typedef void (*call_on_host_wait_fn)(void (*fn)(void *), void *arg);

/* This program is also built, with SG_TWIN defined, as its twin
 * robust_settle_other_thread_ok.c (the lines under #ifdef SG_TWIN). */

#define COPIED 0x5eed1234u
#define MINE 0x0000beefu
#define NEIGHBOUR_READS 100
#define QUARTER 1024u

static sem_t a_blocked;
static volatile uint32_t *neighbour;
static unsigned neighbour_wrong;

static void tell_main(void *arg)
{
    (void)arg;
    sem_post(&a_blocked);
}

static void *read_neighbour(void *arg)
{
    (void)arg;
    for (int i = 0; i < NEIGHBOUR_READS; i++)
        neighbour_wrong += *neighbour != MINE;
    return NULL;
}

static sgt_hold *held_copy(void *host, CUdeviceptr dev, CUstream *s)
{
    SGT_CHECK(cuStreamCreate(s, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream_in_graph(*s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, QUARTER, *s));
    return hold;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    call_on_host_wait_fn call_on_wait =
        (call_on_host_wait_fn)(void (*)(void))dlsym(RTLD_DEFAULT, "sgemu_call_on_host_wait");
    if (!call_on_wait) {
        printf("SKIP: needs the emulator's sgemu_call_on_host_wait\n");
        return 77;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), words = page / 4;
    CUdeviceptr dev = sgt_device_words(2 * QUARTER / 4, COPIED);
    uint32_t *host = sgt_pinned(page);
    for (size_t i = 0; i < words; i++)
        host[i] = i < 2 * QUARTER / 4 ? 0 : MINE;
    neighbour = host + words / 2 + 7;
    sem_init(&a_blocked, 0, 0);

    CUstream sx, sy;
    sgt_hold *hold_y = held_copy((char *)host + QUARTER, dev + QUARTER, &sy);
    sgt_hold *hold_x = held_copy(host, dev, &sx);
    call_on_wait(tell_main, NULL);      /* A's settle will block on Y */
    pthread_t a;
    pthread_create(&a, NULL, read_neighbour, NULL);
    sem_wait(&a_blocked);
    sgt_release_when_host_waits(hold_x);
#ifdef SG_TWIN /* robust_settle_other_thread_ok */
    SGT_CHECK(cuStreamSynchronize(sx)); /* X observed while A still settles */
#endif
    uint32_t first = ((volatile uint32_t *)host)[0]; /* the race, unless the twin */
    sgt_release(hold_y);
    pthread_join(a, NULL);

    SGT_CHECK(cuCtxSynchronize());
    unsigned wrong = neighbour_wrong + (first != COPIED);
    for (size_t i = 0; i < 2 * QUARTER / 4; i++)
        wrong += host[i] != COPIED;
    printf("first word 0x%08x; neighbour reads wrong: %u\n", first, neighbour_wrong);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    return sgt_verdict(wrong, "copies and neighbour");
}
