/* SPDX-License-Identifier: Apache-2.0 */
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
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_legacy_nonblocking_race.c (the lines under #ifdef SG_TWIN are the
 * twin's). */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent ev = sgt_event();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

#ifdef SG_TWIN /* d2h_legacy_nonblocking_race */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuEventRecord(ev, NULL)); /* legacy stream: not after s's copy */
#else
    SGT_CHECK(cuEventRecord(ev, s));    /* the mistake: before the copy */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#endif
    SGT_CHECK(cuEventSynchronize(ev));
    sgt_release_when_host_waits(hold);

    /* The race: the event completed without waiting for the copy. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuEventDestroy(ev));
    SGT_CHECK(cuStreamDestroy(s));
#ifdef SG_TWIN /* d2h_legacy_nonblocking_race */
    return sgt_race_verdict(early, late, "after cuStreamSynchronize(A)");
#else
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
#endif
}
