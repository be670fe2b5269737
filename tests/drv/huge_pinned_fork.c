/* SPDX-License-Identifier: Apache-2.0 */
/* huge_pinned_fork: a forked child has a pinned allocation on syncguard's
 * huge pages (huge_pinned) exactly when it has the driver's own pinned
 * allocations (where the driver keeps them out of children, syncguard's
 * are kept out too), and where it has it, it holds the parent's bytes.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE)

/* In the child: 0 when it sees both allocations alike. */
static int child(const unsigned char *big, const unsigned char *small)
{
    int has_big = huge_mapping(big) != -1, has_small = huge_mapping(small) != -1;
    printf("child: huge block %s, driver's allocation %s\n", has_big ? "mapped" : "absent",
           has_small ? "mapped" : "absent");
    if (has_big != has_small)
        return 1;
    return has_big && (big[0] != 0x3c || big[BYTES - 1] != 0x3c) ? 1 : 0;
}

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    unsigned char *big, *small;
    SGT_CHECK(cuMemAllocHost((void **)&big, BYTES));
    SGT_CHECK(cuMemAllocHost((void **)&small, 4096));
    SGT_EXPECT(huge_mapping(big) == 1);
    memset(big, 0x3c, BYTES);
    fflush(stdout);
    pid_t pid = fork();
    SGT_EXPECT(pid >= 0);
    if (pid == 0)
        _exit(child(big, small));
    int status = 0;
    SGT_EXPECT(waitpid(pid, &status, 0) == pid);
    SGT_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    SGT_EXPECT(big[HUGE_PAGE] == 0x3c); /* the parent's block is intact */
    SGT_CHECK(cuMemFreeHost(big));
    SGT_CHECK(cuMemFreeHost(small));
    printf("check: ok\n");
    return 0;
}
