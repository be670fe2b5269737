/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_guarded_meanwhile_ok: a read() into pinned memory that
 * races with nothing, while another thread guards the buffer's page.
 * Thread A read()s 1 KiB from an empty pipe into bytes [2048, 3072) of a
 * pinned page no copy guards: syncguard's shim checks the buffer, finds
 * nothing, and the call blocks in the kernel.  Then the main thread
 * enqueues a copy into bytes [0, 256) of the same page (guarding it) and
 * writes to the pipe: the kernel now writes A's buffer on a guarded page.
 * That used to fail with EFAULT (the shim's check and the kernel's write
 * were not atomic with respect to guarding); the read must return 1 KiB
 * of the pipe's data, with no report.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver).
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sgt_robust.h"

#define COPIED 256u
#define OLD 0x11
#define NEW 0xc3
#define PIPE_BYTE 0x7e
#define AT 2048u
#define LEN 1024u

static int p[2];
static unsigned char *host;
static volatile long reader_tid;
static ssize_t got;
static int err;

static void *reader(void *arg)
{
    (void)arg;
    reader_tid = sgt_tid();
    got = read(p[0], host + AT, LEN); /* blocks: the pipe is empty */
    err = errno;
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    sgt_init();
    sgt_pipe(p);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(COPIED, NEW);
    unsigned char *raw = sgt_pinned_bytes(2 * page, OLD);
    host = (unsigned char *)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));

    pthread_t t;
    if (pthread_create(&t, NULL, reader, NULL) != 0)
        return 2;
    while (!reader_tid)
        sched_yield();
    sgt_wait_in_syscall(reader_tid, SYS_read, (uintptr_t)p[0], (uintptr_t)p[0] + 1);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, COPIED, s)); /* guards A's page */
    sgt_release_when_host_waits(hold);
    unsigned char data[LEN];
    memset(data, PIPE_BYTE, LEN);
    ssize_t w = write(p[1], data, LEN);
    pthread_join(t, NULL);
    SGT_CHECK(cuStreamSynchronize(s));

    unsigned wrong = 0;
    for (unsigned i = 0; i < COPIED; i++)
        wrong += host[i] != NEW;
    for (unsigned i = 0; i < LEN; i++)
        wrong += host[AT + i] != PIPE_BYTE;
    printf("wrote %zd; read returned %zd (%s); %u bytes wrong\n", w, got,
           got < 0 ? strerror(err) : "no error", wrong);
    return sgt_check_line(w == LEN && got == LEN && wrong == 0);
}
