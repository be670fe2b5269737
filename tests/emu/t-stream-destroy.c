/* SPDX-License-Identifier: Apache-2.0 */
/* Destroying a stream with pending work returns at once; the work still
 * completes. */
#include "t-util.h"

#define N 1024

int main(void)
{
    CUstream s;
    CUdeviceptr d;
    unsigned char *h;
    sgt_hold *hold = start_held_dtoh(&s, &d, &h, N);
    SGT_CHECK(cuStreamDestroy(s));
    SGT_EXPECT(all_zero(h, N));
    sgt_release(hold);
    SGT_CHECK(cuCtxSynchronize());
    SGT_EXPECT(has_pattern(h, N, 1));
    return pass("t-stream-destroy", "pending work of a destroyed stream completes");
}
