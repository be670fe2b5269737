/* SPDX-License-Identifier: Apache-2.0 */
/* robust_bulk_read_race_late: a bulk read that crosses many neighbour bytes
 * of a guarded page before it reaches the bytes of a copy in flight is still
 * a race.  A copy fills the second half of a pinned page, bytes [2048,
 * 4096); the host reads the whole page with rep movsb, forward from byte 0:
 * 2048 iterations over bytes that are no copy's (faulting one by one, until
 * syncguard settles the page), then the copy's bytes.  syncguard must report
 * the read of the copy's bytes ("byte N of a 2048-byte copy") and the read
 * must see the copied data.  Twin of robust_bulk_read_race's case 1, where
 * only 32 neighbour bytes come first.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver), so without syncguard the read sees the old data.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte [0-9]* of a 2048-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in read_rep_movsb
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"
#include "sgt_x86_only.h"

#if !defined(__x86_64__)
SGT_X86_ONLY("rep movsb (aarch64 has no rep string instructions)")
#else

#define OLD 0x11                        /* the host buffer before the copy */
#define NEW 0xc3                        /* what the copy delivers */

static __attribute__((noinline)) void read_rep_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), half = page / 2;
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(half, NEW);    /* only the copy below is pending */
    unsigned char *host = sgt_pinned_bytes(page, OLD);
    unsigned char *out = sgt_malloc(page), *expect = sgt_malloc(page);
    memset(expect, OLD, half);
    memset(expect + half, NEW, half);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host + half, dev, half, s));
    sgt_release_when_host_waits(hold);
    read_rep_movsb(out, host, page);     /* the race */
    int wrong = memcmp(out, expect, page) != 0;
    SGT_CHECK(cuStreamSynchronize(s));
    printf("rep movsb over the page: data %s\n", wrong ? "WRONG" : "right");

    free(out);
    free(expect);
    sgt_free_all(s, dev, host);
    return sgt_check_line(!wrong);
}

#endif
