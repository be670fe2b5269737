/* SPDX-License-Identifier: Apache-2.0 */
/* The span set of program protections and windows (guard/normal.c): the
 * last mprotect on a page wins, spans of one protection merge, a span cut
 * by a later call keeps what lies outside it, forgetting takes only whole
 * pages, and a page with no program protection is read-write (read-only for
 * memory registered read-only). */
#include <sys/mman.h>

#include "base/page.h"
#include "guard/guard.h"
#include "model/model.h"
#include "unit.h"

#define RW (PROT_READ | PROT_WRITE)

static uintptr_t P(int n)
{
    return 0x10000000u + (uintptr_t)n * sg_page_size;
}

struct edges {
    int n;
    uintptr_t at[64];
};

static void add_edge(void *arg, uintptr_t a)
{
    struct edges *e = arg;
    if (e->n < 64)
        e->at[e->n++] = a;
}

static int edges_in(uintptr_t lo, uintptr_t hi, struct edges *e)
{
    e->n = 0;
    sg_guard_edges(lo, hi, add_edge, e);
    return e->n;
}

int main(void)
{
    sg_page_init();
    struct edges e;

    CHECK(sg_guard_normal_prot(P(0)) == RW, "a page nobody protected is read-write");
    struct sg_pin read_only = { P(100), 4 * sg_page_size, SG_PINNED_READ_ONLY, P(100), NULL };
    sg_pinned_add(&read_only);
    CHECK(sg_guard_normal_prot(P(101)) == PROT_READ, "memory registered read-only stays read-only");

    sg_guard_program_prot(P(0), P(10), PROT_READ);
    CHECK(sg_guard_normal_prot(P(0)) == PROT_READ && sg_guard_normal_prot(P(9)) == PROT_READ &&
              sg_guard_normal_prot(P(10)) == RW,
          "a program protection covers [lo, hi) only");

    sg_guard_program_prot(P(4), P(6), PROT_NONE);
    CHECK(sg_guard_normal_prot(P(3)) == PROT_READ && sg_guard_normal_prot(P(4)) == PROT_NONE &&
              sg_guard_normal_prot(P(5)) == PROT_NONE && sg_guard_normal_prot(P(6)) == PROT_READ,
          "a later call in the middle splits the span; the last call wins");
    CHECK(edges_in(P(0), P(10), &e) == 6, "three spans: [0,4) [4,6) [6,10)");

    sg_guard_program_prot(P(4), P(6), PROT_READ);
    CHECK(edges_in(P(0), P(10), &e) == 2 && e.at[0] == P(0) && e.at[1] == P(10),
          "giving the middle back its neighbours' protection merges them into one span");

    sg_guard_program_prot(P(10), P(12), PROT_READ);
    CHECK(edges_in(P(0), P(20), &e) == 2 && e.at[1] == P(12),
          "a touching span of the same protection merges");
    sg_guard_program_prot(P(12), P(14), RW);
    CHECK(edges_in(P(0), P(20), &e) == 4, "a touching span of another protection stays apart");

    sg_guard_program_prot(P(8), P(13), PROT_NONE);
    CHECK(sg_guard_normal_prot(P(7)) == PROT_READ && sg_guard_normal_prot(P(8)) == PROT_NONE &&
              sg_guard_normal_prot(P(12)) == PROT_NONE && sg_guard_normal_prot(P(13)) == RW,
          "a call over two spans trims both");

    sg_guard_forget_program_prot(P(2) + 1, P(5) + 1);
    CHECK(sg_guard_normal_prot(P(2)) == PROT_READ && sg_guard_normal_prot(P(3)) == RW &&
              sg_guard_normal_prot(P(4)) == RW && sg_guard_normal_prot(P(5)) == PROT_READ,
          "forgetting takes only the pages wholly inside the range");

    sg_guard_after_fork_child();
    CHECK(sg_guard_normal_prot(P(0)) == RW && edges_in(0, UINTPTR_MAX, &e) == 0,
          "a forked child starts with no program protections");

    /* More spans than the set holds (256): a call that does not fit is not
     * remembered, and the spans it would have cut are forgotten whole
     * rather than kept stale. */
    for (int i = 0; i < 256; i++)
        sg_guard_program_prot(P(2 * i), P(2 * i + 1), i % 2 ? PROT_READ : PROT_NONE);
    CHECK(sg_guard_normal_prot(P(0)) == PROT_NONE && sg_guard_normal_prot(P(2)) == PROT_READ &&
              sg_guard_normal_prot(P(510)) == PROT_READ,
          "256 spans fit");
    sg_guard_program_prot(P(600), P(601), PROT_NONE);
    CHECK(sg_guard_normal_prot(P(600)) == RW, "a call that does not fit is not remembered");
    sg_guard_program_prot(P(2) + 16, P(2) + 32, PROT_NONE);
    CHECK(sg_guard_normal_prot(P(2)) == RW && sg_guard_normal_prot(P(0)) == PROT_NONE &&
              sg_guard_normal_prot(P(4)) == PROT_NONE,
          "a span a call would have split is forgotten whole, its neighbours kept");
    sg_guard_after_fork_child();

    CHECK(sg_guard_window_add(P(50), P(52)) == 1, "a new window");
    CHECK(sg_guard_window_add(P(50), P(52)) == 0, "the same window held twice");
    CHECK(sg_guard_in_window(P(51)) && !sg_guard_in_window(P(52)), "a window covers its pages");
    CHECK(edges_in(P(0), P(100), &e) == 2, "a window's edges count for page updates");
    CHECK(sg_guard_window_remove(P(50), P(52)) == 0 && sg_guard_in_window(P(50)),
          "released once, still held");
    CHECK(sg_guard_window_remove(P(50), P(52)) == 1 && !sg_guard_in_window(P(50)),
          "released by its last holder, gone");
    int added = 0;
    while (sg_guard_window_add(P(200 + 2 * added), P(201 + 2 * added)) == 1)
        added++;
    CHECK(added == 256 && sg_guard_window_add(P(1000), P(1001)) == -1,
          "windows are a fixed set: when full, a new one is refused");
    return unit_done();
}
