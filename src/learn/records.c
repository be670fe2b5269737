/* SPDX-License-Identifier: Apache-2.0 */
/* Instrumented launches (learn/learn_int.h). The shim, before the driver
 * call, works out a range of addresses for each pointer argument: its
 * allocation (pinned host memory from the model, else what the driver says
 * of the pointer), split between arguments that point into the same one,
 * each keeping the bytes from its own value up to the next. Inside the
 * call, the API's launch callback gives the launch a record in device
 * memory holding those ranges (learn/patch/record.h). The record is read
 * back when the host synchronizes with the launch's stream or context (the
 * API's synchronization callbacks): never sooner, since a kernel may wait
 * for the host, and reading the record earlier would wait for the kernel.
 * A launch whose record shows no block began ran uninstrumented (a patch
 * that took effect only later): it teaches nothing and is not counted. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/options.h"
#include "driver/driver.h"
#include "learn/learn_int.h"
#include "learn/patch/record.h"
#include "model/model.h"

#define MAX_PENDING 256 /* records not read back yet; more launches are not instrumented */
#define MAX_DISCARDS 8  /* uninstrumented launches of a function before giving up on it */

struct record {
    struct sg_learn_function *fn;
    CUcontext ctx;
    sg_san_stream stream;
    void *dev;
    unsigned nptrs;
    uintptr_t value[SG_KPARAMS_MAX_PTRS];
    int read;            /* read back */
    struct sg_rec image; /* what the device starts from, then what it wrote */
    struct record *next;
};

static struct record *pending;
static unsigned npending;
static __thread struct sg_learn_prepared prepared;

const struct sg_learn_prepared *sg_learn_prepared(void)
{
    return &prepared;
}

/* The allocation holding v: pinned host memory, else device, managed or
 * mapped memory as the driver knows it. 0 when v is no pointer it knows. */
static int allocation_of(uintptr_t v, uintptr_t *base, uintptr_t *end)
{
    size_t size;
    if (sg_pinned_range_any(v, base, &size)) {
        /* The range as the device names it: v may be the allocation's
         * device alias (no unified addressing), base is the host's. */
        uintptr_t delta = v - sg_pinned_unalias(v);
        *base += delta;
        *end = *base + size;
        return 1;
    }
    const struct sg_driver *d = sg_driver();
    CUpointer_attribute attrs[2] = { CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE };
    CUdeviceptr start = 0;
    size_t bytes = 0;
    void *out[2] = { &start, &bytes };
    if (!d->cuPointerGetAttributes || d->cuPointerGetAttributes(2, attrs, out, (CUdeviceptr)v) != CUDA_SUCCESS ||
        !bytes)
        return 0;
    *base = (uintptr_t)start, *end = (uintptr_t)start + bytes;
    return v >= *base && v < *end;
}

/* Arguments into one allocation share it: each keeps [its value, the next
 * higher value), the lowest also what lies below it. */
static void split_shared(struct sg_learn_prepared *p)
{
    for (unsigned j = 0; j < p->nptrs; j++) {
        uintptr_t lo = p->base[j], hi = p->end[j];
        for (unsigned i = 0; i < p->nptrs; i++) {
            uintptr_t v = p->value[i];
            if (i == j || p->base[i] != lo || p->end[i] != hi || p->base[j] == p->end[j])
                continue;
            if (v > p->value[j] && v < p->end[j])
                p->end[j] = v;
            if (v < p->value[j])
                p->base[j] = p->value[j];
        }
    }
}

void sg_learn_launch_prepare(CUfunction f, const struct sg_kparams *k, const uintptr_t *values)
{
    prepared.valid = 0;
    if (!sg_learn_active() || !k->decoded)
        return;
    struct sg_learn_function *fn = sg_learn_function_of(f);
    if (fn && atomic_load_explicit(&fn->complete, memory_order_acquire))
        return;
    prepared.f = f;
    prepared.nptrs = k->nptrs;
    for (unsigned j = 0; j < k->nptrs; j++) {
        prepared.value[j] = values[j];
        if (!values[j] || !allocation_of(values[j], &prepared.base[j], &prepared.end[j]))
            prepared.base[j] = prepared.end[j] = 0;
    }
    split_shared(&prepared);
    prepared.valid = 1;
}

void sg_learn_launch_done(void)
{
    prepared.valid = 0;
    sg_learn_modules_unpatch_now();
}

static void image_init(struct sg_rec *r, const struct sg_learn_prepared *p)
{
    memset(r, 0, sizeof *r);
    r->nranges = p->nptrs;
    for (unsigned j = 0; j < p->nptrs; j++)
        r->base[j] = p->base[j], r->end[j] = p->end[j];
    for (unsigned j = 0; j <= SG_REC_RANGES; j++)
        r->slot[j].lo = ~0ull;
}

static int give_record(struct record *rec, const struct sg_san_launch_data *d)
{
    if (sg_san.sanitizerAlloc(d->context, &rec->dev, sizeof rec->image) != SG_SAN_SUCCESS)
        return 0;
    if (sg_san.sanitizerMemcpyHostToDeviceAsync(rec->dev, &rec->image, sizeof rec->image, d->hStream) ==
            SG_SAN_SUCCESS &&
        sg_san.sanitizerSetLaunchCallbackData(d->hLaunch, d->function, d->hStream, rec->dev) == SG_SAN_SUCCESS)
        return 1;
    sg_san.sanitizerFree(d->context, rec->dev);
    return 0;
}

/* The launch's slot is reserved under the lock, its device record made
 * without it: the API's calls may wait on the driver, which may be waiting
 * to run another thread's callback that wants the lock. */
int sg_learn_record_start(const struct sg_san_launch_data *d, struct sg_learn_function *fn,
                          const struct sg_learn_prepared *p)
{
    if (fn->in_flight + fn->collected >= (unsigned)sg_opt.learn_launches || fn->discarded > MAX_DISCARDS ||
        npending >= MAX_PENDING || !sg_learn_module_patch(fn->module))
        return 0;
    struct record *rec = calloc(1, sizeof *rec);
    if (!rec)
        return 0;
    fn->in_flight++;
    npending++;
    image_init(&rec->image, p);
    rec->fn = fn, rec->ctx = d->context, rec->stream = d->hStream, rec->nptrs = p->nptrs;
    memcpy(rec->value, p->value, sizeof rec->value);
    sg_unlock(&sg_learn_lock);
    int given = give_record(rec, d);
    sg_lock(&sg_learn_lock);
    if (!given) {
        fn->in_flight--;
        npending--;
        free(rec);
        return 0;
    }
    rec->next = pending;
    pending = rec;
    if (!fn->started) {
        fn->started = 1;
        fn->module->learning++;
    }
    return 1;
}

static unsigned slot_bits(const struct sg_rec_slot *s)
{
    unsigned bits = s->bits & (SG_AX_READ | SG_AX_WRITE | SG_AX_ATOMIC | SG_AX_ATOMSYS);
    return bits | (s->repeats >= SG_REC_POLL_REPEATS ? SG_AX_POLL : 0);
}

/* The launch's set, extents relative to each argument's value. */
static void set_of_record(const struct record *rec, struct sg_access_set *s)
{
    sg_access_set_init(s, rec->nptrs);
    s->launches = 1;
    for (unsigned j = 0; j < rec->nptrs; j++) {
        const struct sg_rec_slot *slot = &rec->image.slot[j];
        s->p[j].bits = (uint8_t)slot_bits(slot);
        if (slot->hi > slot->lo)
            s->p[j].lo = (int64_t)(slot->lo - rec->value[j]), s->p[j].hi = (int64_t)(slot->hi - rec->value[j]);
    }
    s->other_bits = (uint8_t)slot_bits(&rec->image.slot[rec->nptrs]);
}

static void learn_from(struct record *rec) SG_REQUIRES(sg_learn_lock)
{
    struct sg_learn_function *fn = rec->fn;
    fn->in_flight--;
    if (rec->image.blocks == 0) {
        if (++fn->discarded > MAX_DISCARDS && fn->started) {
            SG_VLOG(1, "kernel %s: its launches ran uninstrumented %d times; not learnt\n", fn->name,
                    MAX_DISCARDS + 1);
            fn->started = 0;
            fn->module->learning--;
        }
        return;
    }
    struct sg_access_set one;
    set_of_record(rec, &one);
    sg_access_set_join(&fn->joined, &one);
    fn->collected++;
    sg_cache_put(fn->key, fn->name, &one);
    if (fn->collected >= (unsigned)sg_opt.learn_launches) {
        const struct sg_access_set *all = sg_cache_find(fn->key, fn->name); /* with earlier runs' */
        sg_learn_function_complete(fn, all ? all : &fn->joined, 0);
    }
}

void sg_learn_records_collect(CUcontext ctx, sg_san_stream h)
{
    struct record *mine = NULL;
    for (struct record **at = &pending; *at;) {
        struct record *rec = *at;
        if (rec->ctx != ctx || (h && rec->stream != h)) {
            at = &rec->next;
            continue;
        }
        *at = rec->next;
        npending--;
        rec->next = mine;
        mine = rec;
    }
    if (!mine)
        return;
    /* Read back without the lock (sg_learn_record_start says why). */
    sg_unlock(&sg_learn_lock);
    for (struct record *rec = mine; rec; rec = rec->next) {
        rec->read = sg_san.sanitizerMemcpyDeviceToHost(&rec->image, rec->dev, sizeof rec->image,
                                                       rec->stream) == SG_SAN_SUCCESS;
        sg_san.sanitizerFree(ctx, rec->dev);
    }
    sg_lock(&sg_learn_lock);
    for (struct record *rec = mine, *next; rec; rec = next) {
        next = rec->next;
        if (rec->read)
            learn_from(rec);
        else
            rec->fn->in_flight--;
        free(rec);
    }
}

void sg_learn_records_drop(CUcontext ctx, struct sg_learn_module *module)
{
    for (struct record **at = &pending; *at;) {
        struct record *rec = *at;
        if (rec->ctx != ctx || (module && rec->fn->module != module)) {
            at = &rec->next;
            continue;
        }
        /* Its device memory goes with the context, or may still be written
         * by a kernel of the module being unloaded: left alone. */
        *at = rec->next;
        npending--;
        rec->fn->in_flight--;
        free(rec);
    }
}
