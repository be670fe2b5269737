/* SPDX-License-Identifier: Apache-2.0 */
/* dv_write_after_read_race: a device-to-device copy X -> Y on the
 * non-blocking stream A (held by the test) reads X; a memset of X is then
 * enqueued on the non-blocking stream B, which never waited for A:
 * natively the memset may land first and Y gets the new words.
 * syncguard reports device-write-after-read and by default makes B wait
 * for A, so that the copy reads X's old words.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: device-write-after-read
 * SG-GREP: ^SUMMARY: syncguard: device-write-after-read .*dv_write_after_read_race.c:[0-9]* in main
 * SG-GREP: Copy enqueued on stream .* by cuMemcpyDtoDAsync in thread [0-9]*, reading device memory
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

#define N 1024u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr x = sgt_device_words(N, SGT_OLD), y = sgt_device_words(N, 0);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING), b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoDAsync(y, x, N * sizeof(uint32_t), a)); /* reads X */
    SGT_CHECK(cuMemsetD32Async(x, SGT_NEW, N, b));                /* writes X */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    SGT_CHECK(cuStreamSynchronize(a));
    static uint32_t out[N];
    SGT_CHECK(cuMemcpyDtoH(out, y, sizeof out));
    return sgt_verdict(SGT_COUNT_WRONG(out, N, SGT_OLD), "Y after both streams");
}
