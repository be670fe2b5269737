/* SPDX-License-Identifier: Apache-2.0 */
/* Probe of a CUDA behaviour syncguard's model depends on: does waiting for
 * the legacy default stream (cuStreamQuery/cuStreamSynchronize on NULL or
 * CU_STREAM_LEGACY) also wait for earlier work of blocking streams, and not
 * of non-blocking ones? Holds a stream, queries the legacy stream, prints.
 * Build: gcc -I$CUDA/include probe_legacy_sync.c ../lib/sgtest.c -lcuda -ldl -lpthread */
#include <cuda.h>
#include <stdio.h>

#include "sgtest.h"

static const char *query(CUstream s)
{
    CUresult r = cuStreamQuery(s);
    return r == CUDA_SUCCESS ? "SUCCESS" : r == CUDA_ERROR_NOT_READY ? "NOT_READY" : "error";
}

static void probe(unsigned flags, const char *name)
{
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, flags));
    sgt_hold *h = sgt_hold_stream(a);
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, 4096));
    SGT_CHECK(cuMemsetD8Async(d, 1, 4096, a)); /* pending behind the hold */
    printf("%s stream held: query(NULL)=%s query(CU_STREAM_LEGACY)=%s query(stream)=%s\n", name,
           query(NULL), query(CU_STREAM_LEGACY), query(a));
    sgt_release(h);
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuMemFree(d));
    SGT_CHECK(cuStreamDestroy(a));
}

int main(void)
{
    sgt_init();
    probe(CU_STREAM_DEFAULT, "blocking");
    probe(CU_STREAM_NON_BLOCKING, "non-blocking");
    return 0;
}
