/* SPDX-License-Identifier: Apache-2.0 */
/* The page size, and rounding addresses to pages. */
#ifndef SG_BASE_PAGE_H
#define SG_BASE_PAGE_H

#include <stdint.h>

extern uintptr_t sg_page_size;

/* Reads the page size (once, at start-up; 4096 until then). */
void sg_page_init(void);

static inline uintptr_t sg_page_down(uintptr_t a)
{
    return a & ~(sg_page_size - 1);
}
static inline uintptr_t sg_page_up(uintptr_t a)
{
    return (a + sg_page_size - 1) & ~(sg_page_size - 1);
}

#endif
