/* SPDX-License-Identifier: Apache-2.0 */
/* huge_d2h_read_race: with huge_pinned (the default), a 4 MiB
 * cuMemHostAlloc(PORTABLE) is syncguard's own memory on huge pages,
 * registered with the driver. It is pinned all the same: an async copy
 * into all of it runs after the call returns, and reading it before
 * synchronizing is a race, reported, and the read sees the copied data.
 * Twin: huge_d2h_sync_ok.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*pinned_huge=1,
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * huge_d2h_sync_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, SGT_NEW);
    uint32_t *host;
    SGT_CHECK(cuMemHostAlloc((void **)&host, BYTES, CU_MEMHOSTALLOC_PORTABLE));
    SGT_EXPECT(huge_mapping(host) == 1);
    SGT_EXPECT((uintptr_t)host % HUGE_PAGE == 0);
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* huge_d2h_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned early = 0;
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    unsigned late = SGT_COUNT_WRONG(host, WORDS, SGT_NEW);
    printf("read during the copy: %u, after it: %u of %u words wrong\n", early, late,
           (unsigned)WORDS);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (early || late) {
        printf("check: MISMATCH a read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
