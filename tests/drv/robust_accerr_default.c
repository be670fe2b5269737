/* SPDX-License-Identifier: Apache-2.0 */
/* robust_accerr_default: a program that installs no SIGSEGV handler and
 * reads a PROT_NONE page it mapped itself (si_code SEGV_ACCERR, the kind of
 * fault syncguard handles for guarded pages) dies of SIGSEGV, exactly as
 * without syncguard (the shell sees exit status 139), even with a guarded
 * copy in flight: syncguard must see that the page is not its own and hand
 * the fault to the default action.  Core dumps are switched off first.
 *
 * SG-EXPECT: silent
 * SG-EXIT: 139
 * SG-NO-CHECK
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * robust_null_deref.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#ifdef SG_TWIN /* robust_null_deref */
#else
#include <sys/mman.h>
#endif
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 8192u

int main(void)
{
    sgt_watchdog(60);
    sgt_no_core_dumps();
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(BYTES, 1);
    unsigned char *host = sgt_pinned_bytes(BYTES, 0);
    sgt_hold_stream(s);                 /* never released: the copy stays in flight */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
#ifdef SG_TWIN /* robust_null_deref */
#else
    volatile int *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
#endif

#ifdef SG_TWIN /* robust_null_deref */
    printf("dereferencing NULL\n");
#else
    printf("reading a PROT_NONE page\n");
#endif
    fflush(stdout);
#ifdef SG_TWIN /* robust_null_deref */
    volatile int *volatile p = NULL;
#endif
    int v = *p;
#ifdef SG_TWIN /* robust_null_deref */
    printf("still alive after dereferencing NULL (read %d)\n", v);
#else
    printf("still alive after reading a PROT_NONE page (read %d)\n", v);
#endif
    return 0;
}
