/* SPDX-License-Identifier: Apache-2.0 */
/* m_devices_sync_other_race: several devices.  The copy runs on a stream of
 * device 1's primary context; the host synchronizes device 0's context
 * (cuCtxSynchronize with it current): that covers nothing of device 1.
 * Needs two devices: the emulator makes two (SGEMU_DEVICES=2); on a GPU
 * machine with one it is skipped.  Twin: m_devices_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_devices_sync_other_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_devices_sync_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    setenv("SGEMU_DEVICES", "2", 1);    /* the emulator reads it at cuInit */
    CUcontext ctx0 = sgt_init(), ctx1;
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
    sgt_buffers(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#ifdef SG_TWIN /* m_devices_sync_ok */
    (void)ctx0;
#else
    SGT_CHECK(cuCtxPushCurrent(ctx0));
    SGT_CHECK(cuCtxSynchronize());      /* device 0: idle */
    SGT_CHECK(cuCtxPopCurrent(NULL));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_devices_sync_ok */
    SGT_CHECK(cuCtxSynchronize());      /* device 1's context, current */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxSynchronize of device 1");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxSynchronize of device 0");
#endif
}
