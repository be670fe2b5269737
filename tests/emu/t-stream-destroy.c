/* Destroying a stream with pending work returns at once; the work still
 * completes. */
#include "t-util.h"

#define N 1024

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *h = pinned_zeroed(N);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, N, s));
    SGT_CHECK(cuStreamDestroy(s));
    SGT_EXPECT(all_zero(h, N));
    sgt_release(hold);
    SGT_CHECK(cuCtxSynchronize());
    SGT_EXPECT(has_pattern(h, N, 1));
    return pass("t-stream-destroy", "pending work of a destroyed stream completes");
}
