/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_step_two_pages_race: one instruction on the neighbour
 * bytes of two guarded pages.  Two copies are in flight, into the start of
 * one page and into the middle of the next; the program stores 8 bytes
 * across the boundary between them (neighbours of both copies, 4 on each
 * page).  Such a store is not emulated (its bytes are on two pages): it
 * faults on one page, is single-stepped, faults again on the other within
 * its step.  That second fault used to settle its page, waiting for the
 * copy there, so that the program's early read of that copy afterwards
 * was no longer seen; now the step takes the second page too and both are
 * guarded again after its trap: the store lands, the early read is
 * reported and sees the copied data.
 *
 * The copies wait behind a hold on their stream (released when the host
 * first blocks in the driver).
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read robust_neighbour_step_two_pages_race.c:[0-9]* in main
 * SG-GREP: faults_neighbour=2, faults_emulated=0, faults_settled=0,
 */
#include "sgt_x86_only.h"
#if !defined(__x86_64__)
SGT_X86_ONLY("a single step that takes two pages (the x86 trap flag)")
#else
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3
#define STORED 0x0123456789abcdefull

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *raw = sgt_pinned_bytes(3 * page, OLD);
    unsigned char *first = (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
    unsigned char *second = first + page + 1024; /* the second copy, mid-page */
    volatile uint64_t *across = (volatile uint64_t *)(first + page - 4);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(first, dev, COPIED, s));
    SGT_CHECK(cuMemcpyDtoHAsync(second, dev, COPIED, s));
    *across = STORED; /* one store, two guarded pages */
    sgt_release_when_host_waits(hold);
    unsigned char early = second[0]; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += (first[i] != NEW) + (second[i] != NEW);
    uint64_t landed = *across;
    printf("the store across the pages: %s; early read 0x%02x; %u copied bytes wrong after "
           "sync\n", landed == STORED ? "landed" : "WRONG", early, wrong);
    return sgt_check_line(landed == STORED && early == NEW && wrong == 0);
}
#endif
