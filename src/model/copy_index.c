/* SPDX-License-Identifier: Apache-2.0 */
/* An interval index over the copy table: a treap (a binary search tree on
 * each slot's first page, heap-ordered on a random priority, so expected
 * depth is logarithmic whatever order copies come and go in), where each
 * node also keeps the highest end of the intervals below it. A query skips
 * every subtree whose highest end is at or below the range's start, and
 * every right subtree whose start is at or past the range's end: O(log n +
 * the number of answers).
 *
 * The nodes are the table's slots (parallel arrays mapped once), so the
 * fault handler can query and remove without allocating. Ties on the start
 * page are broken by slot number: every key is distinct. */
#include "config.h"

#include <stddef.h>
#include <sys/mman.h>

#include "model/copy_index.h"

#define NIL UINT32_MAX
/* Deeper than any treap of up to 2^20 nodes gets in practice (expected
 * depth about 2 ln n, 28 for a million). A walk needs a stack entry per
 * level at most; a taller tree (an unlucky shape) is answered by a scan:
 * it costs time, never an answer. */
#define WALK_DEPTH 128

struct node {
    uintptr_t lo, hi, max_hi;
    uint32_t left, right, prio;
    uint32_t height; /* of the subtree rooted here; 0: not in the index */
};

static struct node *nodes;
static uint32_t nnodes, root = NIL;
static uint64_t prio_state = 0x9e3779b97f4a7c15ULL;

int sg_copy_index_init(uint32_t nslots)
{
    void *p = mmap(NULL, (size_t)nslots * sizeof *nodes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    nodes = p;
    nnodes = nslots;
    root = NIL;
    return 0;
}

/* splitmix64: a fixed sequence (runs repeat) that no order of copies can
 * make sorted. */
static uint32_t next_prio(void)
{
    uint64_t z = (prio_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int before(uint32_t a, uint32_t b)
{
    return nodes[a].lo < nodes[b].lo || (nodes[a].lo == nodes[b].lo && a < b);
}

static uintptr_t max_hi_of(uint32_t n)
{
    return n == NIL ? 0 : nodes[n].max_hi;
}

static uint32_t height_of(uint32_t n)
{
    return n == NIL ? 0 : nodes[n].height;
}

static void refresh(uint32_t n)
{
    uintptr_t m = nodes[n].hi, l = max_hi_of(nodes[n].left), r = max_hi_of(nodes[n].right);
    nodes[n].max_hi = m > l ? (m > r ? m : r) : (l > r ? l : r);
    uint32_t hl = height_of(nodes[n].left), hr = height_of(nodes[n].right);
    nodes[n].height = 1 + (hl > hr ? hl : hr);
}

static uint32_t rotate_right(uint32_t n)
{
    uint32_t l = nodes[n].left;
    nodes[n].left = nodes[l].right;
    nodes[l].right = n;
    refresh(n);
    refresh(l);
    return l;
}

static uint32_t rotate_left(uint32_t n)
{
    uint32_t r = nodes[n].right;
    nodes[n].right = nodes[r].left;
    nodes[r].left = n;
    refresh(n);
    refresh(r);
    return r;
}

static uint32_t insert_at(uint32_t t, uint32_t n)
{
    if (t == NIL)
        return n;
    if (before(n, t)) {
        nodes[t].left = insert_at(nodes[t].left, n);
        if (nodes[nodes[t].left].prio > nodes[t].prio)
            return rotate_right(t);
    } else {
        nodes[t].right = insert_at(nodes[t].right, n);
        if (nodes[nodes[t].right].prio > nodes[t].prio)
            return rotate_left(t);
    }
    refresh(t);
    return t;
}

void sg_copy_index_insert(uint32_t slot, uintptr_t lo, uintptr_t hi)
{
    if (slot >= nnodes || nodes[slot].height)
        return;
    nodes[slot] = (struct node){ lo, hi, hi, NIL, NIL, next_prio(), 1 };
    root = insert_at(root, slot);
}

/* Joins two treaps whose keys are all ordered (every key of a before b). */
static uint32_t join(uint32_t a, uint32_t b)
{
    if (a == NIL)
        return b;
    if (b == NIL)
        return a;
    if (nodes[a].prio > nodes[b].prio) {
        nodes[a].right = join(nodes[a].right, b);
        refresh(a);
        return a;
    }
    nodes[b].left = join(a, nodes[b].left);
    refresh(b);
    return b;
}

static uint32_t remove_at(uint32_t t, uint32_t n)
{
    if (t == NIL)
        return NIL;
    if (t == n)
        return join(nodes[t].left, nodes[t].right);
    if (before(n, t))
        nodes[t].left = remove_at(nodes[t].left, n);
    else
        nodes[t].right = remove_at(nodes[t].right, n);
    refresh(t);
    return t;
}

void sg_copy_index_remove(uint32_t slot)
{
    if (slot >= nnodes || !nodes[slot].height)
        return;
    root = remove_at(root, slot);
    nodes[slot].height = 0;
}

uint32_t sg_copy_index_height(void)
{
    return height_of(root);
}

void sg_copy_index_clear(void)
{
    for (uint32_t i = 0; i < nnodes; i++)
        nodes[i].height = 0;
    root = NIL;
}

static void scan_all(uintptr_t lo, uintptr_t hi, void (*fn)(uint32_t, void *), void *arg)
{
    for (uint32_t i = 0; i < nnodes; i++)
        if (nodes[i].height && nodes[i].lo < hi && nodes[i].hi > lo)
            fn(i, arg);
}

/* Pre-order: a node's right child waits on the stack while its left
 * subtree is walked, so the stack never holds more than one entry per
 * level of the tree. */
void sg_copy_index_each(uintptr_t lo, uintptr_t hi, void (*fn)(uint32_t slot, void *arg),
                        void *arg)
{
    if (height_of(root) >= WALK_DEPTH) {
        scan_all(lo, hi, fn, arg);
        return;
    }
    uint32_t stack[WALK_DEPTH];
    int depth = 0;
    if (root != NIL)
        stack[depth++] = root;
    while (depth > 0) {
        uint32_t n = stack[--depth];
        if (nodes[n].max_hi <= lo)
            continue; /* nothing below ends past lo */
        if (nodes[n].lo < hi) {
            if (nodes[n].hi > lo)
                fn(n, arg);
            if (nodes[n].right != NIL)
                stack[depth++] = nodes[n].right;
        }
        if (nodes[n].left != NIL)
            stack[depth++] = nodes[n].left;
    }
}
