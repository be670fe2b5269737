/* SPDX-License-Identifier: Apache-2.0 */
/* t-launch: the launch calls besides cuLaunchKernel (emu/kernel_legacy.c,
 * emu/kernel_multi.c, the event attributes of cuLaunchKernelEx): the
 * pre-4.0 API launches the parameters left with the function, read at the
 * call; a multi-device cooperative launch orders its streams before and
 * after the kernels unless told not to; a launch completion event fires
 * when the kernel begins, a programmatic one when its blocks trigger it
 * (at their start with triggerAtBlockStart, else at their end). */
#define CUDA_ENABLE_DEPRECATED 1 /* the pre-4.0 API and the multi-device launch */
#include <stdlib.h>

#include "sgt_kernels.h"
#include "t-util.h"

#define WORDS 1024u

static bool all_words(const uint32_t *h, uint32_t v)
{
    for (unsigned i = 0; i < WORDS; i++)
        if (h[i] != v)
            return false;
    return true;
}

static uint32_t *pinned_words(void)
{
    uint32_t *h;
    SGT_CHECK(cuMemAllocHost((void **)&h, WORDS * 4));
    memset(h, 0, WORDS * 4);
    return h;
}

/* cuParamSet* then cuLaunchGridAsync, held: the launch runs after the
 * release with the values set before it, not those set after. */
static void check_legacy(CUfunction f, CUstream s)
{
    uint32_t *h = pinned_words();
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)h;
    SGT_CHECK(cuParamSetv(f, 0, &p, sizeof p));
    SGT_CHECK(cuParamSeti(f, 8, WORDS));
    SGT_CHECK(cuParamSeti(f, 12, 7));
    SGT_CHECK(cuParamSetSize(f, 16));
    SGT_CHECK(cuFuncSetBlockShape(f, 1, 1, 1));
    SGT_EXPECT(cuParamSetv(f, 4095, &p, sizeof p) == CUDA_ERROR_INVALID_VALUE);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuLaunchGridAsync(f, 1, 1, s));
    SGT_CHECK(cuParamSeti(f, 12, 9)); /* for the next launch */
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_words(h, 0));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(all_words(h, 7));
    SGT_CHECK(cuLaunch(f)); /* the legacy stream, the new value */
    SGT_CHECK(cuStreamSynchronize(NULL));
    SGT_EXPECT(all_words(h, 9));
    SGT_CHECK(cuMemFreeHost(h));
}

/* A kernel that waits for the gate (flag, value), then writes 5 to h,
 * launched with one event attribute. */
static CUresult gated_launch(CUstream s, CUdeviceptr flag, cuuint32_t value, uint32_t *h, CUlaunchAttribute *attr)
{
    struct sgt_gate g = { flag, value, 0 };
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)h;
    unsigned n = WORDS, v = 5;
    void *params[] = { &g, &p, &n, &v };
    CUlaunchConfig cfg = { .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1, .blockDimY = 1,
                           .blockDimZ = 1, .hStream = s, .attrs = attr, .numAttrs = 1 };
    return cuLaunchKernelEx(&cfg, sgt_kernel("sgt_gated_fill"), params, NULL);
}

static CUlaunchAttribute event_attribute(CUlaunchAttributeID id, CUevent e, int at_start)
{
    CUlaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = id;
    if (id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
        a.value.programmaticEvent.event = e, a.value.programmaticEvent.triggerAtBlockStart = at_start;
    else
        a.value.launchCompletionEvent.event = e;
    return a;
}

/* The event of an attribute while the kernel waits at its gate: complete
 * already (it fires as the kernel begins) or not; an event that keeps
 * timing is refused. */
static void check_event(CUstream s, CUlaunchAttributeID id, int at_start, bool fired_while_gated)
{
    uint32_t *h = pinned_words();
    CUevent e = sgt_event(), timed;
    CUdeviceptr flag;
    cuuint32_t value;
    sgt_hold *gate = sgt_hold_gate(&flag, &value);
    CUlaunchAttribute a = event_attribute(id, e, at_start);
    SGT_CHECK(gated_launch(s, flag, value, h, &a));
    if (fired_while_gated)
        SGT_CHECK(cuEventSynchronize(e)); /* returns although the kernel cannot end */
    else
        SGT_EXPECT(cuEventQuery(e) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    sgt_release(gate);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuEventQuery(e));
    SGT_EXPECT(all_words(h, 5));
    SGT_CHECK(cuEventCreate(&timed, 0)); /* "The event must disable timing" */
    a = event_attribute(id, timed, at_start);
    SGT_EXPECT(gated_launch(s, flag, value, h, &a) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuEventDestroy(timed));
    SGT_CHECK(cuEventDestroy(e));
    SGT_CHECK(cuMemFreeHost(h));
}

/* One sgt_fill entry of a multi-device launch, writing v to p. */
struct entry {
    CUdeviceptr p;
    unsigned n, v;
    void *params[3];
};

static CUDA_LAUNCH_PARAMS entry(struct entry *e, CUfunction f, CUstream s, uint32_t *h, unsigned v)
{
    e->p = (CUdeviceptr)(uintptr_t)h, e->n = WORDS, e->v = v;
    e->params[0] = &e->p, e->params[1] = &e->n, e->params[2] = &e->v;
    return (CUDA_LAUNCH_PARAMS){ f, 1, 1, 1, 1, 1, 1, 0, s, e->params };
}

/* Streams a (device 0) and b (device 1, held): by default a's kernel waits
 * for b's held work; without the pre-launch sync it does not, but a's
 * later work waits for b's kernel; without both, a is free. */
static void check_multi(CUfunction f0, CUfunction f1, CUstream a, CUstream b)
{
    uint32_t *ha = pinned_words(), *hb = pinned_words();
    struct entry ea, eb;
    CUDA_LAUNCH_PARAMS list[2] = { entry(&ea, f0, a, ha, 1), entry(&eb, f1, b, hb, 2) };
    sgt_hold *hold = sgt_hold_stream(b);
    SGT_CHECK(cuLaunchCooperativeKernelMultiDevice(list, 2, 0));
    SGT_EXPECT(cuStreamQuery(a) == CUDA_ERROR_NOT_READY && all_words(ha, 0));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(a));
    SGT_EXPECT(all_words(ha, 1) && all_words(hb, 2));

    hold = sgt_hold_stream(b);
    list[0] = entry(&ea, f0, a, ha, 3);
    SGT_CHECK(cuLaunchCooperativeKernelMultiDevice(list, 2, CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC));
    CUevent kernel_done = sgt_event();
    SGT_CHECK(cuEventRecord(kernel_done, a)); /* after the post-launch wait */
    SGT_EXPECT(cuEventQuery(kernel_done) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    SGT_CHECK(cuEventSynchronize(kernel_done));
    SGT_EXPECT(all_words(ha, 3));

    hold = sgt_hold_stream(b);
    list[0] = entry(&ea, f0, a, ha, 4);
    SGT_CHECK(cuLaunchCooperativeKernelMultiDevice(list, 2, CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
                                                                 CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC));
    SGT_CHECK(cuStreamSynchronize(a)); /* returns with b still held */
    SGT_EXPECT(all_words(ha, 4) && cuStreamQuery(b) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(b));

    list[1].hStream = NULL;
    SGT_EXPECT(cuLaunchCooperativeKernelMultiDevice(list, 2, 0) == CUDA_ERROR_INVALID_HANDLE);
    list[1].hStream = a; /* two launches on one device */
    SGT_EXPECT(cuLaunchCooperativeKernelMultiDevice(list, 2, 0) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuMemFreeHost(ha));
    SGT_CHECK(cuMemFreeHost(hb));
}

int main(void)
{
    sgt_watchdog(30);
    setenv("SGEMU_DEVICES", "2", 1);
    sgt_init();
    CUfunction f = sgt_kernel("sgt_fill");
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    check_legacy(f, a);
    check_event(a, CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, 0, true);
    check_event(a, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, 1, true);
    check_event(a, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, 0, false);

    CUdevice d1;
    CUcontext c1;
    CUmodule m1;
    CUfunction f1;
    CUstream b;
    SGT_CHECK(cuDeviceGet(&d1, 1));
    SGT_CHECK(cuDevicePrimaryCtxRetain(&c1, d1));
    SGT_CHECK(cuCtxPushCurrent(c1));
    SGT_CHECK(cuModuleLoadData(&m1, sgt_kernels_ptx));
    SGT_CHECK(cuModuleGetFunction(&f1, m1, "sgt_fill"));
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuCtxPopCurrent(NULL));
    check_multi(f, f1, a, b);
    printf("PASS: t-launch\n");
    return 0;
}
