/* SPDX-License-Identifier: Apache-2.0 */
/* dv_kernel_write_dtod_legacy_race: issue 30's CUDA C program. A kernel
 * (sgt_fill, its access set learnt from one earlier launch: it writes its
 * pointer argument) writes device buffer X on the non-blocking stream A,
 * held by the test; a device-to-device cuMemcpyDtoDAsync on the legacy
 * default stream then reads X. The legacy stream does not wait for a
 * non-blocking stream: natively the copy may read X's old words.
 * syncguard reports device-read-after-write with the kernel's name and,
 * by default, makes the legacy stream wait for A: Y gets the kernel's
 * words. Twin: dv_kernel_write_dtod_event_ok (the legacy stream waits for
 * an event recorded after the kernel: silent).
 *
 * SG-LEARN
 * SG-OPTIONS: device_races=1:learn_launches=1
 * SG-EXPECT: device-read-after-write
 * SG-GREP: ^SUMMARY: syncguard: device-read-after-write .*dv_kernel_write_dtod_legacy_race.c:[0-9]* in main
 * SG-GREP: Kernel sgt_fill launched on stream .* by cuLaunchKernel in thread [0-9]*, writing device memory
 */
#include <stdio.h>

#include "k_launch.h"

#define N 1024u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUfunction f = sgt_kernel("sgt_fill");
    CUdeviceptr x = sgt_device_words(N, 0), y = sgt_device_words(N, 0);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_launch_fill(f, a, x, N, SGT_OLD); /* learnt from */
    SGT_CHECK(cuStreamSynchronize(a));

    sgt_hold *hold = sgt_hold_stream(a);
    sgt_launch_fill(f, a, x, N, SGT_NEW); /* writes X on A */
#ifdef SG_EVENT_WAIT
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_CHECK(cuStreamWaitEvent(NULL, e, 0));
#endif
    SGT_CHECK(cuMemcpyDtoDAsync(y, x, N * sizeof(uint32_t), NULL)); /* reads X, legacy stream */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(NULL));
    SGT_CHECK(cuStreamSynchronize(a));
    static uint32_t out[N];
    SGT_CHECK(cuMemcpyDtoH(out, y, sizeof out));
    return sgt_verdict(SGT_COUNT_WRONG(out, N, SGT_NEW), "Y after both streams");
}
