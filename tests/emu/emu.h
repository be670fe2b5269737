/* SPDX-License-Identifier: Apache-2.0 */
/* emu.h - internals of the CPU emulation of the CUDA driver API (libcuda.so.1).
 *
 * Model: every stream is an in-order queue of operations executed by its own
 * worker thread.  Ordering between streams is expressed as dependencies
 * (stream, sequence number): an operation starts only when every dependency
 * has completed.  One global mutex protects all emulator state; one condition
 * variable announces progress (an operation completed, a flag was stored).
 * Bytes are moved outside the lock.
 */
#ifndef SGEMU_EMU_H
#define SGEMU_EMU_H

/* pthread_cond_clockwait, pthread_setname_np; must precede every system
 * header, so every emulator source includes this header first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

/* We are the driver, so ask cuda.h for the driver-side view: every ABI name
 * (cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds, the 4-argument cuGetProcAddress...)
 * is then declared under its exact exported name with its exact prototype
 * and no macro renames our definitions.  The push-visibility switch gives
 * those declarations default visibility; everything else in the library is
 * hidden (-fvisibility=hidden), so internal calls never leave the library. */
#define __CUDA_API_VERSION_INTERNAL 1
#define __CUDA_API_PUSH_VISIBILITY_DEFAULT 1
#include <cuda.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EMU_DRIVER_VERSION 13000

/* Exports an older ABI name of a function whose signature and (here)
 * behaviour never changed, e.g. cuStreamDestroy for cuStreamDestroy_v2. */
#define EMU_OLD_ABI_OF(target) __attribute__((alias(#target)))
/* Defines an entry point of the plain ABI and its per-thread twin (the
 * _ptds or _ptsz name), which differ only in which stream a NULL handle
 * means: both return impl(args..., null_means), the plain one with
 * EMU_NULL_LEGACY, the twin with EMU_NULL_PER_THREAD.  Both names are
 * declared by cuda.h, which checks `params` against their prototypes. */
#define EMU_NULL_STREAM_ABIS(name, name_per_thread, params, impl, ...) \
    CUresult CUDAAPI name params                                       \
    {                                                                  \
        return impl(__VA_ARGS__, EMU_NULL_LEGACY);                     \
    }                                                                  \
    CUresult CUDAAPI name_per_thread params                            \
    {                                                                  \
        return impl(__VA_ARGS__, EMU_NULL_PER_THREAD);                 \
    }
#define EMU_MAX_DEVICES 64
/* cuCtxGetStreamPriorityRange: lower numbers mean higher priority. */
#define EMU_LEAST_PRIORITY 0
#define EMU_GREATEST_PRIORITY (-5)

/* ---- core.c: global lock, progress, initialisation --------------------- */

void emu_lock(void);
void emu_unlock(void);
/* Wakes every thread waiting for progress (lock held). */
void emu_broadcast(void);
/* Waits for progress (lock held); timeout_ns > 0 bounds the wait so that
 * callers polling memory (wait-value operations) look again. */
void emu_wait_progress(long timeout_ns);

/* CUDA_ERROR_NOT_INITIALIZED before a successful cuInit (lock held). */
CUresult emu_check_init(void);
int emu_device_count(void);
/* CUDA_ERROR_INVALID_DEVICE unless dev names an emulated device. */
CUresult emu_device_check(CUdevice dev);
/* emu_check_init, then emu_device_check: the errors, in the driver's order,
 * of a call that names a device (lock held). */
CUresult emu_check_init_device(CUdevice dev);

void *emu_xmalloc(size_t n);
void *emu_xcalloc(size_t n, size_t size);
void *emu_xrealloc(void *p, size_t n);
/* The growable arrays of the emulator (handle registries, dependency and
 * node sets, queues of templates): returns v, an array holding n elements
 * of elem_size bytes in room for *cap, with room for at least one more;
 * the room doubles when full. */
void *emu_grow(void *v, size_t n, size_t *cap, size_t elem_size);
/* Reports an emulator failure that a real device would turn into a sticky
 * error (e.g. DMA to an unmapped host address) and aborts. */
void emu_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* ---- engine.c: operations, dependencies, workers, host waits ----------- */

typedef struct emu_op emu_op;

typedef struct emu_dep {
    CUstream s;
    uint64_t seq;           /* done when s->completed >= seq */
} emu_dep;

typedef struct emu_deps {
    emu_dep *v;
    size_t n, cap;
} emu_deps;

/* What an operation does; each family (copies, events, host functions,
 * memory operations) defines its own class. */
typedef struct emu_op_class {
    /* The graph node a stream capture turns such an operation into. */
    CUgraphNodeType node_type;
    /* Extra start condition polled with the lock held (wait-value); NULL if
     * the operation can start as soon as its dependencies are done. */
    bool (*ready)(emu_op *op);
    /* The work itself, on the stream's worker thread, without the lock. */
    void (*run)(emu_op *op);
    /* Bookkeeping right after completion, lock held (event timestamps). */
    void (*retire)(emu_op *op);
    /* Releases what the operation owns, lock held. */
    void (*destroy)(emu_op *op);
    /* Lock held, right after emu_enqueue gave op its stream and sequence
     * number and before any worker can see it (an event record captures
     * its stream here, an event wait takes its dependencies). */
    void (*enqueued)(emu_op *op);
    /* Lock held: op was just made by emu_op_clone; take references to
     * what it shares with the original. */
    void (*copied)(emu_op *op);
} emu_op_class;

struct emu_op {
    const emu_op_class *cls;
    size_t size;                /* of the whole operation, for emu_op_clone */
    emu_op *next;
    CUstream stream;
    uint64_t seq;
    emu_deps deps;
};

/* Allocates a zeroed operation of `size` bytes whose first member is an
 * emu_op. */
void *emu_op_new(const emu_op_class *cls, size_t size);
/* Frees an operation that was never enqueued (lock held). */
void emu_op_discard(emu_op *op);
/* A fresh, unqueued copy of an operation that was never enqueued (a graph
 * node's template): same parameters, no dependencies (lock held). */
emu_op *emu_op_clone(const emu_op *op);
/* Appends op to stream s (lock held), adding the implicit dependencies of
 * the legacy default stream, and returns its sequence number.  API entry
 * points go through emu_submit (capture.c), which knows about captures. */
uint64_t emu_enqueue(CUstream s, emu_op *op);

void emu_deps_add(emu_deps *d, CUstream s, uint64_t seq);
void emu_deps_clear(emu_deps *d);
bool emu_deps_done(const emu_deps *d);
/* Blocks the calling host thread until every dependency is done (lock
 * held).  Before it actually blocks it performs the releases registered with
 * sgemu_release_on_host_wait. */
void emu_host_wait(const emu_deps *d);
/* emu_host_wait for the operation `seq` of stream s. */
void emu_host_wait_op(CUstream s, uint64_t seq);

/* ---- hostwait.c: the test-only release hook ---------------------------- */

/* Calls every registered callback, then stores every registered release
 * value (lock held); called by
 * emu_host_wait just before a host thread blocks. */
void emu_fire_host_wait_releases(void);
/* sgemu_call_after_enqueue (hostwait.c): emu_enqueue hands a pending
 * registration to the calling thread (lock held); emu_unlock runs it. */
void emu_note_enqueued(void);
void emu_run_after_enqueue(void);

/* A set of graph nodes (dependencies, a capture's frontier). */
typedef struct emu_nodes {
    CUgraphNode *v;
    size_t n, cap;
} emu_nodes;

/* ---- context.c --------------------------------------------------------- */

struct CUctx_st {
    CUdevice dev;
    unsigned int flags;
    unsigned long long id;
    bool primary;
    int primary_refs;       /* cuDevicePrimaryCtxRetain count */
    bool active;            /* usable: created/retained and not destroyed */
    bool destroyed;         /* cuCtxDestroy'ed: never usable again */
    unsigned int epoch;     /* bumped at each teardown; ages per-thread streams */
    CUstream legacy;        /* the legacy default stream */
    CUstream streams;       /* every stream of the context, legacy included */
    CUcontext next_all;
};

/* The calling thread's current context, checked usable (lock held). */
CUresult emu_ctx_current(CUcontext *out);
/* CUDA_SUCCESS if c is a context handle that can be used (lock held). */
CUresult emu_ctx_check(CUcontext c);
/* Every piece of work of the context enqueued so far. */
void emu_ctx_capture(CUcontext c, emu_deps *out);
/* Blocks the calling host thread until the work that emu_ctx_capture names
 * is done (lock held). */
void emu_ctx_host_wait(CUcontext c);

/* ---- stream.c ---------------------------------------------------------- */

typedef enum { EMU_STREAM_USER, EMU_STREAM_LEGACY, EMU_STREAM_PER_THREAD } emu_stream_kind;

struct CUstream_st {
    CUcontext ctx;
    emu_stream_kind kind;
    unsigned int flags;     /* CU_STREAM_NON_BLOCKING or 0 */
    int priority;
    unsigned long long id;
    uint64_t enqueued;      /* sequence number of the newest operation */
    uint64_t completed;     /* newest completed one; operations complete in order */
    emu_op *head, *tail;
    int refs;               /* owner, worker, dependencies, event captures */
    bool worker;            /* its worker thread is running */
    bool dying;             /* destroyed: finish the queue, then go away */
    CUstream next;          /* in ctx->streams */
    struct emu_capture *capture;    /* the capture sequence it takes part in, or NULL */
    emu_nodes capture_tail;         /* while capturing: what its next node depends on */
};

/* How the _ptsz/_ptds and the plain ABI read the NULL stream handle. */
typedef enum { EMU_NULL_LEGACY = 0, EMU_NULL_PER_THREAD = 1 } emu_null_stream;

/* Turns a stream handle from the API into the stream work goes to (lock
 * held): NULL per `null_means`, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD or a
 * stream made by cuStreamCreate*. */
CUresult emu_stream_get(CUstream handle, emu_null_stream null_means, CUstream *out);
CUstream emu_stream_new(CUcontext ctx, emu_stream_kind kind, unsigned int flags, int priority);
/* Marks s destroyed: queued work still completes, then it is freed. */
void emu_stream_kill(CUstream s);
void emu_stream_ref(CUstream s);
void emu_stream_unref(CUstream s);
bool emu_stream_blocking(CUstream s);
/* The work a host synchronisation on s waits for: its own queue and, for
 * the legacy stream, the queues of every blocking stream of the context. */
void emu_stream_capture(CUstream s, emu_deps *out);

/* ---- event.c ----------------------------------------------------------- */

/* Forgets the events of a context being torn down (lock held). */
void emu_events_drop_ctx(CUcontext ctx);

/* ---- registry.c: the unified address space ----------------------------- */

/* hostkinds.c adds the kinds a program gets outside cuMemAlloc/cuMemHostAlloc:
 * managed memory (device memory to the copy rules), and page-locked host
 * memory of the virtual memory API (cuMemCreate + cuMemMap) and of memory
 * pools located on the host (their owners unmap them, not a context). */
typedef enum {
    EMU_MEM_DEVICE, EMU_MEM_HOST_ALLOC, EMU_MEM_HOST_REGISTERED,
    EMU_MEM_MANAGED, EMU_MEM_HOST_VMM, EMU_MEM_DEVICE_VMM, EMU_MEM_HOST_POOL,
    EMU_MEM_HOST_ALIAS      /* the device's own address of a mapped host allocation */
} emu_mem_kind;

typedef struct emu_range {
    uintptr_t base;
    size_t size;
    emu_mem_kind kind;
    unsigned int flags;     /* cuMemHostAlloc / cuMemHostRegister flags */
    CUcontext ctx;
    unsigned long long id;  /* CU_POINTER_ATTRIBUTE_BUFFER_ID */
    /* SGEMU_DEVICE_ALIAS: a HOST_ALLOC's device address, a HOST_ALIAS's
     * host address; 0 when the device uses the host address (unified
     * addressing). */
    uintptr_t alias;
} emu_range;

/* Where a byte range lives, for the copy rules.  EMU_BAD: it starts in
 * device memory but runs past the end of the allocation. */
typedef enum { EMU_PAGEABLE, EMU_PINNED, EMU_DEVICE, EMU_BAD } emu_where;

/* Whether a range of this kind is device memory to the copy rules. */
static inline bool emu_mem_kind_device(emu_mem_kind k)
{
    return k == EMU_MEM_DEVICE || k == EMU_MEM_MANAGED || k == EMU_MEM_DEVICE_VMM;
}

void emu_mem_insert(const emu_range *r);
/* Removes the range starting exactly at base (lock held); false if none. */
bool emu_mem_remove(uintptr_t base, emu_range *removed);
/* The range containing addr, or NULL (lock held).  The pointer is valid
 * until the registry changes. */
const emu_range *emu_mem_find(uintptr_t addr);
/* Whether addr lies in managed memory, which the device reaches through
 * its own mappings whatever the CPU's page protections say (a real GPU's
 * accesses and migrations ignore mprotect: GPU run 39): the emulator's
 * device side then goes through DMA as for host memory. Emulator lock held. */
bool emu_mem_managed(uintptr_t addr);
/* The first range overlapping [base, base+n), or NULL (lock held). */
const emu_range *emu_mem_overlap(uintptr_t base, size_t n);
/* Classifies [addr, addr+n) (lock held): pinned or device only if one
 * range holds all of it, pageable if it starts outside every range. */
emu_where emu_mem_where(uintptr_t addr, size_t n);
/* Removes and returns (in *out, malloc'ed) every range of ctx. */
size_t emu_mem_take_ctx(CUcontext ctx, emu_range **out);
unsigned long long emu_mem_next_id(void);

/* ---- memory.c ---------------------------------------------------------- */

/* Frees the allocations and registrations of a context (lock held). */
void emu_mem_drop_ctx(CUcontext ctx);
/* The device-memory size every emulated device reports. */
size_t emu_total_mem(void);

/* ---- dma.c: the device's view of host memory --------------------------- */

/* Opens /proc/self/mem once; accesses through it ignore page protection the
 * way a device's DMA does. */
CUresult emu_dma_init(void);
void emu_dma_read(void *dst, uintptr_t host_src, size_t n);
/* hostkinds.c: where the device reaches [addr, addr+n) of a virtual-memory
 * mapping (a second, always read-write mapping of the same memory: the
 * kernel does not force writes into a shared mapping the program made
 * inaccessible); addr itself elsewhere.  Any thread, without the lock. */
uintptr_t emu_dma_alias(uintptr_t addr, size_t n);
void emu_dma_write(uintptr_t host_dst, const void *src, size_t n);
/* hostkinds.c: DMA into [base, base+size) goes through alias instead (a
 * shared mapping's second, read-write view); until removed. */
void emu_dma_alias_add(uintptr_t base, size_t size, uintptr_t alias);
void emu_dma_alias_remove(uintptr_t base);
/* A device-side 32- or 64-bit load or store (size 4 or 8) at a unified
 * address: emulator device memory directly, host memory through DMA. */
uint64_t emu_dev_load(uintptr_t addr, size_t size, bool host);
void emu_dev_store(uintptr_t addr, uint64_t value, size_t size, bool host);

/* ---- graph.c: graphs and their nodes ----------------------------------- */

void emu_nodes_add(emu_nodes *s, CUgraphNode node);   /* no duplicates */
void emu_nodes_copy(emu_nodes *dst, const emu_nodes *src);
void emu_nodes_clear(emu_nodes *s);

/* A node: what a launch does there is its template operation (cloned and
 * enqueued at each launch) or its embedded child graph; empty nodes have
 * neither.  Nodes can only depend on nodes added before them, so a graph's
 * node order is a topological order. */
struct CUgraphNode_st {
    CUgraph graph;
    CUgraphNodeType type;
    emu_op *tmpl;
    CUgraph child;              /* CU_GRAPH_NODE_TYPE_GRAPH: owned */
    emu_nodes deps;
};

struct CUgraph_st {
    CUgraphNode *nodes;
    size_t n, cap;
    CUgraphNode parent;         /* the child-graph node embedding it, or NULL */
    bool capturing;             /* a capture sequence is building it */
};

CUgraph emu_graph_new(CUgraphNode parent);
/* Frees g, its nodes and their child graphs (lock held). */
void emu_graph_free(CUgraph g);
/* A deep copy: cloned templates, cloned child graphs (lock held). */
CUgraph emu_graph_clone(CUgraph g, CUgraphNode parent);
CUresult emu_graph_check(CUgraph g);
CUresult emu_node_check(CUgraphNode node);
/* emu_node_check, and the node must be of type `type` (the getters of a
 * node's parameters): CUDA_ERROR_INVALID_VALUE otherwise. */
CUresult emu_node_check_type(CUgraphNode node, CUgraphNodeType type);
/* Adds a node depending on deps (lock held), taking ownership of tmpl and
 * child, which are freed on failure. */
CUresult emu_graph_add(CUgraph g, const CUgraphNode *deps, size_t ndeps, CUgraphNodeType type,
                       emu_op *tmpl, CUgraph child, CUgraphNode *out);
/* Whether `node` is one of `set` or something they depend on, transitively. */
bool emu_nodes_reach(const emu_nodes *set, CUgraphNode node);

/* ---- graph_exec.c, for graph_update.c --------------------------------- */

/* Gives the node of executable graph e that stands for `node` (of the graph
 * e was instantiated from) a new template, taking ownership of tmpl, which
 * is freed on failure (lock held). */
CUresult emu_exec_set_template(CUgraphExec e, CUgraphNode node, emu_op *tmpl);
/* cuGraphExecChildGraphNodeSetParams: the child graph of e's node standing
 * for `node` (a child-graph node) takes g's parameters if g has its
 * topology (lock held). */
CUresult emu_exec_set_child(CUgraphExec e, CUgraphNode node, CUgraph g);
/* cuGraphExecUpdate: e takes g's parameters if g has e's topology. */
CUresult emu_exec_update(CUgraphExec e, CUgraph g, CUgraphExecUpdateResult *result);
/* graph_update.c: whether a conditional node's body runs in a launch. */
bool emu_conditional_runs(CUgraphNode node);

/* ---- capture.c: stream capture ----------------------------------------- */

typedef struct emu_capture emu_capture;

/* Where API calls hand their work (lock held): appended to the queue of s
 * (*seq its sequence number), or, while s takes part in a capture sequence,
 * added to the capture's graph as a node (*seq = 0: nothing to wait for).
 * Fails with CUDA_ERROR_STREAM_CAPTURE_IMPLICIT for the legacy stream while
 * a blocking stream of its context captures, and with
 * CUDA_ERROR_STREAM_CAPTURE_INVALIDATED on an invalidated capture; on
 * failure op is discarded. */
CUresult emu_submit(CUstream s, emu_op *op, uint64_t *seq);
/* The checks of emu_submit alone, for callers that must know before they
 * build an operation (lock held). */
CUresult emu_capture_check_enqueue(CUstream s);
bool emu_capturing(CUstream s);
/* Invalidates the capture s takes part in (after an operation that stream
 * capture does not allow); returns `err` for the caller's convenience. */
CUresult emu_capture_fail(CUstream s, CUresult err);
/* Host synchronisation with (or a query of) s: not allowed while s, or,
 * for the legacy stream, a blocking stream of its context, captures. */
CUresult emu_capture_check_sync(CUstream s);
/* ... and with a whole context while any of its streams captures. */
CUresult emu_capture_check_ctx_sync(CUcontext c);
void emu_capture_invalidate(emu_capture *cap);

/* Events and captures: recording on a capturing stream remembers the
 * capture and its frontier; waiting on such an event joins it. */
emu_capture *emu_capture_of(CUstream s);
void emu_capture_frontier(CUstream s, emu_nodes *out);
void emu_capture_ref(emu_capture *cap);
void emu_capture_unref(emu_capture *cap);
bool emu_capture_active(const emu_capture *cap);
/* s waits for `nodes` of capture `cap` (s joins it if it is not capturing). */
CUresult emu_capture_join(CUstream s, emu_capture *cap, const emu_nodes *nodes);
/* Adds a node to the graph s is capturing into, after the stream's
 * frontier, and makes it the frontier (lock held); takes ownership of
 * tmpl and child. */
CUresult emu_capture_add(CUstream s, CUgraphNodeType type, emu_op *tmpl, CUgraph child);

/* ---- per-family node templates (copy.c, memset.c, hostfn.c, event.c) -- */

CUresult emu_memset_node_op(const CUDA_MEMSET_NODE_PARAMS *p, emu_op **out);
void emu_memset_op_params(const emu_op *op, CUDA_MEMSET_NODE_PARAMS *p);
emu_op *emu_host_node_op(CUhostFn fn, void *data);
/* sanitizer.c: the emulator's Compute Sanitizer API (learn/sanitizer_api.h).
 * Called without the lock. A module was loaded (its image's bytes), or is
 * about to be unloaded. */
void emu_san_module_loaded(CUcontext ctx, CUmodule m, const void *image, size_t size);
void emu_san_module_unloading(CUcontext ctx, CUmodule m);
/* A stream launch about to be enqueued: LAUNCH_BEGIN and _END; *out says
 * how its kernel is to run (the record its subscriber gave, the patched
 * instructions). */
typedef struct emu_san_launch_info {
    CUcontext ctx;
    CUstream stream, resolved; /* as passed, and the stream it names */
    CUmodule module;
    CUfunction f;
    const char *name;
    unsigned grid[3], block[3];
} emu_san_launch_info;
typedef struct emu_san_patch {
    void *record;
    bool access, block;
} emu_san_patch;
void emu_san_launch(const emu_san_launch_info *l, emu_san_patch *out);
/* A cuStreamSynchronize (whole_context false) or cuCtxSynchronize returned. */
void emu_san_synchronized(CUcontext ctx, CUstream stream, CUstream resolved, bool whole_context);
/* Around a patched launch's CPU kernel, on its worker; each device access
 * in between (flags: learn/sanitizer_api.h's SG_SAN_MEMORY_*). */
void emu_san_kernel_begin(const emu_san_patch *p);
void emu_san_kernel_end(void);
void emu_san_access(uintptr_t addr, size_t n, unsigned flags, const void *new_value);
/* kernel.c: the context a module was loaded in (lock held). */
CUcontext emu_module_ctx(CUmodule m);
/* kernel.c: unloads the modules of a context being torn down (lock held). */
void emu_modules_drop_ctx(CUcontext ctx);
/* kernel.c: a kernel node's template (it runs on a 1x1x1 grid whatever the
 * node says), and its parameters back. */
CUresult emu_kernel_node_op(const CUDA_KERNEL_NODE_PARAMS *p, emu_op **out);
void emu_kernel_op_params(emu_op *op, CUDA_KERNEL_NODE_PARAMS *p);
/* kernel.c, for the other launch calls (kernel_multi.c, kernel_legacy.c):
 * a launch's kernel operation with its parameters read now, from
 * kernelParams or extra's packed buffer (lock held), and the check of its
 * grid and block. */
CUresult emu_kernel_launch_op(CUfunction f, void **params, void **extra, emu_op **out);
CUresult emu_kernel_check_dims(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz);
/* memop.c: a memory operation node of one wait or write, and its
 * parameters back (a paramArray of one, kept in the node). */
CUresult emu_value_node_op(const CUstreamBatchMemOpParams *p, emu_op **out);
void emu_value_op_params(emu_op *op, CUDA_BATCH_MEM_OP_NODE_PARAMS *p);
void emu_host_op_params(const emu_op *op, CUDA_HOST_NODE_PARAMS *p);
/* Event record and event wait operations, as graph nodes have them. */
CUresult emu_event_node_op(CUevent ev, bool record, emu_op **out);
CUevent emu_event_op_event(const emu_op *op);
/* The record of an event that a kernel launch on s makes (cuLaunchKernelEx
 * event attributes), checked as the driver documents (lock held). */
CUresult emu_launch_event_op(CUevent ev, CUstream s, emu_op **out);

#endif
