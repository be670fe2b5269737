/* SPDX-License-Identifier: Apache-2.0 */
/* robust_neighbour_settle: a thread that keeps writing the neighbour bytes
 * of a guarded page (a pinned-memory allocator filling the next small
 * buffer next to one being copied) is single-stepped page_steps times (8
 * by default; plain stores: emulated, not stepped), then, the copy having
 * finished on the device, syncguard opens the page for good instead of
 * letting every further write fault.
 *
 * A copy fills the first half of a pinned page; the stream then writes a
 * flag (cuStreamWriteValue32) that the host polls through a pipe (write(2)
 * of the flag's word, read back): the copy has finished on the device but
 * the host has observed nothing (a poll that loads the flag itself would
 * be an observation of the stream: dw_flag_poll_ok).
 * The host then writes every word of the page's second half (512 writes),
 * synchronizes and checks both halves.  The counters at exit say: 8 writes
 * emulated (stepped on memory that /proc/self/mem cannot reach, as
 * driver-pinned memory on some machines may be), then one settle.  Twins: robust_neighbour_settle_now
 * (page_steps=0: the first write settles), robust_neighbour_settle_stepped
 * (emulate_neighbours=0: the 8 writes are single-stepped).
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: stats: .*faults_race=0, faults_waited=0, faults_neighbour=\(0, faults_emulated=8\|8, faults_emulated=0\), faults_settled=1,
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgtest.h"

#define COPIED 0x5eed0000u
#define MINE 0x0000beefu

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    size_t page = (size_t)sysconf(_SC_PAGESIZE), half = page / 2, words = half / 4;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(words, COPIED);
    uint32_t *host = sgt_pinned(page);
    volatile uint32_t *flag;
    CUdeviceptr dflag;
    SGT_CHECK(cuMemHostAlloc((void **)&flag, sizeof *flag, CU_MEMHOSTALLOC_DEVICEMAP));
    SGT_CHECK(cuMemHostGetDevicePointer(&dflag, (void *)flag, 0));
    *flag = 0;

    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, half, s));
    SGT_CHECK(cuStreamWriteValue32(s, dflag, 1, 0));
    int pfd[2];
    SGT_EXPECT(pipe(pfd) == 0);
    uint32_t seen = 0;
    while (seen == 0) /* done on the device, unobserved: a system call reads the flag */
        SGT_EXPECT(write(pfd[1], (const void *)flag, sizeof seen) == (ssize_t)sizeof seen &&
                   read(pfd[0], &seen, sizeof seen) == (ssize_t)sizeof seen);
    volatile uint32_t *mine = host + words;
    for (size_t i = 0; i < words; i++)
        mine[i] = MINE;

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (size_t i = 0; i < words; i++)
        wrong += (host[i] != COPIED) + (mine[i] != MINE);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFreeHost((void *)flag));
    SGT_CHECK(cuMemFree(dev));
    return sgt_verdict(wrong, "both halves");
}
