/* SPDX-License-Identifier: Apache-2.0 */
/* Contexts: primary retain/release, created contexts and the per-thread
 * stack, destruction. */
#include "t-util.h"

int main(void)
{
    sgt_watchdog(30);
    CUcontext primary = sgt_init(), c, cur;
    CUdevice dev;
    SGT_CHECK(cuCtxGetDevice(&dev));
    SGT_EXPECT(dev == 0);

    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));          /* made current */
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_EXPECT(cur == c && c != primary);
    SGT_CHECK(cuCtxPopCurrent(&cur));
    SGT_EXPECT(cur == c);
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_EXPECT(cur == primary);
    SGT_CHECK(cuCtxPushCurrent(c));

    /* Streams of different contexts are independent, including the
     * legacy default streams. */
    sgt_hold *hold = sgt_hold_stream(NULL);            /* c's legacy stream */
    SGT_CHECK(cuCtxPopCurrent(NULL));
    SGT_CHECK(cuStreamSynchronize(NULL));              /* primary's: not held */
    SGT_CHECK(cuCtxPushCurrent(c));
    SGT_EXPECT(cuStreamQuery(NULL) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    SGT_CHECK(cuCtxSynchronize());

    SGT_EXPECT(cuCtxDestroy(primary) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_CHECK(cuCtxDestroy(c));                        /* popped too */
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_EXPECT(cur == primary);
    SGT_EXPECT(cuCtxSetCurrent(c) == CUDA_ERROR_CONTEXT_IS_DESTROYED);

    /* Retained twice, released twice: then the primary is inactive. */
    SGT_CHECK(cuDevicePrimaryCtxRetain(&cur, 0));
    SGT_EXPECT(cur == primary);
    SGT_CHECK(cuDevicePrimaryCtxRelease(0));
    SGT_CHECK(cuDevicePrimaryCtxRelease(0));
    CUdeviceptr d;
    SGT_EXPECT(cuMemAlloc(&d, 16) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_EXPECT(cuDevicePrimaryCtxRelease(0) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_CHECK(cuDevicePrimaryCtxRetain(&cur, 0));
    SGT_CHECK(cuMemAlloc(&d, 16));
    return pass("t-context", "context stack, created and primary contexts");
}
