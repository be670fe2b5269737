/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_stream_wait_event: happens-before is transitive across streams.  The
 * copy runs on stream A, an event recorded after it on A is made a
 * dependency of stream B (cuStreamWaitEvent), a second event is recorded on
 * B, and the host synchronizes only that second event.  Its completion
 * implies the copy's, so the read afterwards is no race.
 * Twin of d2h_other_stream_sync_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent on_a = sgt_event(), on_b = sgt_event();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(on_a, a));
    SGT_CHECK(cuStreamWaitEvent(b, on_a, 0));
    SGT_CHECK(cuEventRecord(on_b, b));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(on_b)); /* waits for the copy: releases the hold */

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuEventDestroy(on_a));
    SGT_CHECK(cuEventDestroy(on_b));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
    return sgt_verdict(wrong, "after cuEventSynchronize on B's event");
}
