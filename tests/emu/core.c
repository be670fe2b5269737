/* SPDX-License-Identifier: Apache-2.0 */
/* core.c - the global lock, progress notification, cuInit. */
#include "emu.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t emu_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t emu_progress = PTHREAD_COND_INITIALIZER;
static bool initialized;
static int device_count;

void emu_lock(void)
{
    pthread_mutex_lock(&emu_mutex);
}

void emu_unlock(void)
{
    pthread_mutex_unlock(&emu_mutex);
    emu_run_after_enqueue(); /* a test's hook, once the work is queued */
}

void emu_broadcast(void)
{
    pthread_cond_broadcast(&emu_progress);
}

void emu_wait_progress(long timeout_ns)
{
    if (timeout_ns <= 0) {
        pthread_cond_wait(&emu_progress, &emu_mutex);
        return;
    }
    /* Monotonic so that a clock step cannot stretch a polling interval. */
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += timeout_ns;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    pthread_cond_clockwait(&emu_progress, &emu_mutex, CLOCK_MONOTONIC, &t);
}

CUresult emu_check_init(void)
{
    return initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

int emu_device_count(void)
{
    return device_count;
}

CUresult emu_device_check(CUdevice dev)
{
    return dev >= 0 && dev < device_count ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult emu_check_init_device(CUdevice dev)
{
    CUresult r = emu_check_init();
    return r == CUDA_SUCCESS ? emu_device_check(dev) : r;
}

void emu_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("sgemu: fatal: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void *emu_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        emu_fatal("out of host memory (%zu bytes)", n);
    return q;
}

void *emu_grow(void *v, size_t n, size_t *cap, size_t elem_size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? 2 * *cap : 8;
    return emu_xrealloc(v, *cap * elem_size);
}

void *emu_xmalloc(size_t n)
{
    return emu_xrealloc(NULL, n);
}

void *emu_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        emu_fatal("out of host memory (%zu x %zu bytes)", n, size);
    return p;
}

/* SGEMU_DEVICES lets CI pretend to have several (or zero) devices. */
static int devices_from_env(void)
{
    const char *s = getenv("SGEMU_DEVICES");
    if (!s || !*s)
        return 1;
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (errno || *end || n < 0)
        return 1;
    return n > EMU_MAX_DEVICES ? EMU_MAX_DEVICES : (int)n;
}

CUresult CUDAAPI cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = CUDA_SUCCESS;
    if (!initialized) {
        int n = devices_from_env();
        if (n == 0)
            r = CUDA_ERROR_NO_DEVICE;
        else if ((r = emu_dma_init()) == CUDA_SUCCESS) {
            device_count = n;
            initialized = true;
        }
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = EMU_DRIVER_VERSION;
    return CUDA_SUCCESS;
}
