/* SPDX-License-Identifier: Apache-2.0 */
/* robust_bulk_read_shared_page: bulk accesses of the neighbour bytes of a
 * guarded page.  An async copy fills the first 256 bytes of the middle page
 * of a three-page pinned buffer; while it is in flight the host
 *   (a) memcpy()s 4 KiB starting right after the copy's bytes (glibc picks
 *       vector moves or rep movsb; the source spans the guarded page and the
 *       next one),
 *   (b) reads the rest of the guarded page with an explicit rep movsb (one
 *       fault per iteration: what the settle fallback is for),
 *   (c) memset()s 2 KiB of the neighbour bytes, and
 *   (d) rep stosq's 1 KiB of them.
 * None of these touches the copy's bytes: no report, the data read are the
 * host's, the data written stay, and the copy's bytes are the copied data
 * after cuStreamSynchronize.  Each access runs in a new thread so that each
 * starts with syncguard's per-thread stepping state fresh.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver), re-armed with a new copy before each access.
 *
 * SG-EXPECT: silent
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
SGT_X86_ONLY("rep movsb and rep stosq (aarch64 has no rep string instructions)")
#else

#define COPIED 256u                     /* the copy covers [page, page + COPIED) */
#define OLD 0x11                        /* the host buffer before the copies */
#define NEW 0xc3                        /* what the copies deliver */

static size_t page;
static unsigned char *host;             /* three pages; the middle one is guarded */
static unsigned char *out;              /* where reads go (not pinned) */

static void rep_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void rep_stosq(void *dst, uint64_t v, size_t words)
{
    __asm__ volatile("rep stosq" : "+D"(dst), "+c"(words) : "a"(v) : "memory");
}

static void *op_memcpy(void *arg)
{
    (void)arg;
    memcpy(out, host + page + COPIED, page);
    return NULL;
}

static void *op_rep_movsb(void *arg)
{
    (void)arg;
    rep_movsb(out, host + page + COPIED, page - COPIED);
    return NULL;
}

static void *op_memset(void *arg)
{
    (void)arg;
    memset(host + page + 1024, 0x5a, 2048);
    return NULL;
}

static void *op_rep_stosq(void *arg)
{
    (void)arg;
    rep_stosq(host + page + 3072, 0x7777777777777777ull, 1024 / 8);
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);  /* only the copies below are pending */
    host = sgt_pinned_bytes(3 * page, OLD);
    out = sgt_malloc(page);
    unsigned char *expect = sgt_malloc(3 * page);
    memcpy(expect, host, 3 * page);
    memset(expect + page, NEW, COPIED);

    struct {
        const char *name;
        void *(*fn)(void *);
        size_t read_from, read_len;     /* read_len 0: a write */
        size_t write_at, write_len;
        int value;
    } ops[] = {
        { "memcpy 4 KiB", op_memcpy, page + COPIED, page, 0, 0, 0 },
        { "rep movsb", op_rep_movsb, page + COPIED, page - COPIED, 0, 0, 0 },
        { "memset 2 KiB", op_memset, 0, 0, page + 1024, 2048, 0x5a },
        { "rep stosq 1 KiB", op_rep_stosq, 0, 0, page + 3072, 1024, 0x77 },
    };
    unsigned bad = 0;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        sgt_hold *hold = sgt_hold_stream(s);
        SGT_CHECK(cuMemcpyDtoHAsync(host + page, dev, COPIED, s));
        sgt_release_when_host_waits(hold);
        CUresult q = cuStreamQuery(s);  /* NOT_READY: held */
        memset(out, 0, page);
        sgt_run_in_thread(ops[i].fn);
        unsigned wrong = 0;
        if (ops[i].read_len)
            wrong = memcmp(out, expect + ops[i].read_from, ops[i].read_len) != 0;
        else
            memset(expect + ops[i].write_at, ops[i].value, ops[i].write_len);
        SGT_CHECK(cuStreamSynchronize(s));
        wrong += memcmp(host, expect, 3 * page) != 0;
        printf("%s: copy in flight before: %s; data %s\n", ops[i].name,
               q == CUDA_ERROR_NOT_READY ? "yes" : "no", wrong ? "WRONG" : "right");
        bad += wrong || q != CUDA_ERROR_NOT_READY;
    }
    free(out);
    free(expect);
    sgt_free_all(s, dev, host);
    return sgt_check_line(!bad);
}

#endif
