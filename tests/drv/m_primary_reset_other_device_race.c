/* SPDX-License-Identifier: Apache-2.0 */
/* m_primary_reset_other_device_race: several devices.  The copy runs in device 1's primary
 * context; the host resets device 0's primary context
 * (cuDevicePrimaryCtxReset, what cudaDeviceReset does): that waits for
 * device 0's work only, so reading is a race.  Its twin resets device 1's,
 * which completes the copy (the host buffer is program memory registered
 * with the driver, so it outlives the reset).  Needs two devices: the
 * emulator makes two (SGEMU_DEVICES=2); on a GPU machine with one it is
 * skipped.  Twin: m_primary_reset_same_device_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_primary_reset_other_device_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_primary_reset_same_device_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#include <stdlib.h>

int main(void)
{
    sgt_watchdog(60);
    setenv("SGEMU_DEVICES", "2", 1);    /* the emulator reads it at cuInit */
    CUcontext ctx1;
    sgt_init();
    int ndev = 0;
    SGT_CHECK(cuDeviceGetCount(&ndev));
    if (ndev < 2) {
        printf("SKIP: needs two devices, this machine has %d\n", ndev);
        return 77;
    }
    CUdevice d1;
    SGT_CHECK(cuDeviceGet(&d1, 1));
    SGT_CHECK(cuDevicePrimaryCtxRetain(&ctx1, d1));
    SGT_CHECK(cuCtxPushCurrent(ctx1));                  /* device 1 */
    CUdeviceptr dev;
    uint32_t *host;
    sgt_registered_buffers(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold);  /* the reset waits for device 1's work */
    SGT_CHECK(cuDevicePrimaryCtxReset(d1));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after resetting device 1");
#else
    CUdevice d0;
    SGT_CHECK(cuDeviceGet(&d0, 0));
    SGT_CHECK(cuDevicePrimaryCtxReset(d0));     /* device 0: idle */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after resetting device 0");
#endif
}
