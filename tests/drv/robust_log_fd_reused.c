/* SPDX-License-Identifier: Apache-2.0 */
/* robust_log_fd_reused: the program closes the descriptor of syncguard's
 * log file (as a daemon closing every descriptor does) and opens a file of
 * its own, which gets the same number.  The next report must not land in
 * the program's file: syncguard sees that the descriptor is no longer its
 * log and opens the log again.  Two races at two sites; the log file
 * (log_path=robust_log_fd_reused.%p, in the working directory) must hold
 * both SUMMARY lines, the program's file only what the program wrote.
 *
 * SG-OPTIONS: log_path=robust_log_fd_reused.%p
 * SG-EXIT: 66
 */
#include <cuda.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u
#define MINE "the program's own line\n"

static __attribute__((noinline)) unsigned race_one(const volatile uint32_t *h)
{
    return SGT_COUNT_WRONG(h, WORDS, NEW);
}

static __attribute__((noinline)) unsigned race_two(const volatile uint32_t *h)
{
    return SGT_COUNT_WRONG(h, WORDS, NEW);
}

static unsigned race(CUstream s, CUdeviceptr dev, uint32_t *h, int which)
{
    for (unsigned i = 0; i < WORDS; i++)
        h[i] = OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(h, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned wrong = which == 1 ? race_one(h) : race_two(h);
    SGT_CHECK(cuStreamSynchronize(s));
    return wrong;
}

/* The descriptor open on `name` (a file in the working directory), or -1. */
static int fd_of(const char *name)
{
    char cwd[PATH_MAX], want[PATH_MAX + 300], link[PATH_MAX + 300], target[PATH_MAX + 300];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    snprintf(want, sizeof want, "%s/%s", cwd, name);
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int found = -1;
    while (d && (e = readdir(d))) {
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            if (strcmp(target, want) == 0)
                found = atoi(e->d_name);
        }
    }
    if (d)
        closedir(d);
    return found;
}

static int count_lines(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    if (f)
        fclose(f);
    return n;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    char log[64];
    snprintf(log, sizeof log, "robust_log_fd_reused.%d", (int)getpid());

    unsigned wrong = race(s, dev, host, 1);
    int fd = fd_of(log);
    int mine_ok = 0;
    char mine[] = "/tmp/robust_log_fd_reused.XXXXXX";
    int own = mkstemp(mine);
    if (fd >= 0 && own >= 0) {
        close(fd);
        if (dup2(own, fd) == fd && write(fd, MINE, strlen(MINE)) == (ssize_t)strlen(MINE))
            mine_ok = 1;
        close(own);
    }
    wrong += race(s, dev, host, 2);
    int in_mine = count_lines(mine, MINE), others_in_mine = count_lines(mine, "");
    int summaries = count_lines(log, "SUMMARY: syncguard:");
    printf("log descriptor %d; early reads: %u words wrong; the program's file: %d of its own "
           "lines, %d lines in all; the log: %d SUMMARY lines\n", fd, wrong, in_mine,
           others_in_mine, summaries);
    unlink(mine);
    unlink(log);
    if (fd >= 0)
        close(fd);
    sgt_free_all(s, dev, host);
    return sgt_check_line(fd >= 0 && mine_ok && !wrong && in_mine == 1 && others_in_mine == 1 &&
                          summaries == 2);
}
