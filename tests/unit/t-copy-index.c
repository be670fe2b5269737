/* SPDX-License-Identifier: Apache-2.0 */
/* The copy table's interval index (model/copy_index.c): every query
 * answers exactly the slots whose pages meet the range, each once, through
 * a long random sequence of inserts and removes checked against a plain
 * list; and a tree grown in sorted order (the order a program's copies
 * usually come in) stays shallow enough to be walked. */
#include <stdlib.h>
#include <string.h>

#include "model/copy_index.h"
#include "unit.h"

#define SLOTS 512
#define PAGE 4096

static uintptr_t lo_of[SLOTS], hi_of[SLOTS];
static int present[SLOTS];
static unsigned seen[SLOTS];

static void count_slot(uint32_t slot, void *arg)
{
    (void)arg;
    seen[slot]++;
}

/* Whether a query of [lo, hi) gave each slot meeting it once, no other. */
static int query_matches(uintptr_t lo, uintptr_t hi)
{
    memset(seen, 0, sizeof seen);
    sg_copy_index_each(lo, hi, count_slot, NULL);
    for (int i = 0; i < SLOTS; i++) {
        unsigned want = present[i] && lo_of[i] < hi && hi_of[i] > lo;
        if (seen[i] != want)
            return 0;
    }
    return 1;
}

static uint64_t rng = 88172645463325252ULL;
static uint32_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)rng;
}

static void insert_random(uint32_t slot)
{
    uintptr_t page = 0x100000 + (uintptr_t)(next_random() % 2048) * PAGE;
    /* Mostly one to four pages, now and then a long copy over many. */
    uintptr_t pages = next_random() % 16 == 0 ? 1 + next_random() % 512 : 1 + next_random() % 4;
    lo_of[slot] = page, hi_of[slot] = page + pages * PAGE, present[slot] = 1;
    sg_copy_index_insert(slot, lo_of[slot], hi_of[slot]);
}

static int random_churn(int steps)
{
    for (int step = 0; step < steps; step++) {
        uint32_t slot = next_random() % SLOTS;
        if (present[slot]) {
            sg_copy_index_remove(slot);
            present[slot] = 0;
        } else {
            insert_random(slot);
        }
        uintptr_t lo = 0x100000 + (uintptr_t)(next_random() % 2600) * PAGE - PAGE;
        uintptr_t hi = lo + (1 + next_random() % 8) * PAGE;
        if (!query_matches(lo, hi) || !query_matches(0, UINTPTR_MAX))
            return 0;
    }
    return 1;
}

int main(void)
{
    CHECK(sg_copy_index_init(SLOTS) == 0, "the index maps room for its slots");
    CHECK(query_matches(0, UINTPTR_MAX), "an empty index answers nothing");

    lo_of[3] = 0x10000, hi_of[3] = 0x12000, present[3] = 1;
    sg_copy_index_insert(3, lo_of[3], hi_of[3]);
    CHECK(query_matches(0x11000, 0x11001), "a byte inside a copy's pages meets it");
    CHECK(query_matches(0x12000, 0x13000), "the page after its end does not");
    CHECK(query_matches(0x0f000, 0x10000), "the page before its start does not");
    lo_of[4] = 0x10000, hi_of[4] = 0x11000, present[4] = 1;
    sg_copy_index_insert(4, lo_of[4], hi_of[4]);
    CHECK(query_matches(0x10000, 0x11000), "two copies starting on one page are both found");
    sg_copy_index_remove(3);
    present[3] = 0;
    CHECK(query_matches(0x10000, 0x20000), "a removed copy is no longer found");
    sg_copy_index_insert(4, 0x50000, 0x51000);
    CHECK(query_matches(0x10000, 0x11000), "inserting a slot already in the index changes nothing");
    sg_copy_index_remove(4);
    present[4] = 0;
    sg_copy_index_remove(4);
    CHECK(query_matches(0, UINTPTR_MAX), "removing a slot twice is harmless");

    CHECK(random_churn(20000), "20000 random inserts and removes: every query exact");

    sg_copy_index_clear();
    memset(present, 0, sizeof present);
    CHECK(query_matches(0, UINTPTR_MAX), "a cleared index answers nothing");
    for (uint32_t i = 0; i < SLOTS; i++) {
        lo_of[i] = 0x100000 + (uintptr_t)i * PAGE, hi_of[i] = lo_of[i] + PAGE, present[i] = 1;
        sg_copy_index_insert(i, lo_of[i], hi_of[i]);
    }
    CHECK(query_matches(0x100000 + 200 * PAGE, 0x100000 + 201 * PAGE),
          "copies inserted in address order: one page finds its copy alone");
    /* A plain search tree would be a chain of 512; a treap's expected
     * height here is about 2 ln 512 = 12.5, and above 40 with odds below
     * one in a million for the fixed priorities it draws. */
    CHECK(sg_copy_index_height() < 40, "copies inserted in address order keep the tree shallow");
    return unit_done();
}
