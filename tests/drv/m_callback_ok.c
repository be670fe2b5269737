/* SPDX-License-Identifier: Apache-2.0 */
/* m_callback_ok: stream callbacks.  Like m_hostfn_ok with
 * cuStreamAddCallback: the callback runs after the copy completed.  Twin:
 * m_hostfn_other_stream_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

static void CUDA_CB callback(CUstream s, CUresult status, void *arg)
{
    (void)s;
    if (status == CUDA_SUCCESS)
        sgt_set_done(arg);
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuStreamAddCallback(a, callback, NULL, 0));
    sgt_release(hold);
    sgt_wait_done();                    /* spins until the callback ran */
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after the callback on the copy's stream ran");
}
