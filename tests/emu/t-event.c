/* SPDX-License-Identifier: Apache-2.0 */
/* Events: a never-recorded event is complete; re-recording replaces the
 * captured work; elapsed time needs two completed timed records. */
#include "sgemu.h"
#include "t-util.h"

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream held, free_s;
    SGT_CHECK(cuStreamCreate(&held, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&free_s, CU_STREAM_NON_BLOCKING));
    CUevent ev, a, b;
    SGT_CHECK(cuEventCreate(&ev, 0));
    SGT_CHECK(cuEventCreate(&a, 0));
    SGT_CHECK(cuEventCreate(&b, 0));

    /* Never recorded: complete; synchronising with it does not block, so
     * it must not fire a pending host-wait release either. */
    volatile cuuint32_t *flag = (volatile cuuint32_t *)pinned_zeroed(sizeof *flag);
    SGT_CHECK(cuStreamWaitValue32(held, (CUdeviceptr)(uintptr_t)flag, 1, CU_STREAM_WAIT_VALUE_GEQ));
    sgemu_release_on_host_wait((CUdeviceptr)(uintptr_t)flag, 1);
    SGT_EXPECT(cuEventQuery(ev) == CUDA_SUCCESS);
    SGT_CHECK(cuEventSynchronize(ev));
    SGT_EXPECT(*flag == 0);
    float ms;
    SGT_EXPECT(cuEventElapsedTime(&ms, ev, ev) == CUDA_ERROR_INVALID_HANDLE);

    /* Recorded behind the hold: not ready; re-recorded on a free stream:
     * the new capture decides. */
    SGT_CHECK(cuEventRecord(ev, held));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_ERROR_NOT_READY);
    SGT_CHECK(cuEventRecord(ev, free_s));
    SGT_CHECK(cuStreamSynchronize(free_s));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_SUCCESS);

    /* Timing. */
    SGT_CHECK(cuEventRecord(a, free_s));
    SGT_CHECK(cuEventRecord(b, free_s));
    SGT_CHECK(cuEventSynchronize(b));
    SGT_CHECK(cuEventElapsedTime(&ms, a, b));
    SGT_EXPECT(ms >= 0.0f);

    SGT_CHECK(cuStreamSynchronize(held));       /* fires the release if still pending */
    SGT_EXPECT(*flag == 1);
    SGT_CHECK(cuEventDestroy(ev));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_ERROR_INVALID_HANDLE);
    return pass("t-event", "never-recorded events are complete, re-recording replaces the capture");
}
