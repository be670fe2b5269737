/* SPDX-License-Identifier: Apache-2.0 */
/* Probe (GPU machine): where the driver places small pinned allocations.
 * For each size, eight cuMemAllocHost calls in a row: the address, its
 * offset in its page, and the distance from the previous one; so one sees
 * whether small allocations share pages and whether page-multiple sizes
 * come back page-aligned.
 *   cc -I/usr/local/cuda/include tests/gpu/probe_host_alloc.c \
 *      -L/usr/local/cuda/lib64/stubs -lcuda -o probe_host_alloc */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    CUdevice d;
    CUcontext c;
    if (cuInit(0) || cuDeviceGet(&d, 0) || cuDevicePrimaryCtxRetain(&c, d) || cuCtxSetCurrent(c)) {
        fprintf(stderr, "no CUDA\n");
        return 1;
    }
    static const size_t sizes[] = { 8, 100, 512, 1024, 3000, 4096, 5000, 8192, 65536, 1 << 20, 3 << 20 };
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        uintptr_t prev = 0;
        printf("size %zu:", sizes[s]);
        for (int i = 0; i < 8; i++) {
            void *p;
            CUresult r = cuMemAllocHost(&p, sizes[s]);
            if (r) {
                printf(" error %d", (int)r);
                break;
            }
            uintptr_t a = (uintptr_t)p;
            printf(" %#lx(+%lu,%+ld)", (unsigned long)a, (unsigned long)(a & 4095),
                   prev ? (long)(a - prev) : 0L);
            prev = a;
        }
        printf("\n");
    }
    return 0;
}
