/* robust_null_deref: a program that installs no SIGSEGV handler and
 * dereferences NULL dies of SIGSEGV, exactly as without syncguard (the
 * shell sees exit status 139), even with a guarded copy in flight: the
 * fault is not syncguard's, and syncguard must hand it to the default
 * action instead of swallowing it, looping on it or reporting it.  Core
 * dumps are switched off first (RLIMIT_CORE 0) so that none is left behind.
 *
 * SG-EXPECT: silent
 * SG-EXIT: 139
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sgtest.h"

#define BYTES 8192u

int main(void)
{
    sgt_watchdog(60);
    struct rlimit no_core = { 0, 0 };
    setrlimit(RLIMIT_CORE, &no_core);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD8(dev, 1, BYTES));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    memset(host, 0, BYTES);
    sgt_hold_stream(s);                 /* never released: the copy stays in flight */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));

    printf("dereferencing NULL\n");
    fflush(stdout);
    volatile int *volatile p = NULL;
    int v = *p;
    printf("still alive after dereferencing NULL (read %d)\n", v);
    return 0;
}
