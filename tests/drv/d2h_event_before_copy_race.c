/* d2h_event_before_copy_race: the event the host synchronizes with was
 * recorded on the copy's stream BEFORE the cuMemcpyDtoHAsync, so
 * cuEventSynchronize returning says nothing about the copy: reading the
 * pinned destination afterwards is a race.  Twin: d2h_event_sync.
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
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

    SGT_CHECK(cuEventRecord(ev, s));    /* the mistake: before the copy */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuEventSynchronize(ev));
    sgt_release_when_host_waits(hold);

    /* The race: the event completed before the copy started. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuEventDestroy(ev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
}
