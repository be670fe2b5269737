/* SPDX-License-Identifier: Apache-2.0 */
/* A topological order of a graph's nodes (Kahn's algorithm: each node's
 * count of dependencies not yet in, the dependents of each, a queue of the
 * nodes whose count is 0), then sorted by pass and number with a counting
 * sort: the order a walk pass after pass over the driver's listing gives,
 * in O(nodes + edges) where those passes took O(nodes^2) each. */
#include "config.h"

#include <stdlib.h>

#include "work/graph_order.h"

size_t sg_graph_order(size_t n, const size_t *start, const size_t *dep, size_t *order)
{
    if (n == 0)
        return 0;
    size_t edges = start[n];
    size_t *missing = calloc(n, sizeof *missing); /* dependencies not in yet */
    size_t *pass = calloc(n, sizeof *pass);
    size_t *first = calloc(n + 1, sizeof *first); /* node d's dependents: after[first[d]..] */
    size_t *after = malloc((edges ? edges : 1) * sizeof *after);
    size_t *queue = malloc(n * sizeof *queue);
    size_t in = 0;
    if (!missing || !pass || !first || !after || !queue)
        goto out;
    for (size_t i = 0; i < n; i++)
        for (size_t k = start[i]; k < start[i + 1]; k++) {
            missing[i]++; /* for ever when dep[k] is not in the graph */
            if (dep[k] < n)
                first[dep[k] + 1]++;
        }
    for (size_t d = 0; d < n; d++)
        first[d + 1] += first[d];
    /* queue doubles as the fill position of each node's dependents */
    for (size_t d = 0; d < n; d++)
        queue[d] = first[d];
    for (size_t i = 0; i < n; i++)
        for (size_t k = start[i]; k < start[i + 1]; k++)
            if (dep[k] < n)
                after[queue[dep[k]]++] = i;
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (!missing[i])
            queue[tail++] = i;
    while (head < tail) {
        size_t d = queue[head++];
        for (size_t k = first[d]; k < first[d + 1]; k++) {
            size_t i = after[k];
            /* a pass adds i after d only if d comes first in the listing */
            size_t p = pass[d] + (d > i);
            if (p > pass[i])
                pass[i] = p;
            if (--missing[i] == 0)
                queue[tail++] = i;
        }
    }
    in = tail;
    /* by pass (at most in - 1), then by number: first[] counts again */
    for (size_t p = 0; p <= in; p++)
        first[p] = 0;
    for (size_t i = 0; i < n; i++)
        if (!missing[i])
            first[pass[i] + 1]++;
    for (size_t p = 0; p < in; p++)
        first[p + 1] += first[p];
    for (size_t i = 0; i < n; i++)
        if (!missing[i])
            order[first[pass[i]]++] = i;
out:
    free(missing), free(pass), free(first), free(after), free(queue);
    return in;
}
