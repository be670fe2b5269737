/* SPDX-License-Identifier: Apache-2.0 */
/* m_ptds_null_ptsz_race: per-thread default stream.  The copy goes to NULL
 * through the _ptsz entry point (the per-thread stream); the host then
 * synchronizes an unrelated non-blocking stream through the _ptsz
 * cuStreamSynchronize:  a race.  Twin: m_ptds_null_ptsz_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_ptds_null_ptsz_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_ptds_null_ptsz_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

typedef CUresult (*dtoh_async_fn)(void *, CUdeviceptr, size_t, CUstream);
typedef CUresult (*stream_sync_fn)(CUstream);

/* The per-thread (_ptsz) flavour, as a runtime built for per-thread
 * default streams looks it up. */
static void *per_thread_fn(const char *name)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress(name, &fn, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn);
    return fn;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    dtoh_async_fn dtoh_async = (dtoh_async_fn)per_thread_fn("cuMemcpyDtoHAsync");
#ifdef SG_TWIN /* m_ptds_null_ptsz_ok */
#else
    stream_sync_fn stream_sync = (stream_sync_fn)per_thread_fn("cuStreamSynchronize");
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(dtoh_async(host, dev, SGT_BYTES, NULL));      /* the per-thread stream */
#ifdef SG_TWIN /* m_ptds_null_ptsz_ok */
#else
    SGT_CHECK(stream_sync(b));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_ptds_null_ptsz_ok */
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(CU_STREAM_PER_THREAD)");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize_ptsz(unrelated stream)");
#endif
}
