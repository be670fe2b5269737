/* SPDX-License-Identifier: Apache-2.0 */
/* Shape arithmetic: which bytes of its extent a 2D/3D copy transfers, and
 * where an access of a range first meets a copy. */
#include "config.h"

#include "model/copies.h"
#include "model/shape.h"

struct sg_shape sg_shape_linear(size_t n)
{
    return (struct sg_shape){ n, n, 1, 1, 1 };
}

size_t sg_shape_extent(const struct sg_shape *s)
{
    if (!s->width || !s->height || !s->depth)
        return 0;
    return ((s->depth - 1) * s->slice_rows + (s->height - 1)) * s->pitch + s->width;
}

size_t sg_shape_next(const struct sg_shape *s, size_t off)
{
    size_t extent = sg_shape_extent(s);
    if (off >= extent)
        return extent;
    size_t row = off / s->pitch, col = off % s->pitch;
    if (col >= s->width)
        row++, col = 0;
    if (row % s->slice_rows >= s->height)
        row = (row / s->slice_rows + 1) * s->slice_rows, col = 0;
    size_t next = row * s->pitch + col;
    return next < extent ? next : extent;
}

uintptr_t sg_copy_first_touched(const struct sg_copy *c, uintptr_t lo, uintptr_t hi)
{
    uintptr_t end = c->base + c->size;
    if (lo < c->base)
        lo = c->base;
    if (hi > end)
        hi = end;
    if (lo >= hi)
        return 0;
    uintptr_t a = c->base + sg_shape_next(&c->shape, lo - c->base);
    return a < hi ? a : 0;
}
