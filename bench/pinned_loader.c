/* SPDX-License-Identifier: Apache-2.0 */
/* The copy pattern of a PyTorch training loop fed by a pinned-memory
 * DataLoader, in C against the driver API, so that syncguard's share of a
 * step can be measured and profiled without PyTorch: on the GPU machine,
 * or on the development machine against the CPU emulation of the driver
 * (tests/emu), where perf works.
 *
 *   cc -O2 -pthread -I/usr/local/cuda/include bench/pinned_loader.c \
 *      -o pinned_loader -L<dir of libcuda.so> -lcuda
 *   ./pinned_loader [STEPS [BATCH_MIB]]      (default 300 steps of 6 MiB)
 *
 * A loader thread fills batches (BATCH_MIB of pinned memory each) and their
 * labels (1 KiB each, four to a pinned page, as the driver packs small
 * pinned allocations) in a ring of four slots. The main thread, per step,
 * copies the slot's batch and labels host-to-device on its stream, enqueues
 * some device work, synchronizes the stream (as loss.item() does), and
 * hands the slot back. So the loader writes the next labels next to labels
 * whose copy is still in flight: syncguard's neighbour faults.
 * Prints "pinned_loader,STEPS,US_PER_STEP" (after 30 warmup steps). */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "now_us.h"

#define SLOTS 4
#define LABEL_BYTES 1024
#define WARMUP 30

#define CK(call)                                                                      \
    do {                                                                              \
        CUresult r_ = (call);                                                         \
        if (r_ != CUDA_SUCCESS) {                                                     \
            fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call, (int)r_); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

struct slot {
    unsigned char *batch, *labels;
    int full; /* filled by the loader, not yet consumed */
};

static struct slot ring[SLOTS];
static size_t batch_bytes;
static int total_steps;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

static void *loader(void *arg)
{
    (void)arg;
    for (int step = 0; step < total_steps; step++) {
        struct slot *s = &ring[step % SLOTS];
        pthread_mutex_lock(&lock);
        while (s->full)
            pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        memset(s->batch, step & 0xff, batch_bytes); /* collate into pinned memory */
        memset(s->labels, step & 0x0f, LABEL_BYTES);
        pthread_mutex_lock(&lock);
        s->full = 1;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 300;
    int mib = argc > 2 ? atoi(argv[2]) : 6;
    if (steps < 1 || mib < 1) {
        fprintf(stderr, "usage: %s [STEPS>=1 [BATCH_MIB>=1]]\n", argv[0]);
        return 2;
    }
    total_steps = steps + WARMUP;
    batch_bytes = (size_t)mib << 20;
    CUdevice d;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, d));
    CK(cuCtxSetCurrent(ctx));
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dbatch, dlabels, work;
    CK(cuMemAlloc(&dbatch, batch_bytes));
    CK(cuMemAlloc(&dlabels, LABEL_BYTES));
    CK(cuMemAlloc(&work, 1 << 20));
    unsigned char *label_page;
    CK(cuMemAllocHost((void **)&label_page, SLOTS * LABEL_BYTES));
    for (int i = 0; i < SLOTS; i++) {
        CK(cuMemAllocHost((void **)&ring[i].batch, batch_bytes));
        ring[i].labels = label_page + i * LABEL_BYTES;
    }
    pthread_t t;
    pthread_create(&t, NULL, loader, NULL);
    double t0 = 0;
    for (int step = 0; step < total_steps; step++) {
        if (step == WARMUP)
            t0 = now_us();
        struct slot *sl = &ring[step % SLOTS];
        pthread_mutex_lock(&lock);
        while (!sl->full)
            pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        CK(cuMemcpyHtoDAsync(dbatch, sl->batch, batch_bytes, s));
        CK(cuMemcpyHtoDAsync(dlabels, sl->labels, LABEL_BYTES, s));
        for (int k = 0; k < 8; k++) /* the model's kernels */
            CK(cuMemsetD32Async(work, (unsigned)k, (1 << 20) / 4, s));
        CK(cuStreamSynchronize(s)); /* loss.item() */
        pthread_mutex_lock(&lock);
        sl->full = 0;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    double us = (now_us() - t0) / steps;
    pthread_join(t, NULL);
    printf("pinned_loader,%d,%.1f\n", steps, us);
    return 0;
}
