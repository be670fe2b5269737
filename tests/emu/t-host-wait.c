/* SPDX-License-Identifier: Apache-2.0 */
/* sgemu_release_on_host_wait fires when a host thread is about to block in
 * the emulator (stream, event, context synchronisation, synchronous
 * copies), never on non-blocking queries.  The flags are the test's own, so
 * it can see exactly when the emulator stored to them. */
#include <sys/syscall.h>
#include <unistd.h>

#include "sgemu.h"
#include "t-util.h"

#define N 512

/* sgemu_call_after_enqueue: what the call-back saw. */
static CUstream after_stream;
static int after_calls;
static long after_tid;
static CUresult after_query;

static void after_enqueue(void *arg)
{
    (void)arg;
    after_calls++;
    after_tid = (long)syscall(SYS_gettid);
    after_query = cuStreamQuery(after_stream); /* the emulator's lock is free */
}

/* Holds s on a fresh flag whose release is registered with the emulator. */
static volatile cuuint32_t *held_with_release(CUstream s)
{
    volatile cuuint32_t *flag = (volatile cuuint32_t *)pinned_zeroed(sizeof *flag);
    CUdeviceptr dflag = (CUdeviceptr)(uintptr_t)flag;
    SGT_CHECK(cuStreamWaitValue32(s, dflag, 1, CU_STREAM_WAIT_VALUE_GEQ));
    sgemu_release_on_host_wait(dflag, 1);
    return flag;
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, 0));

    /* Queries never fire it; the synchronisation does. */
    volatile cuuint32_t *flag = held_with_release(s);
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_CHECK(cuEventRecord(ev, s));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(*flag == 0);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(*flag == 1 && cuStreamQuery(s) == CUDA_SUCCESS);

    /* Synchronising with complete work does not block, so does not fire. */
    flag = held_with_release(s);
    SGT_CHECK(cuStreamSynchronize(NULL));
    SGT_EXPECT(*flag == 0);
    SGT_CHECK(cuEventRecord(ev, s));
    SGT_CHECK(cuEventSynchronize(ev));
    SGT_EXPECT(*flag == 1);

    flag = held_with_release(s);
    SGT_CHECK(cuCtxSynchronize());
    SGT_EXPECT(*flag == 1 && cuStreamQuery(s) == CUDA_SUCCESS);

    /* A synchronous copy on the held legacy stream. */
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char back[N];
    flag = held_with_release(NULL);
    SGT_CHECK(cuMemcpyDtoH(back, d, N));
    SGT_EXPECT(*flag == 1 && has_pattern(back, N, 1));

    /* Every pending registration fires at once, device-memory flags too. */
    CUdeviceptr dflag;
    SGT_CHECK(cuMemAlloc(&dflag, sizeof(cuuint32_t)));
    SGT_CHECK(cuMemsetD32(dflag, 0, 1));
    SGT_CHECK(cuStreamSynchronize(NULL));       /* s does not follow the legacy stream */
    SGT_CHECK(cuStreamWaitValue32(s, dflag, 5, CU_STREAM_WAIT_VALUE_EQ));
    flag = held_with_release(s);
    sgemu_release_on_host_wait(dflag, 5);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(*flag == 1);

    /* sgemu_call_after_enqueue: once, in the enqueuing thread, with the
     * work already queued (behind the hold: not ready), before the call
     * returns; not on calls that enqueue nothing. */
    volatile cuuint32_t *gate = (volatile cuuint32_t *)pinned_zeroed(sizeof *gate);
    SGT_CHECK(cuStreamWaitValue32(s, (CUdeviceptr)(uintptr_t)gate, 1, CU_STREAM_WAIT_VALUE_GEQ));
    after_stream = s;
    sgemu_call_after_enqueue(after_enqueue, NULL);
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY && after_calls == 0);
    SGT_CHECK(cuMemsetD8Async(d, 2, N, s));
    SGT_EXPECT(after_calls == 1 && after_tid == (long)syscall(SYS_gettid));
    SGT_EXPECT(after_query == CUDA_ERROR_NOT_READY);
    SGT_CHECK(cuEventRecord(ev, s));
    SGT_EXPECT(after_calls == 1);
    *gate = 1;
    SGT_CHECK(cuStreamSynchronize(s));
    return pass("t-host-wait", "host-wait releases fire on blocking calls only; after-enqueue call-backs once");
}
