/* SPDX-License-Identifier: Apache-2.0 */
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

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    dtoh_async_fn memcpy_dtoh_async = (dtoh_async_fn)lookup_per_thread("cuMemcpyDtoHAsync");
    stream_sync_fn stream_synchronize = (stream_sync_fn)lookup_per_thread("cuStreamSynchronize");
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(memcpy_dtoh_async(host, dev, SGT_BYTES, NULL));  /* the per-thread stream */
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* procaddr_per_thread_sync */
    SGT_CHECK(stream_synchronize(NULL)); /* per-thread: waits for the copy */
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(stream_synchronize(NULL));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#endif
    sgt_free_buffers(dev, host);
#ifdef SG_TWIN /* procaddr_per_thread_sync */
    return sgt_verdict(wrong, "after cuStreamSynchronize_ptsz(NULL)");
#else
    return sgt_race_verdict(early, late, "after cuStreamSynchronize_ptsz(NULL)");
#endif
}
