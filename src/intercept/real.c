/* Where the real driver functions come from: the answers of the real
 * cuGetProcAddress (recorded by procaddr.c), or else dlsym on libcuda.so.1. */
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "syncguard/intercept.h"
#include "syncguard/log.h"

static void *_Atomic real_fns[SG_E_COUNT];
static uintptr_t self_lo, self_hi;

int sg_self_contains(uintptr_t addr)
{
    return addr >= self_lo && addr < self_hi;
}

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    uintptr_t lo = UINTPTR_MAX, hi = 0, me = (uintptr_t)&find_self;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (me >= lo && me < hi) {
        self_lo = lo, self_hi = hi;
        return 1;
    }
    return 0;
}

void sg_real_init(void)
{
    dl_iterate_phdr(find_self, NULL);
}

void *sg_libcuda(void)
{
    static void *_Atomic handle;
    void *h = atomic_load(&handle);
    if (h)
        return h;
    h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        h = dlopen("libcuda.so.1", RTLD_LAZY);
    if (!h) {
        static int said;
        sg_log_warn_once(&said, "cannot load libcuda.so.1 (%s); CUDA calls will fail", dlerror());
        return NULL;
    }
    atomic_store(&handle, h);
    return h;
}

void sg_real_offer(enum sg_entry_id id, void *fn)
{
    if (!fn || sg_self_contains((uintptr_t)fn))
        return;
    void *expected = NULL;
    atomic_compare_exchange_strong(&real_fns[id], &expected, fn);
}

void *sg_real(enum sg_entry_id id)
{
    void *fn = atomic_load_explicit(&real_fns[id], memory_order_acquire);
    if (SG_LIKELY(fn != NULL))
        return fn;
    void *lib = sg_libcuda();
    if (lib)
        sg_real_offer(id, sg_real_dlsym(lib, sg_entries[id].symbol));
    return atomic_load(&real_fns[id]);
}

static void *driver_fn(const char *name)
{
    void *lib = sg_libcuda();
    return lib ? sg_real_dlsym(lib, name) : NULL;
}

const struct sg_driver *sg_driver(void)
{
    static struct sg_driver d;
    static atomic_int ready;
    if (SG_LIKELY(atomic_load_explicit(&ready, memory_order_acquire)))
        return &d;
    /* Racing threads fill it with the same values: harmless. */
    d.cuCtxGetCurrent = driver_fn("cuCtxGetCurrent");
    d.cuCtxPushCurrent = driver_fn("cuCtxPushCurrent_v2");
    d.cuCtxPopCurrent = driver_fn("cuCtxPopCurrent_v2");
    d.cuStreamGetFlags = driver_fn("cuStreamGetFlags");
    d.cuStreamGetCtx = driver_fn("cuStreamGetCtx");
    d.cuStreamIsCapturing = driver_fn("cuStreamIsCapturing");
    d.cuEventCreate = driver_fn("cuEventCreate");
    d.cuEventDestroy = driver_fn("cuEventDestroy_v2");
    d.cuEventRecord = driver_fn("cuEventRecord");
    d.cuEventQuery = driver_fn("cuEventQuery");
    d.cuEventSynchronize = driver_fn("cuEventSynchronize");
    d.cuStreamSynchronize = driver_fn("cuStreamSynchronize");
    d.cuGraphGetNodes = driver_fn("cuGraphGetNodes");
    d.cuGraphNodeGetType = driver_fn("cuGraphNodeGetType");
    d.cuGraphMemcpyNodeGetParams = driver_fn("cuGraphMemcpyNodeGetParams");
    d.cuGraphChildGraphNodeGetGraph = driver_fn("cuGraphChildGraphNodeGetGraph");
    d.cuGraphHostNodeGetParams = driver_fn("cuGraphHostNodeGetParams");
    atomic_store_explicit(&ready, 1, memory_order_release);
    return &d;
}
