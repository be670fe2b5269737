/* SPDX-License-Identifier: Apache-2.0 */
/* k_alias_stream_query_ok: the program of k_alias_read_race, but the host
 * polls cuStreamQuery until it answers CUDA_SUCCESS before reading, which
 * observes the launch: no report.
 *
 * SG-EXPECT: silent
 */
#include "k_launch.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr alias;
    uint32_t *host = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    k_fill(K_LAUNCH, s, alias, SGT_NEW);
    sgt_release(hold);
    CUresult q;
    while ((q = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY)
        ;
    SGT_CHECK(q);

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuMemFreeHost(host));
    return sgt_verdict(wrong, "after cuStreamQuery answered CUDA_SUCCESS");
}
