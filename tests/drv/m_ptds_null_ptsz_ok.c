/* m_ptds_null_ptsz_ok: per-thread default stream.  NULL passed to a _ptsz
 * entry point (cuGetProcAddress with
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) is the calling thread's
 * per-thread stream, the same stream CU_STREAM_PER_THREAD names in the
 * plain ABI: synchronizing that observes the copy.  Twin:
 * m_ptds_null_ptsz_race.
 *
 * SG-EXPECT: silent
 */
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
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    dtoh_async_fn dtoh_async = (dtoh_async_fn)per_thread_fn("cuMemcpyDtoHAsync");
    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(dtoh_async(host, dev, SGT_BYTES, NULL));      /* the per-thread stream */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(CU_STREAM_PER_THREAD)");
}
