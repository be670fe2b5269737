/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of graph instantiation and launch: the graph's host copies are
 * read off it at instantiation and guarded at each launch (life/graph.c);
 * host nodes get a trampoline that observes the graph's earlier work. */
#include "config.h"

#include "life/graph.h"
#include "preload/shim.h"

/* cuda.h maps this name to cuGraphInstantiateWithFlags; the older ABIs
 * wrapped here carry the name itself. */
#undef cuGraphInstantiate

SG_CUDA_SHIM(cuGraphAddHostNode, (CUgraphNode *pn, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                               const CUDA_HOST_NODE_PARAMS *p))
{
    CUDA_HOST_NODE_PARAMS mine;
    if (!SG_ENTER() || !p)
        return SG_FORWARD(cuGraphAddHostNode, pn, g, deps, ndeps, p);
    mine = *p;
    if (sg_graph_wrap_host_fn(&mine.fn, &mine.userData) < 0)
        return SG_FORWARD(cuGraphAddHostNode, pn, g, deps, ndeps, p);
    return SG_FORWARD(cuGraphAddHostNode, pn, g, deps, ndeps, &mine);
}


SG_CUDA_SHIM(cuGraphInstantiateWithFlags, (CUgraphExec *pe, CUgraph graph, unsigned long long flags))
{
    CUresult r = SG_FORWARD(cuGraphInstantiateWithFlags, pe, graph, flags);
    if (r == CUDA_SUCCESS && SG_ENTER())
        sg_graph_instantiated(*pe, graph);
    return r;
}

/* The CUDA 10 and 11.0-11.3 ABI: an error node and a log buffer. */
#define INSTANTIATE_WITH_LOG(symbol)                                                   \
    SG_CUDA_SHIM(symbol, (CUgraphExec * pe, CUgraph graph, CUgraphNode * err, char *log, \
                       size_t loglen))                                                  \
    {                                                                                  \
        CUresult r = SG_FORWARD(symbol, pe, graph, err, log, loglen);                  \
        if (r == CUDA_SUCCESS && SG_ENTER())                                           \
            sg_graph_instantiated(*pe, graph);                                                  \
        return r;                                                                      \
    }

INSTANTIATE_WITH_LOG(cuGraphInstantiate)
INSTANTIATE_WITH_LOG(cuGraphInstantiate_v2)

#define INSTANTIATE_WITH_PARAMS(symbol)                                                   \
    SG_CUDA_SHIM(symbol, (CUgraphExec *pe, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS *ip)) \
    {                                                                                     \
        CUresult r = SG_FORWARD(symbol, pe, graph, ip);                                   \
        if (r == CUDA_SUCCESS && SG_ENTER())                                              \
            sg_graph_instantiated(*pe, graph);                                                     \
        return r;                                                                         \
    }

INSTANTIATE_WITH_PARAMS(cuGraphInstantiateWithParams)
INSTANTIATE_WITH_PARAMS(cuGraphInstantiateWithParams_ptsz)

SG_CUDA_SHIM(cuGraphExecDestroy, (CUgraphExec exec))
{
    if (SG_ENTER())
        sg_graph_forget(exec);
    return SG_FORWARD(cuGraphExecDestroy, exec);
}

#define GRAPH_LAUNCH(symbol, per_thread)                          \
    SG_CUDA_SHIM(symbol, (CUgraphExec exec, CUstream s))              \
    {                                                             \
        CUresult r = SG_FORWARD(symbol, exec, s);                 \
        if (r != CUDA_SUCCESS || !SG_ENTER())                     \
            return r;                                             \
        sg_graph_launched(exec, s, per_thread);                   \
        return r;                                                 \
    }

GRAPH_LAUNCH(cuGraphLaunch, 0)
GRAPH_LAUNCH(cuGraphLaunch_ptsz, 1)
