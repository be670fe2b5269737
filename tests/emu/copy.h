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

/* A plain 1D copy of n bytes. */
emu_copy emu_copy_1d(uintptr_t dst, emu_side_type dst_type, uintptr_t src, emu_side_type src_type, size_t n);

#endif
