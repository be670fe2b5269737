/* SPDX-License-Identifier: Apache-2.0 */
/* robust_table_full: more copies in flight than syncguard's table holds.
 * With max_pending=16, 100 device-to-host copies (one page each) are
 * enqueued behind a hold on one stream; syncguard guards 16 of them and
 * lets the other 84 run unguarded, saying so once ("more than
 * max_pending"), no crash, no report.  After the hold is released and the
 * stream synchronized, every page holds its copy's data; then a second
 * batch of 100 (the table emptied by the synchronize) works the same way
 * (syncguard warns only once), and the exit status is 0.  No early reads:
 * those of the unguarded copies would simply not be seen.
 *
 * SG-OPTIONS: max_pending=16
 * SG-EXIT: 0
 * SG-GREP: WARNING: syncguard: more than max_pending=16 copies in flight
 * SG-NOGREP: SUMMARY: syncguard
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIES 100u
#define ROUNDS 2

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), words = page / sizeof(uint32_t);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, COPIES * page));
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, COPIES * page));
    unsigned wrong = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (unsigned i = 0; i < COPIES; i++)
            SGT_CHECK(cuMemsetD32(dev + i * page, 0x70000000u | (uint32_t)r << 16 | i, words));
        SGT_CHECK(cuCtxSynchronize());
        memset(host, 0, COPIES * page);
        sgt_hold *hold = sgt_hold_stream(s);
        for (unsigned i = 0; i < COPIES; i++)
            SGT_CHECK(cuMemcpyDtoHAsync((char *)host + i * page, dev + i * page, page, s));
        CUresult q = cuStreamQuery(s);  /* NOT_READY: held */
        sgt_release(hold);
        SGT_CHECK(cuStreamSynchronize(s));
        unsigned bad = 0;
        for (unsigned i = 0; i < COPIES; i++)
            for (size_t j = 0; j < words; j++)
                bad += host[i * words + j] != (0x70000000u | (uint32_t)r << 16 | i);
        printf("round %d: %u copies in flight at once: %s; after sync %u words wrong\n", r,
               COPIES, q == CUDA_ERROR_NOT_READY ? "yes" : "NO", bad);
        wrong += bad + (q != CUDA_ERROR_NOT_READY);
    }
    sgt_free_all(s, dev, host);
    return sgt_check_line(!wrong);
}
