/* SPDX-License-Identifier: Apache-2.0 */
/* dw_flag_poll_ok: completion learnt from a flag.  A device-to-host copy,
 * then cuStreamWriteValue32 of 1 into a pinned flag, on one stream; the
 * host spins on the flag until it reads 1, then reads the copy's
 * destination.  Seeing the flag's value observes everything before the
 * write on its stream: no report.  Twin: dw_flag_poll_other_stream_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* dw_flag_poll_other_stream_race: the flag on another stream */
    CUstream fs = sgt_stream(CU_STREAM_NON_BLOCKING);
#else
    CUstream fs = s;
#endif
    volatile uint32_t *flag = sgt_pinned(sizeof *flag);
    *flag = 0;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuStreamWriteValue32(fs, (CUdeviceptr)(uintptr_t)flag, 1, 0));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold); /* the flag does not wait for the copy */
#else
    sgt_release(hold);
#endif
    while (*flag != 1) /* the host learns of the write... */
        ;
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* ...and of the copy? */
    SGT_CHECK(cuStreamSynchronize(s));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after the flag was seen");
}
