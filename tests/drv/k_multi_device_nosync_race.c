/* SPDX-License-Identifier: Apache-2.0 */
/* k_multi_device_nosync_race: cuLaunchCooperativeKernelMultiDevice on two
 * devices, kernels on stream A (device 0) and stream B (device 1), B
 * holding a copy into pinned memory before the launch.  With
 * CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC and
 * ..._NO_POST_LAUNCH_SYNC each kernel waits for its own stream only:
 * synchronizing A says nothing about B's copy, and reading it is a race.
 * Twin: k_multi_device_presync_ok (default flags: "the kernel won't begin
 * execution on any GPU until all prior work in all the specified streams
 * has completed", so synchronizing A observes B's copy).  Needs two
 * devices: the emulator makes two (SGEMU_DEVICES=2); skipped on a machine
 * with one, or whose driver no longer supports the call.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*k_multi_device_nosync_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * k_multi_device_presync_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include "k_launch.h"

#ifdef SG_TWIN /* k_multi_device_presync_ok */
#define FLAGS 0u
#else
#define FLAGS (CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC | CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC)
#endif

/* sgt_fill's entry of the launch: p[0..SGT_WORDS) = 0 on s. */
struct entry {
    CUdeviceptr p;
    unsigned int n, v;
    void *params[3];
};

static CUDA_LAUNCH_PARAMS entry_on(struct entry *e, CUfunction f, CUstream s, CUdeviceptr p)
{
    e->p = p, e->n = SGT_WORDS, e->v = 0;
    e->params[0] = &e->p, e->params[1] = &e->n, e->params[2] = &e->v;
    return (CUDA_LAUNCH_PARAMS){ f, 1, 1, 1, 1, 1, 1, 0, s, e->params };
}

int main(void)
{
    sgt_watchdog(60);
    setenv("SGEMU_DEVICES", "2", 1); /* the emulator reads it at cuInit */
    sgt_init();
    int ndev = 0;
    SGT_CHECK(cuDeviceGetCount(&ndev));
    if (ndev < 2) {
        printf("SKIP: needs two devices, this machine has %d\n", ndev);
        return 77;
    }
    k_load_kernels(); /* device 0's module, before any hold */
    CUfunction f0 = sgt_kernel("sgt_fill"), f1;
    CUdeviceptr scratch0 = sgt_device_words(SGT_WORDS, 1);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdevice d1;
    CUcontext ctx1;
    CUmodule m1;
    SGT_CHECK(cuDeviceGet(&d1, 1));
    SGT_CHECK(cuDevicePrimaryCtxRetain(&ctx1, d1));
    SGT_CHECK(cuCtxPushCurrent(ctx1)); /* device 1 */
    SGT_CHECK(cuModuleLoadData(&m1, sgt_kernels_ptx));
    SGT_CHECK(cuModuleGetFunction(&f1, m1, "sgt_fill"));
    CUdeviceptr dev, scratch1 = sgt_device_words(SGT_WORDS, 1);
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(b);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, b)); /* B's prior work */
    SGT_CHECK(cuCtxPopCurrent(NULL));

    struct entry ea, eb;
    CUDA_LAUNCH_PARAMS list[2] = { entry_on(&ea, f0, a, scratch0), entry_on(&eb, f1, b, scratch1) };
#ifdef SG_TWIN /* A's kernel waits for B's copy */
    sgt_release_when_host_waits(hold);
#endif
    k_multi_device(list, 2, FLAGS);
    SGT_CHECK(cuStreamSynchronize(a));
#ifndef SG_TWIN /* A's kernel waited for A alone */
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing A");
}
