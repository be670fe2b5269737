/* SPDX-License-Identifier: Apache-2.0 */
/* sgt_shapes.h - set-up shared by the tests of copy shapes in tests/drv:
 * graph memcpy nodes, 2D and 3D copies, batch copies.
 *
 * Header-only, every helper static inline: a test that uses only some of
 * them gets no -Wunused-function warning, and the library (sgtest.h) keeps
 * only what every test needs.
 *
 * None of these helpers touches host memory while a copy may be in flight:
 * the accesses under test (the early read or write) stay in the test file,
 * where reports must place them.
 */
#ifndef SGT_SHAPES_H
#define SGT_SHAPES_H

#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

/* The driver entry point `name` as a runtime built for `version` (e.g.
 * 12080 for CUDA 12.8) looks it up: through cuGetProcAddress, which must
 * find it.  Tests reach an older or newer ABI of a call this way, as the
 * runtime of that version would; the caller casts to the ABI's type. */
static inline void *sgt_proc(const char *name, int version)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress(name, &fn, version, 0, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn);
    return fn;
}

/* The parameters of a plain (one row, one slice) copy of all SGT_BYTES of
 * sgt_buffers' buffers, device to pinned host: what a memcpy node copies
 * when it stands for a cuMemcpyDtoHAsync. */
static inline CUDA_MEMCPY3D sgt_flat_dtoh(uint32_t *host, CUdeviceptr dev)
{
    return (CUDA_MEMCPY3D){
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev,
        .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host,
        .WidthInBytes = SGT_BYTES, .Height = 1, .Depth = 1,
    };
}

/* The same, pinned host to device. */
static inline CUDA_MEMCPY3D sgt_flat_htod(CUdeviceptr dev, const uint32_t *host)
{
    return (CUDA_MEMCPY3D){
        .srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = host,
        .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = dev,
        .WidthInBytes = SGT_BYTES, .Height = 1, .Depth = 1,
    };
}

/* A new graph whose only node is a memcpy node doing p in ctx
 * (cuGraphCreate, cuGraphAddMemcpyNode).  Nothing runs until the test
 * instantiates and launches it: the copy's stream is the launch's. */
static inline CUgraph sgt_memcpy_graph(CUDA_MEMCPY3D p, CUcontext ctx)
{
    CUgraph g;
    CUgraphNode node;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddMemcpyNode(&node, g, NULL, 0, &p, ctx));
    return g;
}

/* A memset node's parameters: `words` 32-bit words of value at dst (one row). */
static inline CUDA_MEMSET_NODE_PARAMS sgt_memset_words(CUdeviceptr dst, uint32_t value, size_t words)
{
    return (CUDA_MEMSET_NODE_PARAMS){ .dst = dst, .value = value, .elementSize = 4, .width = words,
                                      .height = 1 };
}

/* A new graph whose only node (in *node) is that memset node, in ctx. */
static inline CUgraph sgt_memset_graph(CUDA_MEMSET_NODE_PARAMS p, CUcontext ctx, CUgraphNode *node)
{
    CUgraph g;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddMemsetNode(node, g, NULL, 0, &p, ctx));
    return g;
}

/* How many words of a pitched pinned box are wrong once a 3D copy into it
 * completed.  The box is `depth` slices of `slice_rows` rows of `pitch`
 * bytes; the copy wrote the first `width` bytes of the first `rows` rows
 * of each slice, which must hold SGT_NEW; every other word lies in a gap
 * the copy must leave alone, holding SGT_OLD from sgt_buffers.  A function,
 * unlike SGT_COUNT_WRONG: tests call it after synchronizing, so its reads
 * are not the access under test. */
static inline unsigned sgt_box_wrong(const volatile uint32_t *h, unsigned width, unsigned pitch,
                                     unsigned rows, unsigned slice_rows, unsigned depth)
{
    unsigned wrong = 0;
    for (unsigned z = 0; z < depth; z++)
        for (unsigned y = 0; y < slice_rows; y++)
            for (unsigned x = 0; x < pitch / 4; x++)
                wrong += h[(z * slice_rows + y) * pitch / 4 + x] !=
                         (y < rows && x < width / 4 ? SGT_NEW : SGT_OLD);
    return wrong;
}

/* The same for a 2D copy: `rows` rows of `pitch` bytes, the first `width`
 * bytes of each written. */
static inline unsigned sgt_rows_wrong(const volatile uint32_t *h, unsigned width, unsigned pitch,
                                      unsigned rows)
{
    return sgt_box_wrong(h, width, pitch, rows, rows, 1);
}

/* The operands of a cuMemcpyBatchAsync of two device-to-host copies, one
 * per half of sgt_buffers' buffers (a batch test wants more than one copy
 * in the call), with one set of attributes for both: source accessed in
 * stream order.  Arrays, not a pointer each, because the call takes them
 * so. */
typedef struct {
    CUdeviceptr dsts[2], srcs[2];
    size_t sizes[2];
    CUmemcpyAttributes attr;
    size_t attr_idx[1]; /* attr applies from copy 0 on */
} sgt_halves;

static inline sgt_halves sgt_halves_dtoh(uint32_t *host, CUdeviceptr dev)
{
    return (sgt_halves){
        .dsts = { (CUdeviceptr)(uintptr_t)host, (CUdeviceptr)(uintptr_t)(host + SGT_WORDS / 2) },
        .srcs = { dev, dev + SGT_BYTES / 2 },
        .sizes = { SGT_BYTES / 2, SGT_BYTES / 2 },
        .attr = { .srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM },
        .attr_idx = { 0 },
    };
}

#endif
