/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_event_query: an event recorded on the copy's stream after a
 * cuMemcpyDtoHAsync, polled with cuEventQuery until it returns CUDA_SUCCESS.
 * That success observes the copy's completion (a CUDA_ERROR_NOT_READY
 * answer does not), so the read afterwards is no race.
 *
 * A query is no host wait, so the stream's hold is released explicitly
 * after one query has answered CUDA_ERROR_NOT_READY.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_stream_query.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* d2h_stream_query */
#else
    CUevent ev = sgt_event();
#endif
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#ifdef SG_TWIN /* d2h_stream_query */
    CUresult r = cuStreamQuery(s);      /* held: cannot be complete */
#else
    SGT_CHECK(cuEventRecord(ev, s));
    CUresult r = cuEventQuery(ev);      /* held: cannot be complete */
#endif
    if (r != CUDA_ERROR_NOT_READY) {
        printf("the query answered %d while the copy was held\n", (int)r);
        return 2;
    }
    sgt_release(hold);
    unsigned long polls = 1;
#ifdef SG_TWIN /* d2h_stream_query */
    while ((r = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY) {
#else
    while ((r = cuEventQuery(ev)) == CUDA_ERROR_NOT_READY) {
#endif
        polls++;
        sched_yield();
    }
    SGT_CHECK(r);

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    printf("queries until CUDA_SUCCESS: %lu\n", polls);
    sgt_free_buffers(dev, host);
#ifdef SG_TWIN /* d2h_stream_query */
#else
    SGT_CHECK(cuEventDestroy(ev));
#endif
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_verdict(wrong, "after a query answered CUDA_SUCCESS");
}
