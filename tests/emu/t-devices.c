/* SPDX-License-Identifier: Apache-2.0 */
/* Several devices (SGEMU_DEVICES=2, read by cuInit): each has its own
 * primary context; created contexts belong to their device; streams to
 * their context; cuCtxSynchronize covers the current context only. */
#include "sgemu.h"
#include "t-util.h"

#include <stdlib.h>

#define N 1024

int main(void)
{
    sgt_watchdog(30);
    setenv("SGEMU_DEVICES", "2", 1);
    CUcontext p0 = sgt_init(), p1, c1, cur;
    int count = 0;
    SGT_CHECK(cuDeviceGetCount(&count));
    SGT_EXPECT(count == 2);
    CUdevice dev1, got;
    SGT_CHECK(cuDeviceGet(&dev1, 1));
    SGT_CHECK(cuDevicePrimaryCtxRetain(&p1, dev1));
    SGT_EXPECT(p1 != p0);
    SGT_CHECK(cuCtxPushCurrent(p1));
    SGT_CHECK(cuCtxGetDevice(&got));
    SGT_EXPECT(got == 1);
    SGT_CHECK(cuCtxCreate(&c1, NULL, 0, dev1));        /* made current */
    SGT_CHECK(cuCtxGetDevice(&got));
    SGT_EXPECT(got == 1);

    /* A stream of device 1's created context, held. */
    CUstream s1;
    SGT_CHECK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamGetCtx(s1, &cur));
    SGT_EXPECT(cur == c1);
    SGT_CHECK(cuStreamGetDevice(s1, &got));
    SGT_EXPECT(got == 1);
    CUdeviceptr dev = device_with_pattern(N, 5);
    unsigned char *host = pinned_zeroed(N);
    volatile cuuint32_t *flag = (volatile cuuint32_t *)pinned_zeroed(sizeof *flag);
    SGT_CHECK(cuStreamWaitValue32(s1, (CUdeviceptr)(uintptr_t)flag, 1, CU_STREAM_WAIT_VALUE_GEQ));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, N, s1));
    sgemu_release_on_host_wait((CUdeviceptr)(uintptr_t)flag, 1);

    /* Device 0's context and device 1's primary one are idle: their
     * synchronisation does not block (the release does not fire). */
    SGT_CHECK(cuCtxPushCurrent(p0));
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuCtxPopCurrent(NULL));
    SGT_CHECK(cuCtxSynchronize_v2(p1));
    SGT_EXPECT(*flag == 0 && cuStreamQuery(s1) == CUDA_ERROR_NOT_READY && all_zero(host, N));

    /* The stream's own context covers it. */
    SGT_CHECK(cuCtxSynchronize());
    SGT_EXPECT(*flag == 1 && has_pattern(host, N, 5));

    /* Peer copies between the two devices' contexts. */
    CUdeviceptr d0;
    SGT_CHECK(cuCtxPushCurrent(p0));
    SGT_CHECK(cuMemAlloc(&d0, N));
    SGT_CHECK(cuMemcpyPeer(d0, p0, dev, c1, N));
    unsigned char back[N];
    SGT_CHECK(cuMemcpyDtoH(back, d0, N));
    SGT_EXPECT(has_pattern(back, N, 5));
    SGT_EXPECT(cuDeviceGet(&got, 2) == CUDA_ERROR_INVALID_DEVICE);
    return pass("t-devices", "two devices: own primary contexts, per-context synchronisation");
}
