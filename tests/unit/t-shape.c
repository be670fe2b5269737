/* SPDX-License-Identifier: Apache-2.0 */
/* The copy table's shape arithmetic (model/shape.c): the extent of a 2D/3D
 * copy, the next byte it transfers, and where an access meets a copy (the
 * bytes between rows and slices are not the copy's). */
#include "model/copies.h"
#include "model/shape.h"
#include "unit.h"

int main(void)
{
    struct sg_shape lin = sg_shape_linear(100);
    CHECK(sg_shape_extent(&lin) == 100, "a linear shape's extent is its size");
    CHECK(sg_shape_next(&lin, 40) == 40, "every byte of a linear shape is transferred");
    CHECK(sg_shape_next(&lin, 100) == 100, "past the end: the extent");

    struct sg_shape zero = { 0, 16, 4, 4, 1 };
    CHECK(sg_shape_extent(&zero) == 0, "a zero-width shape has no extent");

    /* 3 rows of 10 bytes, 16 apart: bytes 0-9, 16-25, 32-41. */
    struct sg_shape rows = { 10, 16, 3, 3, 1 };
    CHECK(sg_shape_extent(&rows) == 42, "rows: (height-1)*pitch + width");
    CHECK(sg_shape_next(&rows, 5) == 5, "inside a row: that byte");
    CHECK(sg_shape_next(&rows, 12) == 16, "in the pitch gap: the next row's start");
    CHECK(sg_shape_next(&rows, 26) == 32, "after a row: the next row's start");

    /* 2 slices of 2 rows, 4 rows apart (rows 2-3 of each slice skipped):
     * width 8, pitch 10: slice 0 rows at 0, 10; slice 1 rows at 40, 50. */
    struct sg_shape box = { 8, 10, 2, 4, 2 };
    CHECK(sg_shape_extent(&box) == 58, "3D: ((depth-1)*slice_rows + height-1)*pitch + width");
    CHECK(sg_shape_next(&box, 19) == 40, "after a slice's last row: the next slice");
    CHECK(sg_shape_next(&box, 25) == 40, "in the rows between slices: the next slice");
    CHECK(sg_shape_next(&box, 51) == 51, "inside the last row: that byte");

    struct sg_copy c = { 0 };
    c.base = 0x1000, c.shape = rows, c.size = sg_shape_extent(&rows);
    CHECK(sg_copy_first_touched(&c, 0x1000, 0x1001) == 0x1000, "an access of its first byte");
    CHECK(sg_copy_first_touched(&c, 0x100a, 0x1010) == 0, "an access only of the pitch gap");
    CHECK(sg_copy_first_touched(&c, 0x100a, 0x1011) == 0x1010,
          "an access from the gap into the next row meets it there");
    CHECK(sg_copy_first_touched(&c, 0x0f00, 0x1000) == 0, "an access just before the copy");
    CHECK(sg_copy_first_touched(&c, 0x102a, 0x2000) == 0, "an access just after the copy");
    CHECK(sg_copy_first_touched(&c, 0, UINTPTR_MAX) == 0x1000,
          "an access over everything meets the first byte");
    CHECK(sg_copy_touches(&c, 0x1020, 0x1021) && !sg_copy_touches(&c, 0x101a, 0x1020),
          "touches: the third row's start, not the gap before it");
    return unit_done();
}
