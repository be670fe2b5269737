/* SPDX-License-Identifier: Apache-2.0 */
/* An async copy with page-locked host memory returns at once and moves the
 * bytes when its (held) stream gets there: nothing lands before the
 * release, everything after the synchronisation; an async HtoD reads its
 * pinned source at execution time. */
#include "t-util.h"

#define N 4096

int main(void)
{
    CUstream s;
    CUdeviceptr d;
    unsigned char *h;
    sgt_hold *hold = start_held_dtoh(&s, &d, &h, N);
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(h, N));

    /* A pinned source is read when the copy runs, not when it is enqueued. */
    unsigned char *src = pinned_zeroed(N);
    CUdeviceptr d2;
    SGT_CHECK(cuMemAlloc(&d2, N));
    SGT_CHECK(cuMemcpyHtoDAsync(d2, src, N, s));
    fill_pattern(src, N, 2);

    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(h, N, 1));
    SGT_EXPECT(cuStreamQuery(s) == CUDA_SUCCESS);

    unsigned char back[N];
    SGT_CHECK(cuMemcpyDtoH(back, d2, N));
    SGT_EXPECT(has_pattern(back, N, 2));
    return pass("t-async-pinned", "pinned async copies move in stream order, after the hold");
}
