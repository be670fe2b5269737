/* SPDX-License-Identifier: Apache-2.0 */
/* The host side of a copy as rows and slices, and its arithmetic. */
#ifndef SG_MODEL_SHAPE_H
#define SG_MODEL_SHAPE_H

#include <stddef.h>

/* The host side of a 2D/3D copy: rows of width bytes, pitch bytes apart,
 * height rows per slice, slices slice_rows rows apart. A linear copy is one
 * row (width = pitch = size, height = slice_rows = depth = 1). */
struct sg_shape {
    size_t width, pitch;
    size_t height, slice_rows, depth;
};

/* The extent of a shape in bytes. */
size_t sg_shape_extent(const struct sg_shape *s);
/* A linear shape of n bytes. */
struct sg_shape sg_shape_linear(size_t n);
/* The first byte of s at or after offset off, or the extent if none: past
 * a row's width comes the next row, past a slice's last row the next
 * slice. Arithmetic only, however wide the range: the fault handler asks
 * this of a whole rep string instruction. */
size_t sg_shape_next(const struct sg_shape *s, size_t off);

#endif
