/* SPDX-License-Identifier: Apache-2.0 */
/* huge_partial_neighbour: a copy into part of an 8 MiB pinned allocation
 * on huge pages (huge_pinned), starting 100 bytes into the second huge page
 * and ending 50 bytes into a page of the fourth. Its guard keeps the third
 * huge page whole and splits the two at its ends; the host reads a byte before the copy on its first page and
 * one after it on its last page while it is in flight: neither is the
 * copy's, so no report, each keeps its value, and afterwards the copied
 * bytes are the copy's and every other byte untouched. Twin:
 * huge_partial_race reads a copied byte early instead.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * huge_partial_race.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdio.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (4 * HUGE_PAGE)
#define FROM (HUGE_PAGE + 100)         /* the copy is [FROM, TO) */
#define TO (3 * HUGE_PAGE + 8192 + 50)
#define BEFORE (HUGE_PAGE + 40)        /* same page as FROM, not the copy's */
#define AFTER (TO + 10)                /* same page as TO - 1, not the copy's */
#define MIDDLE (2 * HUGE_PAGE + HUGE_PAGE / 2) /* the copy's, in the whole huge page */
#define OLD 0x11
#define NEW 0xab

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_bytes(TO - FROM, NEW);
    unsigned char *host;
    SGT_CHECK(cuMemHostAlloc((void **)&host, BYTES, 0));
    SGT_EXPECT(huge_mapping(host) == 1);
    for (unsigned i = 0; i < BYTES; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host + FROM, dev, TO - FROM, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* huge_partial_race */
    /* The race: a byte of the copy, read before it is known done. */
    unsigned char early = ((volatile unsigned char *)host)[MIDDLE];
    SGT_EXPECT(early == NEW);
#else
    /* No race: bytes of the guarded pages that are not the copy's. */
    unsigned char before = ((volatile unsigned char *)host)[BEFORE];
    unsigned char after = ((volatile unsigned char *)host)[AFTER];
    SGT_EXPECT(before == OLD && after == OLD);
#endif
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned i = 0; i < BYTES; i++)
        wrong += host[i] != (i >= FROM && i < TO ? NEW : OLD);
    printf("after cuStreamSynchronize: %u of %u bytes wrong\n", wrong, (unsigned)BYTES);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the buffer does not hold what the copy and the host wrote\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
