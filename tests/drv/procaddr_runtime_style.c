/* SPDX-License-Identifier: Apache-2.0 */
/* procaddr_runtime_style: a program that reaches the driver the way the CUDA
 * runtime does: dlopen("libcuda.so.1"), dlsym "cuGetProcAddress_v2", ask it
 * for "cuGetProcAddress" (version 12000), and from then on take every entry
 * point from that function (each at its ABI version, cuMemcpyDtoHAsync at
 * 3020) and call only those pointers.  syncguard must see the copy and the
 * synchronization through these pointers too: the early read of the pinned
 * destination is reported.  Twin: procaddr_runtime_style_sync.
 *
 * Only the test hold (sgtest) calls the driver directly, once the context
 * is current.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * procaddr_runtime_style_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

typedef CUresult (*getproc_fn)(const char *, void **, int, cuuint64_t,
                               CUdriverProcAddressQueryResult *);

static getproc_fn get_proc;

static struct {
    CUresult (*init)(unsigned int);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*primary_ctx_retain)(CUcontext *, CUdevice);
    CUresult (*ctx_set_current)(CUcontext);
    CUresult (*ctx_synchronize)(void);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memset_d32)(CUdeviceptr, unsigned int, size_t);
    CUresult (*mem_alloc_host)(void **, size_t);
    CUresult (*mem_free_host)(void *);
    CUresult (*stream_create)(CUstream *, unsigned int);
    CUresult (*stream_destroy)(CUstream);
    CUresult (*stream_synchronize)(CUstream);
    CUresult (*memcpy_dtoh_async)(void *, CUdeviceptr, size_t, CUstream);
} drv;

static void *lookup(const char *name, int version)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status;
    CUresult r = get_proc(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || !fn) {
        fprintf(stderr, "cuGetProcAddress(%s, %d): error %d, status %d\n", name, version, (int)r,
                (int)status);
        exit(2);
    }
    return fn;
}

static void load_driver(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen libcuda.so.1: %s\n", dlerror());
        exit(2);
    }
    getproc_fn bootstrap = (getproc_fn)dlsym(lib, "cuGetProcAddress_v2");
    if (!bootstrap) {
        fprintf(stderr, "dlsym cuGetProcAddress_v2: %s\n", dlerror());
        exit(2);
    }
    get_proc = bootstrap;
    get_proc = (getproc_fn)lookup("cuGetProcAddress", 12000);
    *(void **)&drv.init = lookup("cuInit", 2000);
    *(void **)&drv.device_get = lookup("cuDeviceGet", 2000);
    *(void **)&drv.primary_ctx_retain = lookup("cuDevicePrimaryCtxRetain", 7000);
    *(void **)&drv.ctx_set_current = lookup("cuCtxSetCurrent", 4000);
    *(void **)&drv.ctx_synchronize = lookup("cuCtxSynchronize", 2000);
    *(void **)&drv.mem_alloc = lookup("cuMemAlloc", 3020);
    *(void **)&drv.mem_free = lookup("cuMemFree", 3020);
    *(void **)&drv.memset_d32 = lookup("cuMemsetD32", 3020);
    *(void **)&drv.mem_alloc_host = lookup("cuMemAllocHost", 3020);
    *(void **)&drv.mem_free_host = lookup("cuMemFreeHost", 2000);
    *(void **)&drv.stream_create = lookup("cuStreamCreate", 2000);
    *(void **)&drv.stream_destroy = lookup("cuStreamDestroy", 4000);
    *(void **)&drv.stream_synchronize = lookup("cuStreamSynchronize", 2000);
    *(void **)&drv.memcpy_dtoh_async = lookup("cuMemcpyDtoHAsync", 3020);
}

int main(void)
{
    sgt_watchdog(60);
    load_driver();
    SGT_CHECK(drv.init(0));
    CUdevice d;
    SGT_CHECK(drv.device_get(&d, 0));
    CUcontext ctx;
    SGT_CHECK(drv.primary_ctx_retain(&ctx, d));
    SGT_CHECK(drv.ctx_set_current(ctx));
    CUstream s;
    SGT_CHECK(drv.stream_create(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(drv.mem_alloc(&dev, SGT_BYTES));
    SGT_CHECK(drv.memset_d32(dev, SGT_NEW, SGT_WORDS));
    SGT_CHECK(drv.ctx_synchronize());   /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(drv.mem_alloc_host((void **)&host, SGT_BYTES));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(drv.memcpy_dtoh_async(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* procaddr_runtime_style_sync */
    SGT_CHECK(drv.stream_synchronize(s)); /* waits for the copy: releases the hold */
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(drv.stream_synchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#endif
    SGT_CHECK(drv.mem_free_host(host));
    SGT_CHECK(drv.mem_free(dev));
    SGT_CHECK(drv.stream_destroy(s));
#ifdef SG_TWIN /* procaddr_runtime_style_sync */
    return sgt_verdict(wrong, "after cuStreamSynchronize");
#else
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
#endif
}
