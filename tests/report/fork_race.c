/* SPDX-License-Identifier: Apache-2.0 */
/* fork_race: races from several processes, for the report tests.
 *
 *   fork_race [CHILDREN [ROUNDS]]
 *   fork_race after CHILDREN
 *
 * With CHILDREN > 0 (default 3) the parent forks that many children before
 * it touches CUDA (a CUDA context does not survive fork), and each child
 * does ROUNDS (default 1) early reads of a cuMemcpyDtoHAsync destination,
 * all from the same copy site and the same access site: one race, reported
 * once per process, the other rounds counted as repeats. The parent itself
 * never guards a copy, so it writes no report and no JSON file. It prints
 * "children: S S S" with their exit statuses and exits 0 when they all
 * exited alike (66 under syncguard, 0 without). With CHILDREN = 0 the
 * process does the rounds itself.
 *
 * "after": the parent races first (one round), then forks CHILDREN that
 * exit(0) at once without touching CUDA: their reports, counts, exit status
 * and files are their own, so they must exit 0 and write nothing.
 *
 * The copy waits behind a hold on its stream until the host waits, so
 * every early read is certain to be a race that was still in flight. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgtest.h"

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))

static uint32_t racy_read(const volatile uint32_t *h)
{
    return h[0]; /* the race: the copy into h is still pending */
}

static void one_round(CUstream s, CUdeviceptr dev, uint32_t *host)
{
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    uint32_t v = racy_read(host);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(v == 0x5eed1234u); /* syncguard waited for the copy */
}

static int race_rounds(int rounds)
{
    static int initialized;
    if (!initialized++)
        sgt_init();
    sgt_watchdog(60);
    CUstream s;
    CUdeviceptr dev;
    uint32_t *host;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, 0x5eed1234u, WORDS));
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    SGT_CHECK(cuCtxSynchronize());
    for (int i = 0; i < rounds; i++)
        one_round(s, dev, host);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    printf("check: ok (pid %d, %d rounds)\n", (int)getpid(), rounds);
    return 0;
}

int main(int argc, char **argv)
{
    int after = argc > 1 && strcmp(argv[1], "after") == 0;
    int children = argc > 1 + after ? atoi(argv[1 + after]) : 3;
    int rounds = argc > 2 && !after ? atoi(argv[2]) : 1;
    if (children <= 0)
        return race_rounds(rounds);
    if (after)
        race_rounds(1);
    fflush(stdout);
    for (int i = 0; i < children; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        /* exit(3), so that syncguard's exit handler runs */
        if (pid == 0)
            exit(after ? 0 : race_rounds(rounds));
    }
    int first = -1, alike = 1;
    printf("children:");
    for (int i = 0; i < children; i++) {
        int st;
        if (wait(&st) < 0 || !WIFEXITED(st))
            return 2;
        printf(" %d", WEXITSTATUS(st));
        if (first >= 0 && WEXITSTATUS(st) != first)
            alike = 0;
        first = WEXITSTATUS(st);
    }
    printf("\n");
    return alike ? 0 : 1;
}
