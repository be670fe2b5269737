/* SPDX-License-Identifier: Apache-2.0 */
/* m_register_v1_race: host memory syncguard did not see pinned.  The host
 * buffer was registered through the CUDA 4.0 ABI of cuMemHostRegister (the
 * unversioned symbol, as a runtime built for CUDA 4.0-6.0 calls it): the
 * driver knows it page-locked, so the device-to-host async copy into it
 * runs after the call returns, and reading before synchronizing is a race.
 * syncguard asks the driver (cuPointerGetAttribute) and guards it.  Built
 * with SG_KIND_VMM as m_vmm_host_race (a host allocation of the virtual
 * memory API) and with SG_KIND_POOL as m_pool_host_return_ok (a memory
 * pool located on the host: there the copy returns once complete, so the
 * same read is no race).  Twin: m_register_v1_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_register_v1_race
 */
/* Also built, with SG_TWIN defined, as the twins m_register_v1_ok,
 * m_vmm_host_ok and m_pool_host_ok (the lines under #ifdef SG_TWIN). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_hostkinds.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *pinned;
    sgt_start(&dev, &pinned);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#if defined(SG_KIND_VMM)
    uint32_t *host = sgt_vmm_host();
#elif defined(SG_KIND_POOL)
    uint32_t *host = sgt_pool_host(s);
#else
    uint32_t *host = sgt_register_v1();
#endif
    if (!host) {
        printf("SKIP: that kind of host memory is not available here\n");
        return 77;
    }
    sgt_fill(host, SGT_OLD);
    sgt_hold *hold = sgt_hold_stream(s);
#ifdef SG_KIND_POOL
    /* The copy waits for its stream (GPU run 20): release the hold while
     * the call waits, not after it returns. */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#else
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
#endif
#ifdef SG_TWIN
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read before synchronizing");
#endif
}
