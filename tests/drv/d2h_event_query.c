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
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
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
    SGT_CHECK(cuEventRecord(ev, s));
    CUresult r = cuEventQuery(ev);      /* held: cannot be complete */
    if (r != CUDA_ERROR_NOT_READY) {
        printf("cuEventQuery answered %d while the copy was held\n", (int)r);
        return 2;
    }
    sgt_release(hold);
    unsigned long polls = 1;
    while ((r = cuEventQuery(ev)) == CUDA_ERROR_NOT_READY) {
        polls++;
        sched_yield();
    }
    SGT_CHECK(r);

    unsigned wrong = count_wrong(host, NEW);
    printf("after %lu cuEventQuery calls: %u of %u words wrong\n", polls, wrong, WORDS);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuEventDestroy(ev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the read after a successful query did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
