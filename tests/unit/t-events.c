/* SPDX-License-Identifier: Apache-2.0 */
/* Events (model/events.c): a record captures a clock; recording again
 * replaces it (the event then stands for the newer work only); a destroyed
 * or never-recorded event stands for nothing. */
#include "model/model.h"
#include "unit.h"

int main(void)
{
    CUevent e = (CUevent)0x42, other = (CUevent)0x43;
    struct sg_vc first = { 0 }, second = { 0 }, seen = { 0 };
    sg_vc_raise(&first, 1, 4);
    sg_vc_raise(&first, 2, 9);
    sg_vc_raise(&second, 1, 6);

    sg_event_snapshot(e, &seen);
    CHECK(seen.n == 0, "an event never recorded stands for no work");

    sg_event_recorded(e, &first);
    sg_event_snapshot(e, &seen);
    CHECK(sg_vc_get(&seen, 1) == 4 && sg_vc_get(&seen, 2) == 9, "a record captures the clock");

    sg_event_recorded(e, &second);
    sg_event_snapshot(e, &seen);
    CHECK(sg_vc_get(&seen, 1) == 6, "recording again captures the newer work");
    CHECK(sg_vc_get(&seen, 2) == 0, "re-recording forgets what the first record captured");

    sg_event_snapshot(other, &seen);
    CHECK(seen.n == 0, "another event is not affected");

    sg_event_destroyed(e);
    sg_event_snapshot(e, &seen);
    CHECK(seen.n == 0, "a destroyed event stands for no work");
    sg_event_destroyed(e);
    CHECK(1, "destroying an unknown event is harmless");

    sg_vc_free(&first);
    sg_vc_free(&second);
    sg_vc_free(&seen);
    return unit_done();
}
