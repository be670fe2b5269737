/* SPDX-License-Identifier: Apache-2.0 */
/* robust_fork_child: fork() while a guarded copy is in flight.
 *   1. Child A reads the whole pinned destination (syncguard gave the
 *      child's pages back their normal protection: no fault, no hang, no
 *      report; the values may be anything), writes it, reads its own values
 *      back, and exits with exit(0): status 0.
 *   2. Child B execs /bin/sh -c 'echo "$LD_PRELOAD"': the preload passes
 *      through exec, the line names libsyncguard.
 *   3. The parent, still without synchronizing, reads the destination
 *      early: reported (early-host-read), the data are the copied data (the
 *      children's writes went to their own copies of the pages).
 * The copy waits behind a hold on its stream, released when the parent
 * first blocks in the driver (syncguard's wait in step 3); the children
 * never call the driver.  Emulator only: a real driver marks pinned memory
 * MADV_DONTFORK, so a child touching it faults whatever syncguard does.
 *
 * SG-EMU-ONLY
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in read_early
 * SG-GREP: syncguard: 1 race reported (1 early-host-read, 0 early-host-write
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgt_robust.h"

#define BYTES 8192u
#define OLD 0x11
#define NEW 0xc3
#define CHILD 0x77

static __attribute__((noinline)) unsigned read_early(const volatile unsigned char *h)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < BYTES; i++)
        wrong += h[i] != NEW;
    return wrong;
}

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

    /* 1 */
    pid_t a = sgt_fork();
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
        printf("child A: read the buffer (sum %u), wrote it, %u bytes read back wrong\n", sum,
               wrong);
        exit(wrong ? 1 : 0);
    }
    int st_a = sgt_wait_status(a);
    int a_ok = WIFEXITED(st_a) && WEXITSTATUS(st_a) == 0;
    printf("child A: %s %d\n", WIFEXITED(st_a) ? "exit status" : "killed by signal",
           WIFEXITED(st_a) ? WEXITSTATUS(st_a) : WTERMSIG(st_a));

    /* 2 */
    int b_stdout;
    pid_t b = sgt_fork_piped(1, &b_stdout);
    if (b == 0) {
        execl("/bin/sh", "sh", "-c", "echo \"$LD_PRELOAD\"", (char *)NULL);
        _exit(127);
    }
    char line[4096];
    size_t got = sgt_read_all(b_stdout, line, sizeof line);
    close(b_stdout);
    int st_b = sgt_wait_status(b);
    int b_ok = WIFEXITED(st_b) && WEXITSTATUS(st_b) == 0 && strstr(line, "libsyncguard");
    printf("child B (exec sh): status %d, LD_PRELOAD %s", st_b, got ? line : "(nothing)\n");

    /* 3 */
    unsigned early = read_early(host);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = 0;
    for (unsigned i = 0; i < BYTES; i++)
        late += host[i] != NEW;
    printf("parent: early read %u bytes wrong, after sync %u\n", early, late);
    sgt_free_all(s, dev, host);
    return sgt_check_line(a_ok && b_ok && !early && !late);
}
