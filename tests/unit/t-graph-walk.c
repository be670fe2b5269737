/* SPDX-License-Identifier: Apache-2.0 */
/* The order a graph's nodes are read in (work/graph_order.c, through the
 * walk of work/graph_walk.c): each node after its dependencies, in the
 * order that passes over the driver's listing gave before (checked against
 * those passes, written out here, on random graphs listed in random
 * order); diamonds and fan-ins listed backwards; nodes that depend on one
 * not in the graph, or on a circle, left out; and a few thousand nodes in
 * the shapes that cost the passes most (a chain listed backwards takes one
 * pass per node). The driver is the test's stand-in (sg_driver), and so are
 * the kernel parameters the walk would read for kernel nodes (there are
 * none here). */
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/kparams.h"
#include "unit.h"
#include "work/graph_order.h"
#include "work/graph_walk.h"
#include "work/kernel.h"

/* ---- sg_graph_order on index graphs ---- */

/* A graph of n nodes, node i's dependencies dep[start[i]..start[i+1]). */
struct idx_graph {
    size_t n, *start, *dep;
};

static struct idx_graph idx_make(size_t n, const size_t *const *deps)
{
    struct idx_graph g = { n, calloc(n + 1, sizeof(size_t)), NULL };
    size_t edges = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; deps[i][k] != (size_t)-1; k++)
            edges++;
    g.dep = malloc((edges ? edges : 1) * sizeof(size_t));
    for (size_t i = 0, e = 0; i < n; i++) {
        for (size_t k = 0; deps[i][k] != (size_t)-1; k++)
            g.dep[e++] = deps[i][k];
        g.start[i + 1] = e;
    }
    return g;
}

static void idx_free(struct idx_graph *g)
{
    free(g->start), free(g->dep);
}

/* The passes the walk made before: over the listing again and again,
 * adding each node whose dependencies are all in, until a pass adds none. */
static size_t passes_order(const struct idx_graph *g, size_t *order)
{
    char *in = calloc(g->n ? g->n : 1, 1);
    size_t m = 0;
    for (int progress = 1; progress;) {
        progress = 0;
        for (size_t i = 0; i < g->n; i++) {
            if (in[i])
                continue;
            int ready = 1;
            for (size_t k = g->start[i]; ready && k < g->start[i + 1]; k++)
                ready = g->dep[k] < g->n && in[g->dep[k]];
            if (ready)
                in[i] = 1, order[m++] = i, progress = 1;
        }
    }
    free(in);
    return m;
}

static int same_order(const size_t *a, size_t na, const size_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* Whether order (m nodes) puts every node after all its dependencies. */
static int topological(const struct idx_graph *g, const size_t *order, size_t m)
{
    size_t *pos = malloc(g->n * sizeof *pos);
    int ok = 1;
    for (size_t i = 0; i < g->n; i++)
        pos[i] = (size_t)-1;
    for (size_t o = 0; o < m; o++)
        pos[order[o]] = o;
    for (size_t o = 0; ok && o < m; o++)
        for (size_t k = g->start[order[o]]; ok && k < g->start[order[o] + 1]; k++)
            ok = g->dep[k] < g->n && pos[g->dep[k]] < o;
    free(pos);
    return ok;
}

#define END ((size_t)-1)

static int order_is(size_t n, const size_t *const *deps, const size_t *want, size_t nwant)
{
    struct idx_graph g = idx_make(n, deps);
    size_t *order = malloc(n * sizeof *order), *ref = malloc(n * sizeof *ref);
    size_t m = sg_graph_order(n, g.start, g.dep, order);
    size_t mref = passes_order(&g, ref);
    int ok = same_order(order, m, want, nwant) && same_order(ref, mref, want, nwant);
    free(order), free(ref);
    idx_free(&g);
    return ok;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint32_t next_random(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* A random graph of n nodes listed in random order: each node depends on
 * up to maxdeps earlier ones in a hidden topological order (a dependency
 * may repeat); with dangling, now and then on a node not in the graph. */
static struct idx_graph random_graph(size_t n, unsigned maxdeps, int dangling)
{
    size_t *listed = malloc(n * sizeof *listed); /* hidden rank -> number */
    for (size_t i = 0; i < n; i++)
        listed[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = next_random() % i, t = listed[i - 1];
        listed[i - 1] = listed[j], listed[j] = t;
    }
    size_t **deps = calloc(n, sizeof *deps);
    for (size_t r = 0; r < n; r++) {
        unsigned nd = r ? next_random() % (maxdeps + 1) : 0;
        size_t *d = malloc((nd + 1) * sizeof *d);
        for (unsigned k = 0; k < nd; k++)
            d[k] = dangling && next_random() % 64 == 0 ? n + next_random() % 4 : listed[next_random() % r];
        d[nd] = END;
        deps[listed[r]] = d;
    }
    struct idx_graph g = idx_make(n, (const size_t *const *)deps);
    for (size_t i = 0; i < n; i++)
        free(deps[i]);
    free(deps), free(listed);
    return g;
}

static void check_order(void)
{
    /* a diamond a -> b, c -> d, listed in order and backwards */
    static const size_t a0[] = { END }, b0[] = { 0, END }, c0[] = { 0, END }, d0[] = { 1, 2, END };
    static const size_t *const diamond[] = { a0, b0, c0, d0 };
    static const size_t want_diamond[] = { 0, 1, 2, 3 };
    CHECK(order_is(4, diamond, want_diamond, 4), "a diamond listed in order keeps the listing's order");
    static const size_t d1[] = { 2, 1, END }, c1[] = { 3, END }, b1[] = { 3, END }, a1[] = { END };
    static const size_t *const diamond_back[] = { d1, c1, b1, a1 };
    static const size_t want_back[] = { 3, 1, 2, 0 };
    CHECK(order_is(4, diamond_back, want_back, 4),
          "a diamond listed backwards: its root, both sides in the listing's order, then its join");

    /* a fan-in listed before its five roots, one root listed twice over as
     * a dependency, and a second fan-in on the first and two of the roots */
    static const size_t sink[] = { 1, 2, 3, 4, 5, 3, END }, root[] = { END }, sink2[] = { 0, 2, 5, END };
    static const size_t *const fan_in[] = { sink, root, root, root, root, root, sink2 };
    static const size_t want_fan_in[] = { 1, 2, 3, 4, 5, 0, 6 };
    CHECK(order_is(7, fan_in, want_fan_in, 7), "a fan-in after all its roots (one of them named twice), and a fan-in on it");

    /* nodes later in the listing join the pass that reaches them */
    static const size_t x0[] = { END }, x1[] = { 3, END }, x2[] = { 0, END }, x3[] = { 2, END }, x4[] = { 1, 3, END };
    static const size_t *const mixed[] = { x0, x1, x2, x3, x4 };
    static const size_t want_mixed[] = { 0, 2, 3, 1, 4 };
    CHECK(order_is(5, mixed, want_mixed, 5), "a later node joins the pass of its dependency, an earlier one the next");

    /* left out: a node on a dependency not in the graph, what depends on
     * it, and a circle; the rest stays */
    static const size_t y0[] = { 9, END }, y1[] = { 0, END }, y2[] = { END }, y3[] = { 4, END }, y4[] = { 3, END },
                        y5[] = { 2, END };
    static const size_t *const broken[] = { y0, y1, y2, y3, y4, y5 };
    static const size_t want_broken[] = { 2, 5 };
    CHECK(order_is(6, broken, want_broken, 2), "nodes on a missing dependency or a circle are left out, the rest kept");
    CHECK(sg_graph_order(0, (size_t[]){ 0 }, NULL, NULL) == 0, "an empty graph has no order");

    /* random graphs: the passes' order exactly */
    int all_same = 1, all_topological = 1;
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + next_random() % 300;
        struct idx_graph g = random_graph(n, 1 + round % 6, round % 3 == 0);
        size_t *order = malloc(n * sizeof *order), *ref = malloc(n * sizeof *ref);
        size_t m = sg_graph_order(n, g.start, g.dep, order);
        size_t mref = passes_order(&g, ref);
        all_same &= same_order(order, m, ref, mref);
        all_topological &= topological(&g, order, m);
        free(order), free(ref);
        idx_free(&g);
    }
    CHECK(all_same, "random graphs listed in random order: the order of the passes, node for node");
    CHECK(all_topological, "random graphs: every node after its dependencies");

    /* a few thousand nodes: a chain listed backwards, then a fan-in on all */
    enum { LONG = 4000 };
    struct idx_graph g = { LONG + 1, calloc(LONG + 2, sizeof(size_t)), malloc(2 * LONG * sizeof(size_t)) };
    size_t e = 0;
    for (size_t i = 0; i < LONG; i++) {
        if (i + 1 < LONG)
            g.dep[e++] = i + 1; /* node i follows node i + 1 */
        g.start[i + 1] = e;
    }
    for (size_t i = 0; i < LONG; i++)
        g.dep[e++] = i;
    g.start[LONG + 1] = e;
    size_t *order = malloc((LONG + 1) * sizeof *order);
    size_t m = sg_graph_order(LONG + 1, g.start, g.dep, order);
    int backwards = m == LONG + 1 && order[LONG] == LONG;
    for (size_t o = 0; backwards && o < LONG; o++)
        backwards = order[o] == LONG - 1 - o;
    CHECK(backwards, "a chain of 4000 nodes listed backwards, and a fan-in on all of them, in order");
    CHECK(topological(&g, order, m), "the long chain: every node after its dependencies");
    free(order);
    idx_free(&g);
}

/* ---- the walk, through a stand-in driver ---- */

struct fake_node {
    size_t ndeps;
    CUgraphNode *deps;
};

struct fake_graph {
    size_t n;
    CUgraphNode *nodes;
};

static CUresult get_nodes(CUgraph g, CUgraphNode *out, size_t *n)
{
    const struct fake_graph *f = (const struct fake_graph *)g;
    if (out)
        memcpy(out, f->nodes, (*n < f->n ? *n : f->n) * sizeof *out);
    *n = f->n;
    return CUDA_SUCCESS;
}

static CUresult get_deps(CUgraphNode node, CUgraphNode *out, CUgraphEdgeData *edges, size_t *n)
{
    (void)edges;
    const struct fake_node *f = (const struct fake_node *)node;
    if (out)
        memcpy(out, f->deps, (*n < f->ndeps ? *n : f->ndeps) * sizeof *out);
    *n = f->ndeps;
    return CUDA_SUCCESS;
}

static CUresult get_type(CUgraphNode node, CUgraphNodeType *type)
{
    (void)node;
    *type = CU_GRAPH_NODE_TYPE_EMPTY;
    return CUDA_SUCCESS;
}

const struct sg_driver *sg_driver(void)
{
    static struct sg_driver d;
    d.cuGraphGetNodes = get_nodes;
    d.cuGraphNodeGetDependencies_v2 = get_deps;
    d.cuGraphNodeGetType = get_type;
    return &d;
}

const struct sg_kparams *sg_kparams_of(CUfunction f)
{
    (void)f;
    static const struct sg_kparams none = { .name = "none" };
    return &none;
}

unsigned sg_kernel_pointer_values(const struct sg_kparams *k, void **params, void **extra, uintptr_t *out)
{
    (void)k, (void)params, (void)extra, (void)out;
    return 0;
}

static struct graph_host_fn *no_host(const CUDA_HOST_NODE_PARAMS *p)
{
    (void)p;
    return NULL;
}

static int no_bodies(CUgraphNode node, int all, CUgraph *out, int max)
{
    (void)node, (void)all, (void)out, (void)max;
    return 0;
}

static const struct graph_walk_ops ops = { no_host, no_bodies };

/* Builds an index graph's fake driver graph: listing order as numbered. */
static struct fake_graph fake_of(const struct idx_graph *g, struct fake_node *nodes, CUgraphNode *outside)
{
    struct fake_graph f = { g->n, malloc((g->n ? g->n : 1) * sizeof(CUgraphNode)) };
    for (size_t i = 0; i < g->n; i++) {
        nodes[i].ndeps = g->start[i + 1] - g->start[i];
        nodes[i].deps = malloc((nodes[i].ndeps ? nodes[i].ndeps : 1) * sizeof(CUgraphNode));
        for (size_t k = 0; k < nodes[i].ndeps; k++) {
            size_t d = g->dep[g->start[i] + k];
            nodes[i].deps[k] = d < g->n ? (CUgraphNode)&nodes[d] : outside[d % 4];
        }
        f.nodes[i] = (CUgraphNode)&nodes[i];
    }
    return f;
}

/* Whether the walk of g gives one item per node in the passes' order,
 * each depending on the items of its dependencies, in the driver's order. */
static int walk_matches(const struct idx_graph *g)
{
    static struct fake_node stray[4];
    CUgraphNode outside[4] = { (CUgraphNode)&stray[0], (CUgraphNode)&stray[1], (CUgraphNode)&stray[2],
                               (CUgraphNode)&stray[3] };
    struct fake_node *nodes = calloc(g->n ? g->n : 1, sizeof *nodes);
    struct fake_graph f = fake_of(g, nodes, outside);
    size_t *ref = malloc((g->n ? g->n : 1) * sizeof *ref), *item = malloc((g->n ? g->n : 1) * sizeof *item);
    size_t m = passes_order(g, ref);
    struct graph_items items = { 0 };
    sg_graph_walk((CUgraph)&f, &items, &ops);
    int ok = items.n == m && !items.interesting && !items.kernels;
    for (size_t o = 0; ok && o < m; o++) {
        size_t i = ref[o], nd = g->start[i + 1] - g->start[i];
        const struct graph_item *x = &items.v[o];
        item[i] = o;
        ok = x->kind == GI_OTHER && x->node == f.nodes[i] && x->ndeps == nd;
        for (size_t k = 0; ok && k < nd; k++)
            ok = x->deps[k] == item[g->dep[g->start[i] + k]];
    }
    sg_graph_items_free(&items);
    for (size_t i = 0; i < g->n; i++)
        free(nodes[i].deps);
    free(nodes), free(f.nodes), free(ref), free(item);
    return ok;
}

static void check_walk(void)
{
    static const size_t d1[] = { 2, 1, END }, c1[] = { 3, END }, b1[] = { 3, END }, a1[] = { END };
    static const size_t *const diamond_back[] = { d1, c1, b1, a1 };
    struct idx_graph g = idx_make(4, diamond_back);
    CHECK(walk_matches(&g), "the walk of a diamond listed backwards: items in order, dependencies as items");
    idx_free(&g);

    int all = 1;
    for (int round = 0; round < 20; round++) {
        g = random_graph(1 + next_random() % 200, 1 + round % 5, round % 2);
        all &= walk_matches(&g);
        idx_free(&g);
    }
    CHECK(all, "the walk of random graphs, some with dependencies outside them: the passes' items");

    /* 3000 nodes: a chain listed backwards whose every node also feeds a
     * fan-in at the front of the listing */
    enum { MANY = 3000 };
    g = (struct idx_graph){ MANY + 1, calloc(MANY + 2, sizeof(size_t)), malloc(2 * MANY * sizeof(size_t)) };
    size_t e = 0;
    for (size_t i = 0; i < MANY; i++)
        g.dep[e++] = i + 1;
    g.start[1] = e;
    for (size_t i = 1; i <= MANY; i++) {
        if (i < MANY)
            g.dep[e++] = i + 1;
        g.start[i + 1] = e;
    }
    CHECK(walk_matches(&g), "the walk of 3000 nodes, a chain listed backwards and a fan-in on all of it");
    idx_free(&g);
}

int main(void)
{
    check_order();
    check_walk();
    return unit_done();
}
