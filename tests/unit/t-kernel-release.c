/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel release (base/kernel.c): its version read from what uname
 * gives, and which versions part a pinned page from the device's at the
 * first write after a guard (huge_pinned stays off on them). */
#include "base/kernel.h"
#include "unit.h"

static int parses(const char *release, unsigned want_major, unsigned want_minor)
{
    unsigned major = 0, minor = 0;
    return sg_parse_kernel_release(release, &major, &minor) == 0 && major == want_major &&
           minor == want_minor;
}

static int refused(const char *release)
{
    unsigned major = 77, minor = 77;
    return sg_parse_kernel_release(release, &major, &minor) == -1 && major == 77 && minor == 77;
}

int main(void)
{
    CHECK(parses("5.15.0-91-generic", 5, 15), "a distribution's release");
    CHECK(parses("6.18", 6, 18), "major and minor alone");
    CHECK(parses("5.19-rc3", 5, 19), "a release candidate");
    CHECK(parses("4.9.337+", 4, 9), "a release with a suffix");
    CHECK(parses("6.1.0-1029-aws #29-Ubuntu", 6, 1), "what follows the minor is not read");
    CHECK(refused(NULL), "no release");
    CHECK(refused(""), "an empty release");
    CHECK(refused("6"), "a major without a minor");
    CHECK(refused("6."), "a dot without a minor");
    CHECK(refused(" 5.15"), "leading space");
    CHECK(refused("v5.15"), "a leading letter");
    CHECK(refused("5,15"), "not a dot");
    CHECK(refused("99999999999.1"), "a major too large to be one");

    CHECK(!sg_kernel_cow_parts_pins(5, 8), "5.8 reuses a pinned page (the copy-on-write rework came in 5.9)");
    CHECK(sg_kernel_cow_parts_pins(5, 9), "5.9 copies it");
    CHECK(sg_kernel_cow_parts_pins(5, 15), "5.15 copies it");
    CHECK(sg_kernel_cow_parts_pins(5, 18), "5.18 copies it");
    CHECK(!sg_kernel_cow_parts_pins(5, 19), "5.19 keeps it (exclusive anonymous pages)");
    CHECK(!sg_kernel_cow_parts_pins(6, 1) && !sg_kernel_cow_parts_pins(6, 18), "6.x keeps it");
    CHECK(!sg_kernel_cow_parts_pins(4, 19), "4.x reuses it");
    return unit_done();
}
