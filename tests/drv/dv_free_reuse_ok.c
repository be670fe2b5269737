/* SPDX-License-Identifier: Apache-2.0 */
/* dv_free_reuse_ok: device memory written on stream A, freed with
 * cuMemFree (which waits for the work using it), allocated again at the
 * same address and written on stream B: the two writes are of different
 * allocations, and no race. syncguard forgets what it knew of an
 * allocation's bytes when it is freed.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define N 1024u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING), b = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr x, y;
    SGT_CHECK(cuMemAlloc(&x, N * sizeof(uint32_t)));
    SGT_CHECK(cuMemsetD32Async(x, SGT_OLD, N, a));
    SGT_CHECK(cuMemFree(x));
    SGT_CHECK(cuMemAlloc(&y, N * sizeof(uint32_t)));
    printf("reallocated at the same address: %s\n", x == y ? "yes" : "no");
    SGT_EXPECT(x == y); /* else the test shows nothing */
    SGT_CHECK(cuMemsetD32Async(y, SGT_NEW, N, b));
    SGT_CHECK(cuStreamSynchronize(b));
    static uint32_t out[N];
    SGT_CHECK(cuMemcpyDtoH(out, y, sizeof out));
    return sgt_verdict(SGT_COUNT_WRONG(out, N, SGT_NEW), "the new allocation");
}
