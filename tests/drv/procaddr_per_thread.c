/* procaddr_per_thread: entry points looked up with cuGetProcAddress and
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM (version 7000) are the
 * per-thread variants (_ptsz): for them stream NULL is the calling thread's
 * per-thread default stream, not the legacy stream.  The copy goes to stream
 * NULL through such a pointer and the host reads the pinned destination
 * without synchronizing: a race.  Twin: procaddr_per_thread_sync.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * procaddr_per_thread_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

typedef CUresult (*dtoh_async_fn)(void *, CUdeviceptr, size_t, CUstream);
typedef CUresult (*stream_sync_fn)(CUstream);

static void *lookup_per_thread(const char *name)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status;
    SGT_CHECK(cuGetProcAddress(name, &fn, 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                               &status));
    if (status != CU_GET_PROC_ADDRESS_SUCCESS || !fn) {
        fprintf(stderr, "cuGetProcAddress(%s): status %d\n", name, (int)status);
        exit(2);
    }
    return fn;
}

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
    dtoh_async_fn memcpy_dtoh_async = (dtoh_async_fn)lookup_per_thread("cuMemcpyDtoHAsync");
    stream_sync_fn stream_synchronize = (stream_sync_fn)lookup_per_thread("cuStreamSynchronize");
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(memcpy_dtoh_async(host, dev, BYTES, NULL));  /* the per-thread stream */
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* procaddr_per_thread_sync */
    SGT_CHECK(stream_synchronize(NULL)); /* per-thread: waits for the copy */
#endif

#ifdef SG_TWIN /* procaddr_per_thread_sync */
    unsigned wrong = count_wrong(host, NEW);
    printf("after cuStreamSynchronize_ptsz(NULL): %u of %u words wrong\n", wrong, WORDS);
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(stream_synchronize(NULL));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize_ptsz(NULL): %u\n", early,
           WORDS, late);
#endif
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
#ifdef SG_TWIN /* procaddr_per_thread_sync */
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
