/* SPDX-License-Identifier: Apache-2.0 */
/* Emulating a neighbour's plain load or store: the access itself, through
 * /proc/self/mem (the kernel's access to the process's memory ignores the
 * page protection, as a debugger's does). The instruction is decoded by
 * the machine's own decoder (emulate_x86_64.c, emulate_aarch64.c), which
 * also completes it in the context.
 *
 * Signal-safe: system calls only, no allocation, no locks of its own (the
 * caller holds the model lock, which also serializes the reopening after
 * a fork). */
#include "config.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "fault/emulate.h"

/* ---- the descriptor ---- */

static int mem_fd = -1;
static pid_t mem_pid;
static dev_t mem_dev;
static ino_t mem_ino;

static int open_mem(void)
{
    return (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/mem", O_RDWR | O_CLOEXEC);
}

static int remember(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return 0;
    mem_dev = st.st_dev, mem_ino = st.st_ino, mem_pid = getpid();
    return 1;
}

/* A forked child inherited a descriptor of its parent's memory: the same
 * number gets one of its own (the program never saw it; it was ours). */
static int reopen_in_child(void)
{
    int fd = open_mem();
    if (fd < 0 || syscall(SYS_dup3, fd, mem_fd, O_CLOEXEC) < 0 || !remember(mem_fd)) {
        mem_fd = -1; /* never the parent's memory */
        if (fd >= 0)
            syscall(SYS_close, fd);
        return 0;
    }
    syscall(SYS_close, fd);
    return 1;
}

/* 1 if mem_fd is still this process's /proc/self/mem: the program may
 * have closed the number and opened something else on it. */
static int mem_usable(void)
{
    struct stat st;
    if (mem_fd < 0 || fstat(mem_fd, &st) != 0 || st.st_dev != mem_dev || st.st_ino != mem_ino)
        return 0;
    return getpid() == mem_pid || reopen_in_child();
}

int sg_emulate_access(ucontext_t *uc, const struct sg_mem_access *a)
{
    unsigned char buf[SG_ACCESS_MAX];
    if (!mem_usable())
        return 0;
    long done;
    if (a->is_write) {
        sg_emulate_store_bytes(uc, a, buf);
        done = syscall(SYS_pwrite64, mem_fd, buf, (size_t)a->size, (off_t)a->addr);
    } else {
        done = syscall(SYS_pread64, mem_fd, buf, (size_t)a->size, (off_t)a->addr);
    }
    if (done != (long)a->size)
        return 0; /* a partial store cannot happen: size <= SG_ACCESS_MAX on one page */
    sg_emulate_complete(uc, a, buf);
    return 1;
}

int sg_emulate_peek(uintptr_t addr, void *buf, size_t n)
{
    return mem_usable() && syscall(SYS_pread64, mem_fd, buf, n, (off_t)addr) == (long)n;
}

/* Reads and writes through the descriptor reach a PROT_NONE page? */
static int works_on_protected_page(void)
{
    long size = sysconf(_SC_PAGESIZE);
    unsigned char *p = (void *)syscall(SYS_mmap, NULL, size, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    p[8] = 0x5a;
    unsigned char in = 0, out = 0xa5;
    int ok = syscall(SYS_mprotect, p, size, PROT_NONE) == 0 &&
             syscall(SYS_pread64, mem_fd, &in, 1, (off_t)(uintptr_t)(p + 8)) == 1 && in == 0x5a &&
             syscall(SYS_pwrite64, mem_fd, &out, 1, (off_t)(uintptr_t)(p + 9)) == 1 &&
             syscall(SYS_mprotect, p, size, PROT_READ) == 0 && p[9] == 0xa5;
    syscall(SYS_munmap, p, size);
    return ok;
}

void sg_emulate_install(void)
{
    mem_fd = open_mem();
    if (mem_fd >= 0 && (!remember(mem_fd) || !works_on_protected_page())) {
        syscall(SYS_close, mem_fd);
        mem_fd = -1;
    }
}
