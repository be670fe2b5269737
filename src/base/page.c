/* SPDX-License-Identifier: Apache-2.0 */
/* The page size that guards are counted in. */
#include "config.h"

#include <unistd.h>

#include "base/page.h"

uintptr_t sg_page_size = 4096;

void sg_page_init(void)
{
    sg_page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
}
