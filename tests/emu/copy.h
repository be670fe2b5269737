/* SPDX-License-Identifier: Apache-2.0 */
/* copy.h - the copy engine shared by the 1D, peer, 2D and 3D copy entry
 * points (copy.c implements it). */
#ifndef SGEMU_COPY_H
#define SGEMU_COPY_H

#include "emu.h"

/* What the API says a side of a copy is.  Under unified addressing the
 * emulator still looks each address up: a "host" pointer may be pageable or
 * page-locked, and only that decides the synchronisation rules. */
typedef enum { EMU_SIDE_HOST, EMU_SIDE_DEVICE, EMU_SIDE_UNIFIED } emu_side_type;

/* One side of a copy: `height` rows of `width` bytes, `pitch` bytes apart,
 * in `depth` slices `slice` bytes apart. */
typedef struct emu_side {
    uintptr_t addr;
    size_t pitch, slice;
    emu_side_type type;
    emu_where where;            /* set by the engine */
    bool dma;                   /* set by the engine: reached by DMA (host or managed memory) */
} emu_side;

typedef struct emu_copy {
    emu_side src, dst;
    size_t width, height, depth;
    bool async;                 /* a *Async entry point */
    CUstream stream;            /* as the caller named it; NULL for the synchronous ones */
    emu_null_stream null_means;
    bool peer;                  /* cuMemcpyPeer*: between the two contexts below */
    CUcontext peer_ctx[2];      /* destination and source contexts */
} emu_copy;

/* Validates, classifies and enqueues the copy, then waits for it when the
 * "API synchronization behavior" rules say the call is synchronous. */
CUresult emu_copy_submit(emu_copy *c);

/* emu_copy_submit in steps, for calls that submit several copies at once
 * (batches): check all, stage the sources that need it (without the lock),
 * enqueue all, wait if any says so. */
typedef enum {
    EMU_COPY_ASYNC,             /* enqueue and return */
    EMU_COPY_STAGED,            /* read the source now, then enqueue and return */
    EMU_COPY_WAIT,              /* enqueue and wait for it */
} emu_copy_policy;
/* Lock held: the stream, the contexts of a peer copy, both sides; picks
 * the policy.  A stream capture records only copies that need neither
 * staging nor waiting (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED otherwise). */
CUresult emu_copy_check(emu_copy *c, emu_copy_policy *policy);
/* Without the lock: copies the source into an emulator buffer, returned,
 * and makes c read from there. */
void *emu_copy_stage(emu_copy *c);
/* Lock held: submits the copy to its stream (or capture), owning staging;
 * *seq as emu_submit gives it. */
CUresult emu_copy_enqueue(const emu_copy *c, void *staging, uint64_t *seq);

/* A 3D copy description as cuMemcpy3D* and memcpy nodes take it. */
CUresult emu_copy_from_3d(const CUDA_MEMCPY3D *p, emu_copy *c);
/* Lock held: a memcpy node's template operation; both sides must be device
 * or page-locked memory. */
CUresult emu_copy_node_op(emu_copy *c, emu_op **out);
/* The parameters of a copy operation, as cuGraphMemcpyNodeGetParams gives
 * them. */
void emu_copy_op_params(const emu_op *op, CUDA_MEMCPY3D *p);

/* A plain 1D copy of n bytes. */
emu_copy emu_copy_1d(uintptr_t dst, emu_side_type dst_type, uintptr_t src, emu_side_type src_type, size_t n);

/* array.c: bytes per element of a CUDA array (0: not an array), and the
 * side of a copy of extent e (in elements) at element offset off. */
size_t emu_array_elem(CUarray a);
CUresult emu_array_side(CUarray a, const CUoffset3D *off, const CUextent3D *e, emu_side *side);
/* The device address of bytes [off, off+n) of array a (the 1D array copies). */
CUresult emu_array_bytes(CUarray a, size_t off, size_t n, uintptr_t *addr);

#endif
