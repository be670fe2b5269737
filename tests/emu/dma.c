/* SPDX-License-Identifier: Apache-2.0 */
/* dma.c - how the emulated device reaches host memory.
 *
 * A real device moves bytes with DMA, which ignores the CPU page tables'
 * protection: a copy lands in a host buffer even while the program has it
 * mprotect'ed PROT_NONE or PROT_READ.  The emulator gets the same effect by
 * going through /proc/self/mem, whose accesses are "forced" like a
 * debugger's.  Raw system calls keep these accesses invisible to libraries
 * preloaded to watch pread/pwrite, as real DMA is.
 */
#include "emu.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int mem_fd = -1;

static int open_self_mem(void)
{
    return open("/proc/self/mem", O_RDWR | O_CLOEXEC);
}

/* A descriptor of /proc/self/mem keeps naming the mm of the process that
 * opened it, so a forked child must open its own. */
static void reopen_in_child(void)
{
    int fd = open_self_mem();
    if (mem_fd >= 0) {
        if (fd >= 0) {
            dup2(fd, mem_fd);
            close(fd);
        } else {
            close(mem_fd);
            mem_fd = -1;
        }
    }
}

CUresult emu_dma_init(void)
{
    if (mem_fd >= 0)
        return CUDA_SUCCESS;
    mem_fd = open_self_mem();
    if (mem_fd < 0)
        return CUDA_ERROR_OPERATING_SYSTEM;
    pthread_atfork(NULL, NULL, reopen_in_child);
    return CUDA_SUCCESS;
}

static void transfer(long sysno, char *buf, uintptr_t addr, size_t n)
{
    addr = emu_dma_alias(addr, n);      /* shared mappings: through their device view */
    while (n > 0) {
        long k = syscall(sysno, mem_fd, buf, n, (long)addr);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            emu_fatal("DMA %s host address %#lx (%zu bytes) failed: %s",
                      sysno == SYS_pread64 ? "from" : "to", (unsigned long)addr, n,
                      k < 0 ? strerror(errno) : "address not mapped");
        buf += k;
        addr += (uintptr_t)k;
        n -= (size_t)k;
    }
}

void emu_dma_read(void *dst, uintptr_t host_src, size_t n)
{
    transfer(SYS_pread64, dst, host_src, n);
}

void emu_dma_write(uintptr_t host_dst, const void *src, size_t n)
{
    transfer(SYS_pwrite64, (char *)src, host_dst, n);
}

/* The kernel copies /proc/self/mem data bytewise as it likes, so a read
 * racing with a host store could see a torn value; reading until two reads
 * agree makes that practically impossible for flag-like values. */
static uint64_t dma_load(uintptr_t addr, size_t size)
{
    uint64_t a = 0, b = 0;
    emu_dma_read(&a, addr, size);
    for (;;) {
        emu_dma_read(&b, addr, size);
        if (a == b)
            return a;
        a = b;
    }
}

uint64_t emu_dev_load(uintptr_t addr, size_t size, bool host)
{
    if (host)
        return dma_load(addr, size);
    if (size == 4)
        return __atomic_load_n((uint32_t *)addr, __ATOMIC_SEQ_CST);
    return __atomic_load_n((uint64_t *)addr, __ATOMIC_SEQ_CST);
}

void emu_dev_store(uintptr_t addr, uint64_t value, size_t size, bool host)
{
    if (host) {
        uint32_t v32 = (uint32_t)value;
        emu_dma_write(addr, size == 4 ? (void *)&v32 : (void *)&value, size);
    } else if (size == 4) {
        __atomic_store_n((uint32_t *)addr, (uint32_t)value, __ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n((uint64_t *)addr, value, __ATOMIC_SEQ_CST);
    }
}
