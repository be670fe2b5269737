/* SPDX-License-Identifier: Apache-2.0 */
/* robust_program_mprotect_order: the program's own mprotect calls on pinned
 * memory, overlapping, are kept in the order it made them.  When a guarded
 * copy completes, syncguard gives its pages back the protection the
 * program last asked for on each page, as without syncguard:
 *   A: page 0 read-only, then both pages read-write, then page 0 read-only
 *      again: page 0 read-only, page 1 writable;
 *   B: both pages read-only, then page 0 read-write, then a pinned buffer
 *      protected before A and B is freed (the program forgets nothing of
 *      A and B by that): page 0 writable, page 1 read-only;
 *   C: both pages read-only, then two mprotect calls that FAIL (EINVAL:
 *      an unaligned address, an invalid protection bit) and so change
 *      nothing: both pages read-only and readable;
 *   D: three pages read-only, then the middle one read-write.
 * A device-to-host copy into each buffer, synchronized properly (no race),
 * then every page is probed: a write to a read-only page must fault into
 * the program's own SIGSEGV handler (SEGV_ACCERR, siglongjmp out), a write
 * to a writable page and every read must not.  The copies' data arrive
 * (DMA ignores page protection).
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#define OLD 0x11
#define NEW 0xc3
#define BAD_PROT_BIT 0x40               /* no PROT_* flag: mprotect says EINVAL */

static size_t page;

/* How many bytes of buf[0, n) are not the copied data; n + 1 if reading
 * them faulted. */
static size_t count_wrong(const unsigned char *buf, size_t n)
{
    if (sigsetjmp(*sgt_probe_jb(), 1) != 0)
        return n + 1;
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += ((const volatile unsigned char *)buf)[i] != NEW;
    return wrong;
}

/* The program's own call, which must succeed. */
static void protect(unsigned char *p, size_t pages, int prot)
{
    if (mprotect(p, pages * page, prot) != 0) {
        perror("mprotect");
        exit(2);
    }
}

/* Page i of buf: readable, and writable or not. */
static int page_is(unsigned char *buf, unsigned i, int writable, const char *name)
{
    int r = sgt_probe_faults(buf + i * page + 100, 0), w = sgt_probe_faults(buf + i * page + 200, 1);
    printf("%s page %u: read %s, write %s (want %s)\n", name, i, r ? "FAULTS" : "ok",
           w == 1 ? "faults" : w ? "FAULTS WRONGLY" : "ok", writable ? "writable" : "read-only");
    return r == 0 && w == (writable ? 0 : 1);
}

int main(void)
{
    sgt_watchdog(60);
    page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(3 * page, NEW);
    unsigned char *p = sgt_pinned_bytes(page, OLD);
    unsigned char *a = sgt_pinned_bytes(2 * page, OLD);
    unsigned char *b = sgt_pinned_bytes(2 * page, OLD);
    unsigned char *c = sgt_pinned_bytes(2 * page, OLD);
    unsigned char *d = sgt_pinned_bytes(3 * page, OLD);
    sgt_probe_install();

    protect(p, 1, PROT_READ);
    protect(a, 1, PROT_READ);
    protect(a, 2, PROT_READ | PROT_WRITE);
    protect(a, 1, PROT_READ);
    protect(b, 2, PROT_READ);
    protect(b, 1, PROT_READ | PROT_WRITE);
    SGT_CHECK(cuMemFreeHost(p));
    protect(c, 2, PROT_READ);
    int bad_addr = mprotect(c + 1, page, PROT_READ | PROT_WRITE);
    int bad_addr_errno = errno;
    int bad_prot = mprotect(c + page, page, PROT_READ | PROT_WRITE | BAD_PROT_BIT);
    int bad_prot_errno = errno;
    protect(d, 3, PROT_READ);
    protect(d + page, 1, PROT_READ | PROT_WRITE);
    int failed = bad_addr == -1 && bad_addr_errno == EINVAL && bad_prot == -1 &&
                 bad_prot_errno == EINVAL;
    printf("the failing mprotect calls: %s\n", failed ? "failed with EINVAL" : "DID NOT FAIL");

    SGT_CHECK(cuMemcpyDtoHAsync(a, dev, 2 * page, s));
    SGT_CHECK(cuMemcpyDtoHAsync(b, dev, 2 * page, s));
    SGT_CHECK(cuMemcpyDtoHAsync(c, dev, 2 * page, s));
    SGT_CHECK(cuMemcpyDtoHAsync(d, dev, 3 * page, s));
    SGT_CHECK(cuStreamSynchronize(s));

    size_t wrong = count_wrong(a, 2 * page) + count_wrong(b, 2 * page) +
                   count_wrong(c, 2 * page) + count_wrong(d, 3 * page);
    printf("%zu bytes not the copied data (or not readable)\n", wrong);
    int ok = failed && !wrong;
    ok &= page_is(a, 0, 0, "A") & page_is(a, 1, 1, "A");
    ok &= page_is(b, 0, 1, "B") & page_is(b, 1, 0, "B");
    ok &= page_is(c, 0, 0, "C") & page_is(c, 1, 0, "C");
    ok &= page_is(d, 0, 0, "D") & page_is(d, 1, 1, "D") & page_is(d, 2, 0, "D");

    protect(a, 2, PROT_READ | PROT_WRITE);
    protect(b, 2, PROT_READ | PROT_WRITE);
    protect(c, 2, PROT_READ | PROT_WRITE);
    protect(d, 3, PROT_READ | PROT_WRITE);
    SGT_CHECK(cuMemFreeHost(a));
    SGT_CHECK(cuMemFreeHost(b));
    SGT_CHECK(cuMemFreeHost(c));
    SGT_CHECK(cuMemFreeHost(d));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(ok);
}
