/* SPDX-License-Identifier: Apache-2.0 */
/* robust_pinned_isolated: four 1 KiB pinned buffers from cuMemAllocHost.
 * The driver packs such allocations four to a page; syncguard
 * (isolate_pinned=1, the default) gives each pages of its own, so a copy
 * held in flight into one buffer leaves the host free to write another
 * without a single fault: no report, no neighbour fault, both buffers right
 * afterwards; the driver's queries by host address and the frees work on
 * the addresses syncguard handed out. A large allocation (3 MiB and a bit,
 * mapped on its own by the driver) is page-aligned too.
 * Twin: robust_pinned_packed, the same with isolate_pinned=0, where two of
 * the buffers share a page and the writes are single-stepped.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: stats: .* faults_neighbour=0,
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * robust_pinned_packed.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sgtest.h"

#define NBUF 4
#define BUF_WORDS 256u /* 1 KiB */
#define WRITES 64u
#define MARK 0x600df00du /* what the host writes into the other buffer */

static uintptr_t page_of(const void *p)
{
    return (uintptr_t)p / 4096u;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    uint32_t *buf[NBUF];
    for (int i = 0; i < NBUF; i++)
        SGT_CHECK(cuMemAllocHost((void **)&buf[i], BUF_WORDS * sizeof(uint32_t)));
    /* dst: the buffer copied into; other: the one the host writes. */
    int dst = -1, other = -1;
    for (int i = 0; i < NBUF; i++)
        for (int j = 0; j < NBUF; j++)
            if (i != j && page_of(buf[i]) == page_of(buf[j]) && dst < 0)
                dst = i, other = j;
#ifdef SG_TWIN /* robust_pinned_packed */
    printf("two buffers share a page: %s\n", dst >= 0 ? "yes" : "no");
    SGT_EXPECT(dst >= 0);
#else
    unsigned unaligned = 0;
    for (int i = 0; i < NBUF; i++)
        unaligned += ((uintptr_t)buf[i] & 4095u) != 0;
    printf("buffers not page-aligned: %u; two share a page: %s\n", unaligned, dst >= 0 ? "yes" : "no");
    SGT_EXPECT(unaligned == 0 && dst < 0);
    dst = 0, other = 1;
    size_t big_bytes = (3u << 20) + 100;
    unsigned char *big;
    SGT_CHECK(cuMemAllocHost((void **)&big, big_bytes));
    printf("large allocation page-aligned: %s\n", ((uintptr_t)big & 4095u) ? "no" : "yes");
    SGT_EXPECT(((uintptr_t)big & 4095u) == 0);
    memset(big, 0x5a, big_bytes);
    SGT_CHECK(cuMemFreeHost(big));
#endif
    for (int i = 0; i < NBUF; i++) {
        unsigned flags;
        CUdeviceptr mapped;
        SGT_CHECK(cuMemHostGetFlags(&flags, buf[i]));
        SGT_CHECK(cuMemHostGetDevicePointer(&mapped, buf[i], 0));
    }
    for (unsigned i = 0; i < BUF_WORDS; i++)
        buf[dst][i] = SGT_OLD, buf[other][i] = SGT_OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(buf[dst], dev, BUF_WORDS * sizeof(uint32_t), s));
    for (unsigned i = 0; i < WRITES; i++)
        ((volatile uint32_t *)buf[other])[i * (BUF_WORDS / WRITES)] = MARK;
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = SGT_COUNT_WRONG(buf[dst], BUF_WORDS, SGT_NEW), marks = 0;
    for (unsigned i = 0; i < BUF_WORDS; i++)
        marks += buf[other][i] == MARK;
    printf("copied buffer: %u of %u words wrong; other buffer: %u marks (want %u)\n", wrong,
           BUF_WORDS, marks, WRITES);
    SGT_EXPECT(marks == WRITES);
    for (int i = 0; i < NBUF; i++)
        SGT_CHECK(cuMemFreeHost(buf[i]));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after cuStreamSynchronize");
}
