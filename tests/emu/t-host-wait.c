/* SPDX-License-Identifier: Apache-2.0 */
/* sgemu_release_on_host_wait fires when a host thread is about to block in
 * the emulator (stream, event, context synchronisation, synchronous
 * copies), never on non-blocking queries.  The flags are the test's own, so
 * it can see exactly when the emulator stored to them. */
#include "sgemu.h"
#include "t-util.h"

#define N 512

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
    return pass("t-host-wait", "host-wait releases fire on blocking calls only");
}
