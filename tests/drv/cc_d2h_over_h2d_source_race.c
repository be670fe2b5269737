/* SPDX-License-Identifier: Apache-2.0 */
/* cc_d2h_over_h2d_source_race: the reverse of cc_h2d_reads_d2h_race.  A
 * host-to-device copy from a pinned buffer is pending on stream a; a
 * device-to-host copy into the same buffer is enqueued on stream b, not
 * ordered after a: it may overwrite the source before the first copy read
 * it.  Reported at the second enqueue (copy-overlap).  Twin:
 * cc_d2h_same_stream_ok.
 *
 * SG-EXPECT: copy-overlap
 * SG-GREP: COPY by cuMemcpyDtoHAsync of .* enqueued in thread
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUdeviceptr dev2 = sgt_device_words(SGT_WORDS, 0);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* cc_d2h_same_stream_ok: one stream orders them */
    CUstream b = a;
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    SGT_CHECK(cuCtxSynchronize());

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyHtoDAsync(dev2, host, SGT_BYTES, a));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, b)); /* the race, unless b is a */
    sgt_release(hold);
    SGT_CHECK(cuCtxSynchronize());
    unsigned got_new = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuMemcpyDtoH(host, dev2, SGT_BYTES));
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_OLD);
    printf("the second copy left %u of %u words other than its own; the first delivered %u "
           "other than the source's old ones\n", got_new, SGT_WORDS, wrong);
    sgt_free_buffers(dev, host);
#ifdef SG_TWIN
    return sgt_verdict(wrong + got_new, "the source the first copy read, the second's result");
#else
    return 0;
#endif
}
