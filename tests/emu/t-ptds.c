/* SPDX-License-Identifier: Apache-2.0 */
/* The per-thread default stream, as a program built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM sees it: NULL is the calling thread's
 * own stream, independent of other threads' ones, and blocking with
 * respect to the legacy default stream. */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "t-util.h"

#include <pthread.h>

#define N 1024

static CUcontext ctx;
static CUdeviceptr dev;

/* Another thread's default stream is not held by ours. */
static void *other_thread(void *arg)
{
    unsigned char *h = arg;
    SGT_CHECK(cuCtxSetCurrent(ctx));
    SGT_CHECK(cuMemcpyDtoHAsync(h, dev, N, NULL));
    SGT_CHECK(cuStreamSynchronize(NULL));
    return NULL;
}

int main(void)
{
    sgt_watchdog(30);
    ctx = sgt_init();
    dev = device_with_pattern(N, 1);
    unsigned char *mine = pinned_zeroed(N), *theirs = pinned_zeroed(N), *legacy = pinned_zeroed(N);

    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);  /* sgtest is built legacy */
    mark_on(NULL, dev, N);             /* held: the other thread must not see it */
    SGT_CHECK(cuMemcpyDtoHAsync(mine, dev, N, NULL));
    pthread_t t;
    SGT_EXPECT(pthread_create(&t, NULL, other_thread, theirs) == 0);
    SGT_EXPECT(pthread_join(t, NULL) == 0);
    SGT_EXPECT(has_pattern(theirs, N, 1));
    SGT_EXPECT(cuStreamQuery(NULL) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(mine, N));

    /* The legacy stream waits for our held per-thread stream. */
    SGT_CHECK(cuMemcpyDtoHAsync(legacy, dev, N, CU_STREAM_LEGACY));
    SGT_EXPECT(cuStreamQuery(CU_STREAM_LEGACY) == CUDA_ERROR_NOT_READY);

    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_LEGACY));
    SGT_EXPECT(all_marked(mine, N) && all_marked(legacy, N));
    return pass("t-ptds", "per-thread default streams are per thread and blocking");
}
