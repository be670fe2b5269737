/* SPDX-License-Identifier: Apache-2.0 */
/* robust_register_mixed_prot: the program protects pages of its own memory
 * differently (read-write, read-only, read-write), then registers all of
 * them with cuMemHostRegister (CU_MEMHOSTREGISTER_READ_ONLY: the real
 * driver, CUDA 13.0, refuses to pin pages the host may not access, GPU run
 * 20, and a read-only page needs that flag).  A host-to-device copy from all
 * three pages is guarded, then observed complete: each page must get back
 * the protection the program gave it, not the first page's nor its
 * neighbour's.  Checked with the program's own SIGSEGV handler
 * (sgt_probe_faults): while the copy is in flight page 0 reads (a read of a
 * source is no race); after it, pages 0 and 2 read and take writes, page 1
 * reads but refuses writes.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    sgt_probe_install();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(3 * page, 0);
    unsigned char *p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                            -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    memset(p, 0x5e, 3 * page);
    if (mprotect(p + page, page, PROT_READ)) {
        perror("mprotect");
        return 2;
    }
    SGT_CHECK(cuMemHostRegister(p, 3 * page, CU_MEMHOSTREGISTER_READ_ONLY));
    int ok = 1;
    for (int phase = 0; phase < 2; phase++) {
        sgt_hold *hold = NULL;
        if (phase == 0) {
            hold = sgt_hold_stream(s);
            SGT_CHECK(cuMemcpyHtoDAsync(dev, p, 3 * page, s));
        }
        int r0 = sgt_probe_faults(p + 10, 0);
        if (phase == 0) {
            printf("copy in flight: page 0 read %s\n", r0 ? "FAULTS" : "ok");
            ok &= r0 == 0;
        } else {
            int w0 = sgt_probe_faults(p + 10, 1), r1 = sgt_probe_faults(p + page + 10, 0);
            int w1 = sgt_probe_faults(p + page + 10, 1);
            int w2 = sgt_probe_faults(p + 2 * page + 10, 1);
            printf("after the copy: page 0 read %s, write %s; page 1 read %s, write %s; "
                   "page 2 write %s\n", r0 ? "FAULTS" : "ok", w0 ? "FAULTS" : "ok",
                   r1 ? "FAULTS" : "ok", w1 == 1 ? "refused" : "TAKEN",
                   w2 ? "FAULTS" : "ok");
            ok &= r0 == 0 && w0 == 0 && r1 == 0 && w1 == 1 && w2 == 0;
        }
        if (hold) {
            sgt_release(hold);
            SGT_CHECK(cuStreamSynchronize(s));
        }
    }
    SGT_CHECK(cuMemHostUnregister(p));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(ok);
}
