/* m_sync_copy_nonblocking_race: synchronous copies.  The async copy runs on
 * a NON-BLOCKING stream: a synchronous cuMemcpyDtoH (legacy stream) does
 * not wait for it.  Twin: m_sync_copy_legacy_ok.
 *
 * SG-EMU-ONLY: on the H200 (driver 580) the synchronous cuMemcpyDtoH blocked
 *   until the held non-blocking stream was released (more than the
 *   documentation promises), so the hold cannot be kept there: the program
 *   hung (tests/gpu/RESULTS.md, run 5).
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_sync_copy_nonblocking_race
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

static int verdict(unsigned wrong, const char *when)
{
    printf("%s: %u of %u words wrong\n", when, wrong, WORDS);
    if (wrong) {
        printf("check: MISMATCH the read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    uint32_t small[16];
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, a));
    SGT_CHECK(cuMemcpyDtoH(small, dev, sizeof small));
    sgt_release_when_host_waits(hold);
    return verdict(count_wrong(host, WORDS, NEW), "after a synchronous cuMemcpyDtoH on the legacy stream");
}
