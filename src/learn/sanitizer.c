/* SPDX-License-Identifier: Apache-2.0 */
/* The Compute Sanitizer API: its library found and loaded at start-up, one
 * subscription, and the callbacks that drive learning (learn/learn.h).
 * The API allows one subscriber per process: under compute-sanitizer, or
 * another tool that subscribed first, syncguard does not learn, and says
 * so at verbosity 1. */
#include "config.h"

#include <dlfcn.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dl.h"
#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "learn/learn_int.h"
#include "learn/patch_image.h"

static sg_san_subscriber subscriber;
/* A callback entered from inside another (the API may synchronize for its
 * own copies): ignored. */
static __thread int in_callback;

/* The toolkit's folders that may hold the library: CUDA_HOME's, then the
 * default install's. */
static void *open_from_toolkit(char *tried, size_t size)
{
    const char *homes[] = { getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda" };
    for (unsigned i = 0; i < sizeof homes / sizeof homes[0]; i++) {
        if (!homes[i] || !*homes[i])
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/compute-sanitizer/libsanitizer-public.so", homes[i]);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
        size_t used = strlen(tried);
        snprintf(tried + used, size - used, "%s%s", used ? ", " : "", path);
    }
    return NULL;
}

static void *open_library(void)
{
    char tried[8192] = "";
    if (sg_opt.sanitizer_lib && *sg_opt.sanitizer_lib) {
        void *h = dlopen(sg_opt.sanitizer_lib, RTLD_NOW | RTLD_LOCAL);
        if (!h)
            SG_VLOG(1, "not learning kernels' accesses: sanitizer_lib=%s cannot be loaded: %s\n",
                    sg_opt.sanitizer_lib, dlerror());
        return h;
    }
    void *h = open_from_toolkit(tried, sizeof tried);
    if (!h)
        h = dlopen("libsanitizer-public.so", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        SG_VLOG(1, "not learning kernels' accesses: NVIDIA's Compute Sanitizer API "
                   "(libsanitizer-public.so) not found (tried %s and the loader's path; "
                   "option sanitizer_lib names it)\n",
                tried);
    return h;
}

static int look_up_all(void *h)
{
#define SG_SAN_LOOK_UP(name, ret, params)                                                    \
    sg_san.name = (ret(*) params)sg_real_dlsym(h, #name);                                  \
    if (!sg_san.name) {                                                                    \
        SG_VLOG(1, "not learning kernels' accesses: the Compute Sanitizer library lacks %s\n", \
                #name);                                                                    \
        return 0;                                                                          \
    }
    SG_SAN_FUNCTIONS(SG_SAN_LOOK_UP)
#undef SG_SAN_LOOK_UP
    return 1;
}

static void on_resource(uint32_t cbid, const void *data) SG_REQUIRES(sg_learn_lock)
{
    if (cbid == SG_SAN_CBID_RESOURCE_MODULE_LOADED) {
        const struct sg_san_module_data *m = data;
        if (!m->pCubin || !m->cubinSize)
            return;
        struct sg_module_key key = sg_module_key_of(m->pCubin, m->cubinSize);
        int known = sg_cache_load_module(key);
        struct sg_learn_module *lm = sg_learn_module_loaded(m->module, m->context, key, known);
        if (lm)
            sg_learn_module_patch(lm);
    } else if (cbid == SG_SAN_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
        struct sg_learn_module *m = sg_learn_module_of(((const struct sg_san_module_data *)data)->module);
        if (m) {
            sg_learn_records_drop(m->ctx, m);
            sg_learn_module_unloading(m);
            sg_learn_handles_forget(); /* its functions' handles may come back as others */
        }
    } else if (cbid == SG_SAN_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        CUcontext ctx = ((const struct sg_san_context_data *)data)->context;
        sg_learn_records_drop(ctx, NULL);
        sg_learn_context_destroying(ctx);
        sg_learn_handles_forget();
    }
}

/* A launch is about to be enqueued: bind its handle(s) to the function,
 * take a complete set from the cache, or give the launch a record. */
static void on_launch_begin(const struct sg_san_launch_data *d) SG_REQUIRES(sg_learn_lock)
{
    struct sg_learn_module *m = sg_learn_module_of(d->module);
    const struct sg_learn_prepared *p = sg_learn_prepared();
    if (!m || !d->functionName)
        return; /* loaded before syncguard subscribed */
    if (m->launches_left > 0)
        m->launches_left--;
    struct sg_learn_function *fn =
        sg_learn_function_get(m, d->functionName, p->valid ? p->nptrs : 0);
    if (!fn)
        return;
    sg_learn_function_bind(d->function, fn);
    if (p->valid && p->f != d->function)
        sg_learn_function_bind(p->f, fn); /* a CUkernel, launched as a CUfunction */
    if (!atomic_load(&fn->complete)) {
        const struct sg_access_set *known = sg_cache_find(fn->key, fn->name);
        if (known && known->launches >= (uint32_t)sg_opt.learn_launches)
            sg_learn_function_complete(fn, known, 1);
    }
    if (atomic_load(&fn->complete) || !p->valid || !sg_learn_record_start(d, fn, p))
        sg_learn_module_settle(m);
}

static void on_callback(void *userdata, int domain, uint32_t cbid, const void *data)
{
    (void)userdata;
    if (in_callback || !data)
        return;
    in_callback = 1;
    sg_lock(&sg_learn_lock);
    if (domain == SG_SAN_DOMAIN_RESOURCE) {
        on_resource(cbid, data);
    } else if (domain == SG_SAN_DOMAIN_LAUNCH && cbid == SG_SAN_CBID_LAUNCH_BEGIN) {
        on_launch_begin(data);
    } else if (domain == SG_SAN_DOMAIN_SYNCHRONIZE) {
        const struct sg_san_sync_data *s = data;
        sg_learn_records_collect(s->context,
                                 cbid == SG_SAN_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED ? s->hStream : NULL);
    }
    sg_unlock(&sg_learn_lock);
    in_callback = 0;
}

static int enable_callbacks(void)
{
    static const struct {
        int domain;
        uint32_t cbid;
    } wanted[] = {
        { SG_SAN_DOMAIN_RESOURCE, SG_SAN_CBID_RESOURCE_MODULE_LOADED },
        { SG_SAN_DOMAIN_RESOURCE, SG_SAN_CBID_RESOURCE_MODULE_UNLOAD_STARTING },
        { SG_SAN_DOMAIN_RESOURCE, SG_SAN_CBID_RESOURCE_CONTEXT_DESTROY_STARTING },
        { SG_SAN_DOMAIN_LAUNCH, SG_SAN_CBID_LAUNCH_BEGIN },
        { SG_SAN_DOMAIN_SYNCHRONIZE, SG_SAN_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED },
        { SG_SAN_DOMAIN_SYNCHRONIZE, SG_SAN_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED },
    };
    for (unsigned i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        sg_san_result r = sg_san.sanitizerEnableCallback(1, subscriber, wanted[i].domain, wanted[i].cbid);
        if (r != SG_SAN_SUCCESS) {
            SG_VLOG(1, "not learning kernels' accesses: the Compute Sanitizer API refused callback "
                       "%d/%u: %s\n",
                    wanted[i].domain, (unsigned)wanted[i].cbid, sg_san_error(r));
            return 0;
        }
    }
    return 1;
}

static void subscribe(void)
{
    sg_san_result r = sg_san.sanitizerSubscribe(&subscriber, on_callback, NULL);
    if (r != SG_SAN_SUCCESS) {
        SG_VLOG(1, "not learning kernels' accesses: the Compute Sanitizer API refused a subscriber "
                   "(%s%s)\n",
                sg_san_error(r),
                r == SG_SAN_ERROR_MAX_LIMIT_REACHED ? ": another tool, such as compute-sanitizer, "
                                                      "subscribed first"
                                                    : "");
        return;
    }
    if (!enable_callbacks()) {
        sg_san.sanitizerUnsubscribe(subscriber);
        return;
    }
    sg_learn_set_active();
    SG_VLOG(1, "learning kernels' accesses through the Compute Sanitizer API (%d launches per "
               "function; cache: %s)\n",
            (int)sg_opt.learn_launches, sg_cache_dir() ? sg_cache_dir() : "memory only");
}

/* Once per process, at the first cuInit. A cuInit that the API's library
 * makes from inside, on this thread, goes on; another thread's waits until
 * the subscription is made, so that no module loads unseen. */
static atomic_int init_state; /* 0 not begun, 1 running, 2 done */
static _Atomic long init_owner;

static void init_once(void);

void sg_learn_init(void)
{
    if (atomic_load_explicit(&init_state, memory_order_acquire) == 2)
        return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&init_state, &expected, 1)) {
        atomic_store(&init_owner, (long)sg_gettid());
        init_once();
        atomic_store_explicit(&init_state, 2, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&init_state, memory_order_acquire) == 1 &&
           atomic_load(&init_owner) != (long)sg_gettid())
        sched_yield();
}

static void init_once(void)
{
    if (!sg_opt.learn_kernels || !sg_opt.kernel_args)
        return;
    if (sg_learn_patch_image_size == 0) {
        SG_VLOG(1, "not learning kernels' accesses: this libsyncguard was built without nvcc, so "
                   "without the device patch that learning needs\n");
        return;
    }
    void *h = open_library();
    if (h && look_up_all(h))
        subscribe();
}

void sg_learn_fini(void)
{
    if (sg_learn_active())
        sg_cache_save();
}
