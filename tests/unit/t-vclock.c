/* SPDX-License-Identifier: Apache-2.0 */
/* Vector clocks (model/vclock.c): raise only goes up, join takes the
 * larger of each entry, copy replaces, streams stay sorted. */
#include "model/model.h"
#include "unit.h"

int main(void)
{
    struct sg_vc a = { 0 }, b = { 0 };
    CHECK(sg_vc_get(&a, 7) == 0, "an empty clock knows nothing of any stream");

    sg_vc_raise(&a, 7, 3);
    sg_vc_raise(&a, 2, 5);
    sg_vc_raise(&a, 9, 1);
    CHECK(a.n == 3, "three streams raised, three entries");
    CHECK(a.e[0].stream == 2 && a.e[1].stream == 7 && a.e[2].stream == 9,
          "entries are kept sorted by stream");
    sg_vc_raise(&a, 7, 2);
    CHECK(sg_vc_get(&a, 7) == 3, "raising to a lower sequence keeps the higher one");
    sg_vc_raise(&a, 7, 4);
    CHECK(sg_vc_get(&a, 7) == 4, "raising to a higher sequence takes it");
    sg_vc_raise(&a, 11, 0);
    CHECK(a.n == 3 && sg_vc_get(&a, 11) == 0, "raising to 0 adds no entry");

    sg_vc_raise(&b, 7, 1);
    sg_vc_raise(&b, 9, 8);
    sg_vc_raise(&b, 4, 6);
    sg_vc_join(&a, &b);
    CHECK(sg_vc_get(&a, 2) == 5 && sg_vc_get(&a, 4) == 6 && sg_vc_get(&a, 7) == 4 &&
              sg_vc_get(&a, 9) == 8,
          "join takes the larger sequence of each stream");
    CHECK(a.n == 4, "join adds the streams only the other clock knew");

    for (uint32_t s = 100; s < 200; s++)
        sg_vc_raise(&b, s, s);
    CHECK(sg_vc_get(&b, 150) == 150 && sg_vc_get(&b, 4) == 6, "a clock grows past its first room");

    sg_vc_copy(&a, &b);
    CHECK(a.n == b.n && sg_vc_get(&a, 2) == 0 && sg_vc_get(&a, 199) == 199,
          "copy replaces the clock, forgetting what it knew");

    struct sg_vc empty = { 0 };
    sg_vc_copy(&a, &empty);
    CHECK(a.n == 0, "copying an empty clock empties it");

    sg_vc_free(&a);
    sg_vc_free(&b);
    CHECK(a.e == NULL && a.n == 0 && a.cap == 0, "free leaves an empty clock");
    return unit_done();
}
