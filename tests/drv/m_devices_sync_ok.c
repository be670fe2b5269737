/* m_devices_sync_ok: several devices.  The copy runs on a stream of device
 * 1's primary context and the host synchronizes that context: no race.
 * Needs two devices (SGEMU_DEVICES=2).  Twin: m_devices_sync_other_race.
 *
 * SG-EXPECT: silent
 * SG-EMU-ONLY
 */
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
    CUdevice d1;
    SGT_CHECK(cuDeviceGet(&d1, 1));
    SGT_CHECK(cuDevicePrimaryCtxRetain(&ctx1, d1));
    SGT_CHECK(cuCtxPushCurrent(ctx1));                  /* device 1 */
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    (void)ctx0;
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuCtxSynchronize());      /* device 1's context, current */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuCtxSynchronize of device 1");
}
