/* SPDX-License-Identifier: Apache-2.0 */
/* The body of robust_json_fd_reused_race and robust_json_fd_reused_ok: a
 * program that closes syncguard's descriptors and puts files of its own
 * under their numbers (as a daemon closing every descriptor does) must
 * never find syncguard's JSON lines in its files; the JSON file
 * (json_path) must still get every report and the exit summary.
 *
 * The exit summary is written after everything the program does, so the
 * scenario runs in a forked child (which has not touched the driver before:
 * it is a process of its own to syncguard and the emulator), and the parent
 * reads both files once the child has exited:
 *   race: an early read at one site (reported: the JSON file is created),
 *         then the program closes the JSON file's descriptor and dup2()s a
 *         file of its own onto that number, writes a line to it, makes an
 *         early read at a second site (reported), and does the same again
 *         with the descriptor syncguard opened anew, before exit (the
 *         summary). The JSON file: two race lines, then the summary
 *         ("reports":2); the program's file: its two lines, nothing else;
 *   ok:   the same reads after synchronizing (no report): syncguard has no
 *         JSON file open before exit (it is created for the summary), the
 *         program writes its two lines to its own file; the JSON file: the
 *         summary alone ("reports":0); the program's file: its lines.
 * The copies wait behind holds on their stream, released when the program
 * first blocks in the driver (syncguard's wait for the racy read). */
#include <cuda.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u
#define MINE "the program's own line\n"

static __attribute__((noinline)) unsigned read_one(const volatile uint32_t *h)
{
    return SGT_COUNT_WRONG(h, WORDS, NEW);
}

/* Last word first: a body of its own, which the compiler cannot fold into
 * read_one's (the reports must name two sites). */
static __attribute__((noinline)) unsigned read_two(const volatile uint32_t *h)
{
    unsigned wrong = 0;
    for (unsigned i = WORDS; i-- > 0;)
        wrong += h[i] != NEW;
    return wrong;
}

/* A copy into h behind a hold, then a read of h at site `which`: before the
 * stream is synchronized (racy) or after. Returns the words read wrong. */
static unsigned copy_and_read(CUstream s, CUdeviceptr dev, uint32_t *h, int which, int racy)
{
    for (unsigned i = 0; i < WORDS; i++)
        h[i] = OLD;
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(h, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    if (!racy)
        SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = which == 1 ? read_one(h) : read_two(h);
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

/* Lines of the file at path that start with prefix (all lines: ""). */
static int count_lines(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    char line[65536];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    if (f)
        fclose(f);
    return n;
}

/* Lines of the file at path that contain needle. */
static int count_containing(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[65536];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return n;
}

/* What the program does to its descriptors between reads: closes the JSON
 * file's descriptor, if syncguard has one open, and puts its own file (own)
 * under that number, then writes its line there; with none open, writes
 * its line to own. Returns 1 if its line was written; *reused says whether
 * a JSON descriptor was found and taken over. */
static int take_over(const char *json, int own, int *reused)
{
    int fd = fd_of(json);
    *reused = fd >= 0;
    if (fd >= 0) {
        close(fd);
        if (dup2(own, fd) != fd)
            return 0;
    } else {
        fd = own;
    }
    return write(fd, MINE, strlen(MINE)) == (ssize_t)strlen(MINE);
}

/* The child: the reads, and the descriptor games after each; says on
 * `verdict` whether its own steps went as they should (its exit status is
 * syncguard's 66 after a report, whatever it passes to exit). */
static void child(const char *json, const char *mine, int racy, int verdict)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    int own = open(mine, O_WRONLY | O_APPEND);
    int reused1 = 0, reused2 = 0, ok = own >= 0;
    unsigned wrong = copy_and_read(s, dev, host, 1, racy);
    ok = ok && take_over(json, own, &reused1);
    wrong += copy_and_read(s, dev, host, 2, racy);
    ok = ok && take_over(json, own, &reused2);
    printf("child: %u words read wrong; JSON descriptor taken over after the first read: %s, "
           "after the second: %s\n", wrong, reused1 ? "yes" : "no", reused2 ? "yes" : "no");
    sgt_free_all(s, dev, host);
    ok = ok && !wrong && reused1 == racy && reused2 == racy;
    if (write(verdict, ok ? "y" : "n", 1) != 1)
        exit(1);
    exit(0);
}

/* Runs the child, then checks its status and both files. */
static int json_fd_reused_main(const char *prefix, int racy)
{
    sgt_watchdog(60);
    char mine[] = "/tmp/robust_json_fd_reused.XXXXXX";
    int made = mkstemp(mine);
    if (made < 0) {
        perror("mkstemp");
        return 2;
    }
    close(made);
    fflush(stdout);
    fflush(stderr);
    char json[256], said = 0;
    int verdict[2];
    sgt_pipe(verdict);
    pid_t pid = sgt_fork();
    snprintf(json, sizeof json, "%s.%d", prefix, (int)(pid ? pid : getpid()));
    if (pid == 0) {
        close(verdict[0]);
        child(json, mine, racy, verdict[1]);
    }
    close(verdict[1]);
    int child_ok = read(verdict[0], &said, 1) == 1 && said == 'y';
    close(verdict[0]);
    int st = sgt_wait_status(pid);
    int status_ok = WIFEXITED(st) && WEXITSTATUS(st) == (racy ? 66 : 0);
    int in_mine = count_lines(mine, MINE), lines_in_mine = count_lines(mine, "");
    int races = count_lines(json, "{\"type\":\"race\"");
    int summaries = count_lines(json, "{\"type\":\"summary\"");
    int lines = count_lines(json, "");
    int counted = count_containing(json, racy ? "\"reports\":2," : "\"reports\":0,");
    printf("child: %s %d; the program's file: %d of its own lines, %d lines in all; the JSON "
           "file: %d lines, %d races, %d summaries, %d with the expected report count\n",
           WIFEXITED(st) ? "exit status" : "killed by signal",
           WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), in_mine, lines_in_mine, lines, races,
           summaries, counted);
    unlink(mine);
    unlink(json);
    int want_races = racy ? 2 : 0;
    return sgt_check_line(child_ok && status_ok && in_mine == 2 && lines_in_mine == 2 &&
                          races == want_races && summaries == 1 && counted == 1 &&
                          lines == want_races + 1);
}
