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

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
#ifdef SG_TWIN /* d2h_stream_query */
#else
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
#endif
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
#ifdef SG_TWIN /* d2h_stream_query */
    CUresult r = cuStreamQuery(s);      /* held: cannot be complete */
#else
    SGT_CHECK(cuEventRecord(ev, s));
    CUresult r = cuEventQuery(ev);      /* held: cannot be complete */
#endif
    if (r != CUDA_ERROR_NOT_READY) {
#ifdef SG_TWIN /* d2h_stream_query */
        printf("cuStreamQuery answered %d while the copy was held\n", (int)r);
#else
        printf("cuEventQuery answered %d while the copy was held\n", (int)r);
#endif
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

    unsigned wrong = count_wrong(host, NEW);
#ifdef SG_TWIN /* d2h_stream_query */
    printf("after %lu cuStreamQuery calls: %u of %u words wrong\n", polls, wrong, WORDS);
#else
    printf("after %lu cuEventQuery calls: %u of %u words wrong\n", polls, wrong, WORDS);
#endif
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
#ifdef SG_TWIN /* d2h_stream_query */
#else
    SGT_CHECK(cuEventDestroy(ev));
#endif
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the read after a successful query did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
