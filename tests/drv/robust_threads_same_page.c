/* SPDX-License-Identifier: Apache-2.0 */
/* robust_threads_same_page: many threads fault on the SAME guarded page at
 * once while another thread is inside a synchronize call.  One pinned page
 * holds 9 slots of 256 bytes; each round (100 of them) enqueues 9
 * device-to-host copies into the 9 slots, each on its own non-blocking
 * stream and bringing a value unique to round and slot:
 *   - copies 0-7 are followed on their streams by cuStreamWriteValue32 of a
 *     pinned flag, and the main thread waits for the flags: those copies
 *     have landed, but no host thread has observed them (syncguard still
 *     guards the page for them);
 *   - copy 8 waits behind a hold, released when a host thread blocks.
 * Then, released together by a barrier:
 *   - 8 reader threads read their slot (read_slot) without synchronizing:
 *     a race (latent) on the shared page, all concurrent;
 *   - a 9th thread calls cuStreamSynchronize on the stream of slot 8: it
 *     blocks in the driver (releasing the hold) while the readers fault,
 *     and its return releases copy 8's guard.
 * Every reader must see its copy's value, the sync must return, nothing may
 * crash or deadlock, and after cuCtxSynchronize every slot
 * holds its value.  All races are one site (read_slot): exactly one report;
 * the slots read after cuCtxSynchronize (read_synced) are never reported.
 * (The copies read by the racing threads have landed before the round
 * starts: while one thread's access is single-stepped the page is open and
 * other threads' accesses are not seen, a documented limit, so the value
 * they see is only certain for a landed copy.)
 *
 * SG-OPTIONS: mode=report
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_threads_same_page.c:[0-9]* in read_slot
 * SG-NOGREP: in read_synced
 * SG-GREP: syncguard: 1 race reported (1 early-host-read, 0 early-host-write
 */
#include <cuda.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgtest.h"

#define READERS 8
#define SLOTS (READERS + 1)             /* slot READERS: the synchronizing thread's */
#define SLOT_BYTES 256u
#define SLOT_WORDS (SLOT_BYTES / sizeof(uint32_t))
#define ROUNDS 100

static CUcontext ctx;
static CUstream streams[SLOTS];
static unsigned char *page_buf;         /* one pinned page */
static pthread_barrier_t start, done;
static int round_no;
static unsigned wrong;
static pthread_mutex_t wrong_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t value(int round, int slot)
{
    return 0x80000000u | ((uint32_t)round << 8) | (uint32_t)slot;
}

/* Not the same code as read_synced (identical functions may be folded into
 * one, and the report would name the other). */
static __attribute__((noinline)) unsigned read_slot(const volatile uint32_t *p, uint32_t v)
{
    unsigned bad = 0;
    for (unsigned i = SLOT_WORDS; i-- > 0;)
        bad += p[i] != v;
    return bad;
}

static __attribute__((noinline)) unsigned read_synced(const volatile uint32_t *p, uint32_t v)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < SLOT_WORDS; i++)
        bad += p[i] != v;
    return bad;
}

static void add_wrong(unsigned n)
{
    pthread_mutex_lock(&wrong_lock);
    wrong += n;
    pthread_mutex_unlock(&wrong_lock);
}

static void *reader(void *arg)
{
    int k = (int)(intptr_t)arg;
    SGT_CHECK(cuCtxSetCurrent(ctx));
    for (int r = 0; r < ROUNDS; r++) {
        pthread_barrier_wait(&start);
        /* the race */
        add_wrong(read_slot((const uint32_t *)(page_buf + (size_t)k * SLOT_BYTES),
                            value(round_no, k)));
        pthread_barrier_wait(&done);
    }
    return NULL;
}

static void *syncer(void *arg)
{
    (void)arg;
    SGT_CHECK(cuCtxSetCurrent(ctx));
    for (int r = 0; r < ROUNDS; r++) {
        pthread_barrier_wait(&start);
        SGT_CHECK(cuStreamSynchronize(streams[READERS]));
        pthread_barrier_wait(&done);
    }
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page < SLOTS * SLOT_BYTES) {
        fprintf(stderr, "page too small\n");
        return 2;
    }
    ctx = sgt_init();
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, SLOTS * SLOT_BYTES));
    SGT_CHECK(cuMemAllocHost((void **)&page_buf, page));
    memset(page_buf, 0, page);
    for (int k = 0; k < SLOTS; k++)
        SGT_CHECK(cuStreamCreate(&streams[k], CU_STREAM_NON_BLOCKING));
    volatile uint32_t *flags;            /* flag k: the last round whose copy k landed, + 1 */
    CUdeviceptr dflags;
    SGT_CHECK(cuMemHostAlloc((void **)&flags, READERS * sizeof *flags, CU_MEMHOSTALLOC_DEVICEMAP));
    SGT_CHECK(cuMemHostGetDevicePointer(&dflags, (void *)flags, 0));
    for (int k = 0; k < READERS; k++)
        flags[k] = 0;
    pthread_barrier_init(&start, NULL, SLOTS + 1);
    pthread_barrier_init(&done, NULL, SLOTS + 1);
    pthread_t th[SLOTS];
    for (int k = 0; k < SLOTS; k++)
        if (pthread_create(&th[k], NULL, k < READERS ? reader : syncer, (void *)(intptr_t)k) != 0) {
            perror("pthread_create");
            return 2;
        }

    unsigned late = 0;
    for (int r = 0; r < ROUNDS; r++) {
        round_no = r;
        sgt_hold *hold = sgt_hold_stream(streams[READERS]);
        for (int k = 0; k < SLOTS; k++) {
            SGT_CHECK(cuMemsetD32Async(dev + (size_t)k * SLOT_BYTES, value(r, k), SLOT_WORDS,
                                       streams[k]));
            SGT_CHECK(cuMemcpyDtoHAsync(page_buf + (size_t)k * SLOT_BYTES,
                                        dev + (size_t)k * SLOT_BYTES, SLOT_BYTES, streams[k]));
            if (k < READERS)
                SGT_CHECK(cuStreamWriteValue32(streams[k], dflags + (size_t)k * sizeof *flags,
                                               (cuuint32_t)r + 1, 0));
        }
        sgt_release_when_host_waits(hold);
        /* Copies 0..READERS-1 land; nothing tells syncguard. */
        for (int k = 0; k < READERS; k++)
            while (flags[k] != (uint32_t)r + 1)
                sched_yield();
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&done);
        SGT_CHECK(cuCtxSynchronize());
        for (int k = 0; k < SLOTS; k++)
            late += read_synced((const uint32_t *)(page_buf + (size_t)k * SLOT_BYTES), value(r, k));
    }
    for (int k = 0; k < SLOTS; k++)
        pthread_join(th[k], NULL);
    printf("%d rounds: %u words read wrong by the racing readers, %u after cuCtxSynchronize\n",
           ROUNDS, wrong, late);
    SGT_CHECK(cuMemFreeHost(page_buf));
    SGT_CHECK(cuMemFree(dev));
    if (wrong || late) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
