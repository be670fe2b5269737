/* m_devices_sync_other_race: several devices.  The copy runs on a stream of
 * device 1's primary context; the host synchronizes device 0's context
 * (cuCtxSynchronize with it current): that covers nothing of device 1.
 * Needs two devices (SGEMU_DEVICES=2).  Twin: m_devices_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_devices_sync_other_race
 * SG-EMU-ONLY
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, unsigned n, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

/* Device memory holding NEW and a pinned host buffer holding OLD, in the
 * current context, with no work pending. */
static void buffers(CUdeviceptr *dev, uint32_t **host)
{
    SGT_CHECK(cuMemAlloc(dev, BYTES));
    SGT_CHECK(cuMemsetD32(*dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuMemAllocHost((void **)host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        (*host)[i] = OLD;
}

static int verdict(unsigned wrong, const char *when)
{
    printf("%s: %u of %u words wrong\n", when, wrong, WORDS);
    if (wrong) {
        printf("check: MISMATCH the read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

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
    buffers(&dev, &host);
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    SGT_CHECK(cuCtxPushCurrent(ctx0));
    SGT_CHECK(cuCtxSynchronize());      /* device 0: idle */
    SGT_CHECK(cuCtxPopCurrent(NULL));
    sgt_release_when_host_waits(hold);
    return verdict(count_wrong(host, WORDS, NEW), "after cuCtxSynchronize of device 0");
}
