/* d2h_host_register: memory from malloc (page-aligned) made page-locked
 * with cuMemHostRegister is pinned memory like cuMemAllocHost's: an async
 * copy into it runs after the call returns, and reading it before
 * synchronizing is a race.  Twin: d2h_host_register_sync.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_host_register_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    if (posix_memalign((void **)&host, (size_t)sysconf(_SC_PAGESIZE), BYTES) != 0) {
        perror("posix_memalign");
        return 2;
    }
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;
    SGT_CHECK(cuMemHostRegister(host, BYTES, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* d2h_host_register_sync */
    SGT_CHECK(cuStreamSynchronize(s));  /* waits for the copy: releases the hold */
#endif

#ifdef SG_TWIN /* d2h_host_register_sync */
    unsigned wrong = count_wrong(host, NEW);
    printf("after cuStreamSynchronize: %u of %u words wrong\n", wrong, WORDS);
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize: %u\n", early, WORDS, late);
#endif
    SGT_CHECK(cuMemHostUnregister(host));
    free(host);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
#ifdef SG_TWIN /* d2h_host_register_sync */
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
#else
    if (early || late) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
#endif
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
