/* m_ctx_destroy_ok: context destroy.  cuCtxDestroy waits for all the
 * context's work before tearing it down.  The copy lands in program memory
 * registered (cuMemHostRegister) in that context, which outlives it (the
 * registration goes with the context): reading it after the destroy is no
 * race.  Twin: m_ctx_destroy_other_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

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
    CUcontext c;
    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));
    uint32_t *host = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(host != MAP_FAILED);
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;
    SGT_CHECK(cuMemHostRegister(host, BYTES, 0));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuCtxDestroy(c));         /* waits for the copy */
    return verdict(count_wrong(host, WORDS, NEW), "after cuCtxDestroy of the copy's context");
}
