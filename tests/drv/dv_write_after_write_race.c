/* SPDX-License-Identifier: Apache-2.0 */
/* dv_write_after_write_race: two memsets of device buffer X, the first on
 * the non-blocking stream A (held by the test), the second on the
 * non-blocking stream B, which never waited for A: natively the first may
 * land last and X ends with its words. syncguard reports
 * device-write-after-write and by default makes B wait for A, so that X
 * ends as the program wrote it last.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: device-write-after-write
 * SG-GREP: ^SUMMARY: syncguard: device-write-after-write .*dv_write_after_write_race.c:[0-9]* in main
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

#define N 1024u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr x = sgt_device_words(N, 0);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING), b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemsetD32Async(x, SGT_OLD, N, a));
    SGT_CHECK(cuMemsetD32Async(x, SGT_NEW, N, b)); /* the program's last word */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    SGT_CHECK(cuStreamSynchronize(a));
    static uint32_t out[N];
    SGT_CHECK(cuMemcpyDtoH(out, x, sizeof out));
    return sgt_verdict(SGT_COUNT_WRONG(out, N, SGT_NEW), "X after both streams");
}
