/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_inline_frames: the early read happens in a function inlined into its
 * caller (always_inline: inlined at every optimization level).  The access
 * stack must show the inlined function at the reading line, then its caller
 * at the line of the call, both at the same pc, as ASan's symbolizer does;
 * the SUMMARY names the innermost (inlined) function.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^    #0 0x[0-9a-f]* count_wrong_inlined .*d2h_inline_frames\.c:25 (
 * SG-GREP: ^    #1 0x[0-9a-f]* main .*d2h_inline_frames\.c:38 (
 * SG-GREP: ^SUMMARY: syncguard: early-host-read d2h_inline_frames.c:25 in count_wrong_inlined
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

/* The SG-GREP lines above name this function's reading line (25) and the
 * line of its call in main (38): keep them in step. */
static inline __attribute__((always_inline)) unsigned
count_wrong_inlined(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < SGT_WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned early = count_wrong_inlined(host, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(early, "early read");
}
