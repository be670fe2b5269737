/* m_ptds_other_thread_race: per-thread default stream.  Each host thread
 * has its own:  another thread synchronizing ITS per-thread stream says
 * nothing about the copy on the main thread's one.  Twin: m_ptds_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_ptds_other_thread_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>

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

static CUcontext ctx_of_main;

static void *sync_own_stream(void *arg)
{
    (void)arg;
    SGT_CHECK(cuCtxSetCurrent(ctx_of_main));
    SGT_CHECK(cuStreamSynchronize(CU_STREAM_PER_THREAD));   /* its own, idle */
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    ctx_of_main = NULL;
    SGT_CHECK(cuCtxGetCurrent(&ctx_of_main));
    sgt_hold *hold = sgt_hold_stream(CU_STREAM_PER_THREAD);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, CU_STREAM_PER_THREAD));
    pthread_t other;
    SGT_EXPECT(pthread_create(&other, NULL, sync_own_stream, NULL) == 0);
    SGT_EXPECT(pthread_join(other, NULL) == 0);
    sgt_release_when_host_waits(hold);
    return verdict(count_wrong(host, WORDS, NEW), "after another thread synchronized its per-thread stream");
}
