/* SPDX-License-Identifier: Apache-2.0 */
/* dv_sync_dtoh_unordered_race: the host-visible end of a device race (the
 * shape of `w.grad.cpu()` after a backward pass in a side stream). Device
 * buffer X is written on the non-blocking stream A (a memset; held by the
 * test), and the host copies X into pageable memory with cuMemcpyDtoH,
 * work on the legacy default stream, which does not wait for A: natively
 * the host gets X's old words. syncguard reports device-read-after-write
 * and by default makes the legacy stream wait for A: the host gets the
 * new words.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: device-read-after-write
 * SG-GREP: ^SUMMARY: syncguard: device-read-after-write .*dv_sync_dtoh_unordered_race.c:[0-9]* in main
 * SG-GREP: READ of device memory at 0x[0-9a-f]* by cuMemcpyDtoH on the legacy default stream
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

#define N 1024u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr x = sgt_device_words(N, SGT_OLD);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemsetD32Async(x, SGT_NEW, N, a));
    sgt_release_when_host_waits(hold);
    static uint32_t out[N];
    SGT_CHECK(cuMemcpyDtoH(out, x, sizeof out)); /* the legacy stream: not after A */
    SGT_CHECK(cuStreamSynchronize(a));
    return sgt_verdict(SGT_COUNT_WRONG(out, N, SGT_NEW), "the host's copy of X");
}
