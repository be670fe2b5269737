/* SPDX-License-Identifier: Apache-2.0 */
/* robust_pinned_fault_default: a program with no SIGSEGV handler writes to
 * a pinned page it made read-only itself, while a guarded copy into
 * another pinned buffer is in flight.  The fault is the program's: it must
 * die of SIGSEGV as without syncguard (exit status 139), and syncguard must
 * say, before it dies, that the fault on pinned memory was not its own (so
 * that the crash is not blamed on the guard).  Core dumps are switched off.
 *
 * SG-EXPECT: silent
 * SG-EXIT: 139
 * SG-NO-CHECK
 * SG-GREP: ^==[0-9]*==syncguard: a fault at 0x[0-9a-f]* (pc 0x[0-9a-f]*) on pinned memory that no pending copy guards: not syncguard's
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 8192u

int main(void)
{
    sgt_watchdog(60);
    sgt_no_core_dumps();
    sgt_init();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *host, *mine;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    SGT_CHECK(cuMemAllocHost((void **)&mine, page));
    memset(mine, 0, page);
    if (mprotect(mine, page, PROT_READ) != 0) {
        perror("mprotect");
        return 2;
    }
    sgt_hold_stream(s);                 /* never released: the copy stays in flight */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    printf("writing to a pinned page the program made read-only\n");
    fflush(stdout);
    ((volatile unsigned char *)mine)[16] = 1;
    printf("still alive: the write did not fault\n");
    return 1;
}
