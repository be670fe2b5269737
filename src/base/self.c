/* SPDX-License-Identifier: Apache-2.0 */
/* The library's own address range, from its program headers. */
#include "config.h"

#include <link.h>
#include <stddef.h>

#include "base/self.h"

static uintptr_t self_lo, self_hi;

int sg_self_contains(uintptr_t addr)
{
    return addr >= self_lo && addr < self_hi;
}

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    uintptr_t lo = UINTPTR_MAX, hi = 0, me = (uintptr_t)&find_self;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (me >= lo && me < hi) {
        self_lo = lo, self_hi = hi;
        return 1;
    }
    return 0;
}

void sg_self_init(void)
{
    dl_iterate_phdr(find_self, NULL);
}
