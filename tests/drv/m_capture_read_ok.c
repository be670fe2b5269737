/* m_capture_read_ok: stream capture.  A copy enqueued on a capturing stream
 * is recorded into the graph, not executed: the host may use the buffer
 * during and after the capture (it still holds the old data).  syncguard
 * must not guard captured copies.  Twin: m_capture_launch_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, unsigned n, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

/* Device memory holding NEW and a pinned host buffer holding OLD, in the
 * current context, with no work pending. */
static void buffers(CUdeviceptr *dev, uint32_t **host)
{
    SGT_CHECK(cuMemAlloc(dev, BYTES));
    SGT_CHECK(cuMemsetD32(*dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuMemAllocHost((void **)host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        (*host)[i] = OLD;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUgraph g;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    unsigned changed = count_wrong(host, WORDS, OLD);       /* during the capture */
    SGT_CHECK(cuStreamEndCapture(s, &g));
    changed += count_wrong(host, WORDS, OLD);               /* after it */
    host[0] = 1;                                            /* and the host may write */
    printf("captured copy: %u words changed\n", changed);
    if (changed) {
        printf("check: MISMATCH a captured copy ran\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
