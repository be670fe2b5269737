/* SPDX-License-Identifier: Apache-2.0 */
/* cuStreamWaitEvent orders streams: work on the waiting stream after the
 * wait follows the event's captured work. */
#include "t-util.h"

#define N 2048

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream s1, s2;
    SGT_CHECK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *h = pinned_zeroed(N);

    sgt_hold *hold = sgt_hold_stream(s1);
    mark_on(s1, d, N);                 /* what the copy must see */
    SGT_CHECK(cuEventRecord(ev, s1));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_ERROR_NOT_READY);
    SGT_CHECK(cuStreamWaitEvent(s2, ev, 0));
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, N, s2));
    SGT_EXPECT(cuStreamQuery(s2) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(h, N));

    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s2));
    SGT_EXPECT(all_marked(h, N));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_SUCCESS);

    /* Waiting on a completed event orders nothing. */
    hold = sgt_hold_stream(s1);
    SGT_CHECK(cuStreamWaitEvent(s2, ev, 0));
    SGT_CHECK(cuStreamSynchronize(s2));
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s1));
    return pass("t-wait-event", "cuStreamWaitEvent makes later work wait for the captured work");
}
