/* d2h_legacy_nonblocking_race: as d2h_legacy_covers_blocking, but the copy
 * runs on a NON-BLOCKING stream, which the legacy default stream does not
 * wait for: the event recorded on stream NULL says nothing about the copy,
 * and reading the pinned destination after synchronizing it is a race.
 *
 * The stream's hold is set to go at the next host wait only after
 * cuEventSynchronize (which must not be what lets the copy run), so
 * without syncguard the read sees the old data.
 *
 * SG-EXPECT: early-host-read
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(ev, NULL)); /* legacy stream: not after A's copy */
    SGT_CHECK(cuEventSynchronize(ev));
    sgt_release_when_host_waits(hold);

    /* The race: the legacy stream does not wait for non-blocking streams. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(a));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuEventDestroy(ev));
    SGT_CHECK(cuStreamDestroy(a));
    return sgt_race_verdict(early, late, "after cuStreamSynchronize(A)");
}
