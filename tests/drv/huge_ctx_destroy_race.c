/* SPDX-License-Identifier: Apache-2.0 */
/* huge_ctx_destroy_race: a pinned allocation on syncguard's huge pages
 * (huge_pinned) goes with the context it was allocated in, as the driver's
 * own allocation would: after cuCtxDestroy, a new allocation (which may
 * land where the old block was) is pinned afresh, and an early read of an
 * async copy into it is a race, reported, the read seeing the copy's data.
 * Twins, where pageable memory is mapped over the old block's address
 * instead: huge_ctx_destroy_ok, huge_primary_reset_ok, huge_primary_release_ok
 * (a copy into it completes before its call returns: a read right after
 * is no race, whatever the block was).
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined (and HUGE_TEARDOWN
 * naming the teardown), as its twins; the lines under #ifdef SG_TWIN are
 * theirs. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "ctx_teardown.h"
#include "huge_pinned.h"
#include "sgtest.h"

#ifndef HUGE_TEARDOWN
#define HUGE_TEARDOWN TD_DESTROY
#endif

#define BYTES (2 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))

/* A block on huge pages in the context to be torn down, then torn down:
 * where it was. */
static void *torn_down_block(void)
{
    td_enter(HUGE_TEARDOWN);
    uint32_t *old;
    SGT_CHECK(cuMemAllocHost((void **)&old, BYTES));
    SGT_EXPECT(huge_mapping(old) == 1);
    for (unsigned i = 0; i < WORDS; i++)
        old[i] = SGT_OLD;
    td_teardown(HUGE_TEARDOWN);
    return old;
}

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    td_start();
    void *old = torn_down_block();
    uint32_t *host;
#ifdef SG_TWIN
    /* The program's own pageable memory, where the block was (first: the
     * emulator's device memory could take the room). */
    host = mmap(old, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    SGT_EXPECT(host == old);
#else
    (void)old;
    SGT_CHECK(cuMemHostAlloc((void **)&host, BYTES, CU_MEMHOSTALLOC_PORTABLE));
    SGT_EXPECT(huge_mapping(host) == 1);
#endif
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, SGT_NEW);
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold); /* the pageable copy waits for the hold */
#endif
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    /* Pinned: the race. Pageable: the copy is complete. */
    unsigned early = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    printf("after %s: read right after the copy: %u, after a synchronize: %u of %u words wrong\n",
           td_names[HUGE_TEARDOWN], early, late, (unsigned)WORDS);
#ifdef SG_TWIN
    munmap(host, BYTES);
#else
    SGT_CHECK(cuMemFreeHost(host));
#endif
    SGT_CHECK(cuMemFree(dev));
    if (early || late) {
        printf("check: MISMATCH a read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
