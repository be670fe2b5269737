/* SPDX-License-Identifier: Apache-2.0 */
/* m_capture_record_external_before_race: graphs completely, through stream capture.
 * cuEventRecordWithFlags(CU_EVENT_RECORD_EXTERNAL) on a capturing stream
 * becomes an event record node, and cuStreamWaitEvent with
 * CU_EVENT_WAIT_EXTERNAL an event wait node.  Captured here: record, wait
 * for an event of a held stream, copy (device to pinned host).  The
 * recorded event completes before the copy: synchronizing it and reading
 * is a race.  Its twin captures wait, copy, record: then it covers the
 * copy.  Twin: m_capture_record_external_after_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_capture_record_external_before_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_capture_record_external_after_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING), gate = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent recorded = sgt_event(), opened = sgt_event();
    CUgraph g;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
#ifndef SG_TWIN
    SGT_CHECK(cuEventRecordWithFlags(recorded, s, CU_EVENT_RECORD_EXTERNAL));
#endif
    SGT_CHECK(cuStreamWaitEvent(s, opened, CU_EVENT_WAIT_EXTERNAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#ifdef SG_TWIN
    SGT_CHECK(cuEventRecordWithFlags(recorded, s, CU_EVENT_RECORD_EXTERNAL));
#endif
    SGT_CHECK(cuStreamEndCapture(s, &g));
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(gate);
    SGT_CHECK(cuEventRecord(opened, gate));
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(recorded));
#else
    SGT_CHECK(cuEventSynchronize(recorded));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing the captured external record");
}
