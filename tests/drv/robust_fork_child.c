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

#include "sgtest.h"

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

static int wait_status(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    return st;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD8(dev, NEW, BYTES));
    SGT_CHECK(cuCtxSynchronize());
    unsigned char *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    memset(host, OLD, BYTES);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    fflush(stdout);

    /* 1 */
    pid_t a = fork();
    if (a < 0) {
        perror("fork");
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
        printf("child A: read the buffer (sum %u), wrote it, %u bytes read back wrong\n", sum,
               wrong);
        exit(wrong ? 1 : 0);
    }
    int st_a = wait_status(a);
    int a_ok = WIFEXITED(st_a) && WEXITSTATUS(st_a) == 0;
    printf("child A: %s %d\n", WIFEXITED(st_a) ? "exit status" : "killed by signal",
           WIFEXITED(st_a) ? WEXITSTATUS(st_a) : WTERMSIG(st_a));

    /* 2 */
    int p[2];
    if (pipe(p) != 0) {
        perror("pipe");
        return 2;
    }
    pid_t b = fork();
    if (b < 0) {
        perror("fork");
        return 2;
    }
    if (b == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        execl("/bin/sh", "sh", "-c", "echo \"$LD_PRELOAD\"", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    char line[4096];
    size_t got = 0;
    ssize_t r;
    while (got < sizeof line - 1 && (r = read(p[0], line + got, sizeof line - 1 - got)) > 0)
        got += (size_t)r;
    line[got] = '\0';
    close(p[0]);
    int st_b = wait_status(b);
    int b_ok = WIFEXITED(st_b) && WEXITSTATUS(st_b) == 0 && strstr(line, "libsyncguard");
    printf("child B (exec sh): status %d, LD_PRELOAD %s", st_b, got ? line : "(nothing)\n");

    /* 3 */
    unsigned early = read_early(host);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = 0;
    for (unsigned i = 0; i < BYTES; i++)
        late += host[i] != NEW;
    printf("parent: early read %u bytes wrong, after sync %u\n", early, late);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (!a_ok || !b_ok || early || late) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
