/* SPDX-License-Identifier: Apache-2.0 */
/* robust_raw_fork_child: robust_fork_child's child A, made with a raw
 * syscall(SYS_fork) (aarch64: SYS_clone with SIGCHLD alone) instead of fork(): glibc runs no pthread_atfork
 * handlers then, so syncguard must see the fork by itself.  The child
 * reads and writes the pinned destination of a copy in flight (its
 * guarded pages must get their normal protection back, as after fork():
 * no fault, no hang, no report) and exits 0.  The parent then reads the
 * destination early: reported, the copied data.  Emulator only, as
 * robust_fork_child.
 *
 * SG-EMU-ONLY
 * SG-EXPECT: early-host-read
 * SG-GREP: syncguard: 1 race reported (1 early-host-read, 0 early-host-write
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 8192u
#define OLD 0x11
#define NEW 0xc3
#define CHILD 0x77

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(BYTES, NEW);
    unsigned char *host = sgt_pinned_bytes(BYTES, OLD);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    fflush(stdout);

#ifdef SYS_fork
    pid_t a = (pid_t)syscall(SYS_fork);
#else /* aarch64 has no fork system call: a clone that is one */
    pid_t a = (pid_t)syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L);
#endif
    if (a < 0) {
        perror("syscall(SYS_fork)");
        return 2;
    }
    if (a == 0) {
        volatile unsigned char *v = host;
        unsigned sum = 0;
        for (unsigned i = 0; i < BYTES; i++)
            sum += v[i];
        for (unsigned i = 0; i < BYTES; i++)
            v[i] = CHILD;
        unsigned wrong = 0;
        for (unsigned i = 0; i < BYTES; i++)
            wrong += v[i] != CHILD;
        printf("child: read the buffer (sum %u), wrote it, %u bytes read back wrong\n", sum,
               wrong);
        fflush(stdout);
        _exit(wrong ? 1 : 0);
    }
    int st = sgt_wait_status(a);
    int child_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    printf("child: %s %d\n", WIFEXITED(st) ? "exit status" : "killed by signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));

    unsigned early = SGT_COUNT_WRONG((const uint32_t *)host, BYTES / 4, NEW * 0x01010101u);
    SGT_CHECK(cuStreamSynchronize(s));
    printf("parent: early read %u words wrong\n", early);
    sgt_free_all(s, dev, host);
    return sgt_check_line(child_ok && !early);
}
