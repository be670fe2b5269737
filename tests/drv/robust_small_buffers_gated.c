/* robust_small_buffers_gated: as robust_small_buffers_packed (one
 * registered page carved into 32 buffers of 128 bytes, async copies into the
 * 16 even ones in flight, the host reading and writing the 16 odd ones),
 * but the copies cannot complete until the host has finished with its own
 * buffers: their stream waits (cuStreamWaitValue32) on a flag that the host
 * sets only after its loop, the pattern of a producer that fills its slots
 * of a pinned ring and then signals the GPU.  Without syncguard the program
 * runs to the end.  The host's accesses touch no byte of any copy, so
 * syncguard must neither report them nor make them wait for the copies
 * (which would wait forever): no report, no hang (a 20 s watchdog turns a
 * hang into exit status 3), every value right.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sgtest.h"

#define NBUF 32u
#define BUF_BYTES 128u
#define BUF_WORDS (BUF_BYTES / sizeof(uint32_t))
#define ACCESSES 2000u                  /* > 64: more than a handful per page */

static uint32_t old_value(unsigned k) { return 0x01000000u | k; }
static uint32_t new_value(unsigned k) { return 0xa0000000u | k; }

int main(void)
{
    sgt_watchdog(20);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page < NBUF * BUF_BYTES) {
        fprintf(stderr, "page too small\n");
        return 2;
    }
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, NBUF * BUF_BYTES));
    for (unsigned k = 0; k < NBUF; k++)
        SGT_CHECK(cuMemsetD32(dev + k * BUF_BYTES, new_value(k), BUF_WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copies below are pending */

    unsigned char *arena;
    if (posix_memalign((void **)&arena, page, page) != 0) {
        perror("posix_memalign");
        return 2;
    }
    volatile uint32_t *buf[NBUF];
    for (unsigned k = 0; k < NBUF; k++) {
        buf[k] = (volatile uint32_t *)(arena + k * BUF_BYTES);
        for (unsigned j = 0; j < BUF_WORDS; j++)
            buf[k][j] = old_value(k);
    }
    SGT_CHECK(cuMemHostRegister(arena, page, 0));

    /* The gate: the host opens it after its loop, never earlier. */
    sgt_hold *gate = sgt_hold_stream(s);
    for (unsigned k = 0; k < NBUF; k += 2)
        SGT_CHECK(cuMemcpyDtoHAsync((void *)buf[k], dev + k * BUF_BYTES, BUF_BYTES, s));

    /* No race: the odd buffers are the host's alone. */
    for (unsigned i = 0; i < ACCESSES; i++) {
        unsigned k = 1 + 2 * (i % (NBUF / 2)), j = (i / (NBUF / 2)) % BUF_WORDS;
        buf[k][j] = buf[k][j] + 1;
    }
    CUresult q = cuStreamQuery(s);      /* NOT_READY: the gate is closed */
    sgt_release(gate);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong_copied = 0, wrong_host = 0;
    uint32_t per_word = ACCESSES / (NBUF / 2 * BUF_WORDS);
    for (unsigned k = 0; k < NBUF; k++)
        for (unsigned j = 0; j < BUF_WORDS; j++) {
            if (k % 2 == 0)
                wrong_copied += buf[k][j] != new_value(k);
            else {
                unsigned idx = j * (NBUF / 2) + (k - 1) / 2;
                uint32_t n = per_word + (idx < ACCESSES % (NBUF / 2 * BUF_WORDS));
                wrong_host += buf[k][j] != old_value(k) + n;
            }
        }
    printf("copies still gated after the host loop: %s\n", q == CUDA_ERROR_NOT_READY ? "yes" : "no");
    printf("after cuStreamSynchronize: %u copied words wrong, %u host words wrong\n",
           wrong_copied, wrong_host);
    SGT_CHECK(cuMemHostUnregister(arena));
    free(arena);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (q != CUDA_ERROR_NOT_READY || wrong_copied || wrong_host) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
