/* SPDX-License-Identifier: Apache-2.0 */
/* Probe (GPU machine), issue 31 item 1: what page protection does to
 * managed memory. For pages resident on the host, on the device, and
 * migrating, it protects a cudaMallocManaged range (PROT_NONE, PROT_READ)
 * and says: whether mprotect succeeds; whether a kernel touching the
 * protected pages runs and its writes arrive; whether a host access faults
 * (SIGSEGV caught here, the range unprotected, the access retried);
 * whether cudaMemPrefetchAsync and cudaMemAdvise still work; and whether
 * the data are right afterwards. One line per observation.
 *   nvcc -O1 -arch=sm_90 tests/gpu/probe_managed.cu -o probe_managed */
#include <cuda_runtime.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 64
static size_t page, bytes;
static volatile sig_atomic_t faults;
static char *fault_base;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    faults++;
    char *a = (char *)si->si_addr;
    if (a >= fault_base && a < fault_base + bytes)
        mprotect(fault_base, bytes, PROT_READ | PROT_WRITE);
    else
        _exit(3);
}

__global__ void fill(unsigned *p, size_t n, unsigned v)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

__global__ void spin_fill(unsigned *p, size_t n, unsigned v, long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

static const char *err(cudaError_t e) { return e ? cudaGetErrorString(e) : "ok"; }

static unsigned count_wrong(const unsigned *p, size_t n, unsigned v)
{
    unsigned w = 0;
    for (size_t i = 0; i < n; i++)
        w += p[i] != v;
    return w;
}

static void launch_fill(unsigned *p, unsigned v)
{
    size_t n = bytes / 4;
    fill<<<(unsigned)((n + 255) / 256), 256>>>(p, n, v);
}

/* Where: host (the host wrote last), device (a kernel wrote last and the
 * pages migrated there), or migrating (a prefetch to the device is in flight). */
static void one_case(const char *where, int prot)
{
    unsigned *p;
    size_t n = bytes / 4;
    cudaError_t e = cudaMallocManaged(&p, bytes);
    if (e) {
        printf("%s: cudaMallocManaged: %s\n", where, err(e));
        return;
    }
    fault_base = (char *)p;
    const char *pn = prot == PROT_NONE ? "PROT_NONE" : "PROT_READ";
    for (size_t i = 0; i < n; i++)
        p[i] = 1;
    if (!strcmp(where, "device")) {
        launch_fill(p, 2);
        cudaDeviceSynchronize();
    }
    if (!strcmp(where, "migrating"))
        cudaMemPrefetchAsync(p, bytes, cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, 0);
    int r = mprotect(p, bytes, prot);
    printf("%s %s: mprotect -> %d (%s)\n", where, pn, r, r ? strerror(errno) : "ok");
    if (!strcmp(where, "migrating")) {
        e = cudaDeviceSynchronize();
        printf("%s %s: prefetch to device while protected, sync -> %s\n", where, pn, err(e));
    }
    /* a kernel writes the protected pages */
    launch_fill(p, 3);
    e = cudaDeviceSynchronize();
    printf("%s %s: kernel writing protected pages -> %s (faults so far %d)\n", where, pn, err(e),
           (int)faults);
    /* the host reads while protected */
    faults = 0;
    unsigned w = count_wrong(p, n, 3);
    printf("%s %s: host read while protected: %d faults, %u wrong words of %zu\n", where, pn,
           (int)faults, w, n);
    mprotect(p, bytes, prot);
    faults = 0;
    p[0] = 4;
    printf("%s %s: host write while protected: %d faults\n", where, pn, (int)faults);
    /* prefetch to the CPU and advice while protected */
    mprotect(p, bytes, prot);
    faults = 0;
    e = cudaMemPrefetchAsync(p, bytes, cudaMemLocation{cudaMemLocationTypeHost, 0}, 0, 0);
    cudaError_t e2 = cudaDeviceSynchronize();
    printf("%s %s: prefetch to host while protected -> %s / sync %s, faults %d\n", where, pn,
           err(e), err(e2), (int)faults);
    e = cudaMemAdvise(p, bytes, cudaMemAdviseSetPreferredLocation,
                      cudaMemLocation{cudaMemLocationTypeDevice, 0});
    printf("%s %s: cudaMemAdvise while protected -> %s\n", where, pn, err(e));
    launch_fill(p, 5);
    e = cudaDeviceSynchronize();
    mprotect(p, bytes, PROT_READ | PROT_WRITE);
    w = count_wrong(p, n, 5);
    printf("%s %s: after advice, kernel, unprotect: kernel %s, %u wrong words\n", where, pn,
           err(e), w);
    cudaFree(p);
}

/* A host read of managed memory while a kernel still writes it: the race
 * of issue 31, with no protection, then with PROT_NONE taken at launch and
 * a fault handler that (like syncguard) synchronizes before unprotecting. */
static void concurrent_case(void)
{
    unsigned *p;
    size_t n = bytes / 4;
    cudaMallocManaged(&p, bytes);
    for (size_t i = 0; i < n; i++)
        p[i] = 1;
    spin_fill<<<(unsigned)((n + 255) / 256), 256>>>(p, n, 7, 200LL * 1000 * 1000);
    unsigned w = count_wrong(p, n, 7);
    cudaDeviceSynchronize();
    printf("concurrent: unprotected host read during a kernel: %u wrong words of %zu\n", w, n);
    for (size_t i = 0; i < n; i++)
        p[i] = 1;
    spin_fill<<<(unsigned)((n + 255) / 256), 256>>>(p, n, 8, 200LL * 1000 * 1000);
    int r = mprotect(p, bytes, PROT_NONE);
    fault_base = (char *)p;
    faults = 0;
    /* what a handler that waits would do: here the wait is explicit */
    cudaError_t q = cudaStreamQuery(0);
    cudaDeviceSynchronize();
    w = count_wrong(p, n, 8);
    printf("concurrent: PROT_NONE at launch (mprotect %d, query %s), sync, read: %d faults, %u wrong\n",
           r, err(q), (int)faults, w);
    cudaFree(p);
}

int main(void)
{
    page = (size_t)sysconf(_SC_PAGESIZE);
    bytes = PAGES * page;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0);
    printf("concurrentManagedAccess=%d pageableMemoryAccess=", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, 0);
    printf("%d\n", v);
    const char *wheres[] = { "host", "device", "migrating" };
    for (int i = 0; i < 3; i++) {
        one_case(wheres[i], PROT_NONE);
        one_case(wheres[i], PROT_READ);
    }
    concurrent_case();
    printf("done\n");
    return 0;
}
