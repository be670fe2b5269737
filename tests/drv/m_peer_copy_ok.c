/* m_peer_copy_ok: peer copies.  cuMemcpyPeerAsync between two contexts
 * (both on device 0) moves device memory only: nothing of the host is
 * guarded, and the host uses its pinned memory freely while the copy is in
 * flight.  (No racy twin: no host memory is involved.)
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=2
 * SG-NOGREP: guarded on stream
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
    CUcontext ca, cb;
    SGT_CHECK(cuCtxCreate(&ca, NULL, 0, 0));
    CUdeviceptr da;
    uint32_t *host;
    buffers(&da, &host);
    SGT_CHECK(cuCtxCreate(&cb, NULL, 0, 0));
    CUdeviceptr db;
    SGT_CHECK(cuMemAlloc(&db, BYTES));
    CUstream b;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(b);
    SGT_CHECK(cuMemcpyPeerAsync(db, cb, da, ca, BYTES, b));
    for (unsigned i = 0; i < WORDS; i++)        /* the host's own pinned memory */
        host[i] = NEW;
    unsigned wrong = count_wrong(host, WORDS, NEW);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    static uint32_t back[WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, db, BYTES));
    wrong += count_wrong(back, WORDS, NEW);
    return verdict(wrong, "host buffer during the peer copy, peer destination after it");
}
