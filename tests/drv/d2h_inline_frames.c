/* d2h_inline_frames: the early read happens in a function inlined into its
 * caller (always_inline: inlined at every optimization level).  The access
 * stack must show the inlined function at the reading line, then its caller
 * at the line of the call, both at the same pc, as ASan's symbolizer does;
 * the SUMMARY names the innermost (inlined) function.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^    #0 0x[0-9a-f]* count_wrong_inlined .*d2h_inline_frames\.c:30 (
 * SG-GREP: ^    #1 0x[0-9a-f]* main .*d2h_inline_frames\.c:51 (
 * SG-GREP: ^SUMMARY: syncguard: early-host-read d2h_inline_frames.c:30 in count_wrong_inlined
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

/* The SG-GREP lines above name this function's reading line (30) and the
 * line of its call in main (51): keep them in step. */
static inline __attribute__((always_inline)) unsigned
count_wrong_inlined(const volatile uint32_t *h, uint32_t want)
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
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned early = count_wrong_inlined(host, NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_verdict(early, "early read");
}
