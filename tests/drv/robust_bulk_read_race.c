/* SPDX-License-Identifier: Apache-2.0 */
/* robust_bulk_read_race: bulk reads that cross from bytes that are no
 * copy's into bytes of a copy in flight are races, and the report must say
 * which byte of the copy was touched first.
 *   case 1: a copy fills bytes [32, 4096) of a pinned page; the host reads
 *           the whole page with rep movsb, forward from byte 0: the first 32
 *           iterations touch neighbour bytes (single-stepped, not reported),
 *           the 33rd the copy's byte 0.  Report: "byte 0 of a 4064-byte
 *           copy".
 *   case 2: a copy fills a whole page; the host memcpy()s 8 KiB starting
 *           half a page before it (glibc's order of moves decides the first
 *           byte touched).  Report: "byte N of a 4096-byte copy".
 * Both reads see the copied data (syncguard waited for the copies).  Each
 * case runs in a new thread (fresh per-thread stepping state).
 *
 * The copies wait behind holds on their streams (released when the host
 * first blocks in the driver: syncguard's wait), so without syncguard the
 * reads would see the old data.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 0 of a 4064-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte [0-9]* of a 4096-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in read_rep_movsb
 * SG-GREP: syncguard: 2 races reported (2 early-host-read, 0 early-host-write
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

#define OLD 0x11                        /* the host buffer before the copies */
#define NEW 0xc3                        /* what the copies deliver */
#define SKIP1 32u                       /* case 1: bytes before the copy */

static size_t page;
static unsigned char *host;             /* pages 0-1: case 1; pages 2-4: case 2 */
static unsigned char *out;

static __attribute__((noinline)) void read_rep_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void *case1(void *arg)
{
    (void)arg;
    read_rep_movsb(out, host, page);
    return NULL;
}

static void *case2(void *arg)
{
    (void)arg;
    memcpy(out, host + 3 * page - page / 2, 2 * page);
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(page, NEW);    /* only the copies below are pending */
    host = sgt_pinned_bytes(5 * page, OLD);
    out = sgt_malloc(2 * page);
    unsigned char *expect = sgt_malloc(2 * page);
    unsigned bad = 0;

    /* case 1 */
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host + SKIP1, dev, page - SKIP1, s));
    sgt_release_when_host_waits(hold);
    sgt_run_in_thread(case1);
    memset(expect, OLD, SKIP1);
    memset(expect + SKIP1, NEW, page - SKIP1);
    int wrong = memcmp(out, expect, page) != 0;
    printf("case 1 (rep movsb from a neighbour byte into the copy): data %s\n",
           wrong ? "WRONG" : "right");
    bad += wrong;
    SGT_CHECK(cuStreamSynchronize(s));

    /* case 2 */
    hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host + 3 * page, dev, page, s));
    sgt_release_when_host_waits(hold);
    sgt_run_in_thread(case2);
    memset(expect, OLD, page / 2);
    memset(expect + page / 2, NEW, page);
    memset(expect + page / 2 + page, OLD, page / 2);
    wrong = memcmp(out, expect, 2 * page) != 0;
    printf("case 2 (memcpy of 8 KiB over a copy's page): data %s\n", wrong ? "WRONG" : "right");
    bad += wrong;
    SGT_CHECK(cuStreamSynchronize(s));

    free(out);
    free(expect);
    sgt_free_all(s, dev, host);
    return sgt_check_line(!bad);
}

#endif
