/* SPDX-License-Identifier: Apache-2.0 */
/* What an instrumented launch records, and how: one record per launch, in
 * device memory, that the patch (learn/patch/learn_patch.cu) fills from
 * every global memory access of the kernel and the host reads back once the
 * host synchronized (learn/sanitizer.c). The same code is compiled for the
 * device by nvcc and for the CPU by the emulator (tests/emu/sanitizer.c),
 * which calls it for the accesses of its CPU kernels: the rules below are
 * tested by make check, not only on a GPU.
 *
 * The host gives each pointer-sized argument a range of addresses (the
 * argument's allocation, split between arguments pointing into the same
 * one); an access is attributed to the first range that holds it, else to
 * the record's last slot ("other"). Per slot: which kinds of access
 * happened, the lowest and highest byte touched, and, for polling, the
 * first read's (address, thread) key and how often that same thread read
 * that same address again: a flag waited on, not data (a compiler keeps a
 * plain value read twice in a register; only volatile or atomic reads come
 * back to memory).
 *
 * Costs: a slot's bits and bounds are read first and written with an
 * atomic only when the access adds something, so that a kernel's many
 * accesses of one kind into one buffer cost loads, not atomics. */
#ifndef SG_LEARN_PATCH_RECORD_H
#define SG_LEARN_PATCH_RECORD_H

#ifdef __CUDACC__
#define SG_REC_FN static __device__ __forceinline__
#define SG_REC_LOAD32(p) (*(volatile unsigned int *)(p))
#define SG_REC_LOAD64(p) (*(volatile unsigned long long *)(p))
#define SG_REC_OR32(p, v) atomicOr((unsigned int *)(p), (unsigned int)(v))
#define SG_REC_ADD32(p, v) atomicAdd((unsigned int *)(p), (unsigned int)(v))
#define SG_REC_MIN64(p, v) atomicMin((unsigned long long *)(p), (unsigned long long)(v))
#define SG_REC_MAX64(p, v) atomicMax((unsigned long long *)(p), (unsigned long long)(v))
#define SG_REC_CAS64(p, o, n) atomicCAS((unsigned long long *)(p), (unsigned long long)(o), \
                                        (unsigned long long)(n))
#else
#define SG_REC_FN static inline
#define SG_REC_LOAD32(p) __atomic_load_n((unsigned int *)(p), __ATOMIC_RELAXED)
#define SG_REC_LOAD64(p) __atomic_load_n((unsigned long long *)(p), __ATOMIC_RELAXED)
#define SG_REC_OR32(p, v) __atomic_fetch_or((unsigned int *)(p), (unsigned int)(v), __ATOMIC_RELAXED)
#define SG_REC_ADD32(p, v) __atomic_fetch_add((unsigned int *)(p), (unsigned int)(v), __ATOMIC_RELAXED)
#define SG_REC_MIN64(p, v) sg_rec_cpu_min64((unsigned long long *)(p), (unsigned long long)(v))
#define SG_REC_MAX64(p, v) sg_rec_cpu_max64((unsigned long long *)(p), (unsigned long long)(v))
#define SG_REC_CAS64(p, o, n) sg_rec_cpu_cas64((unsigned long long *)(p), (o), (n))
static inline void sg_rec_cpu_min64(unsigned long long *p, unsigned long long v)
{
    unsigned long long old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}
static inline void sg_rec_cpu_max64(unsigned long long *p, unsigned long long v)
{
    unsigned long long old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}
static inline unsigned long long sg_rec_cpu_cas64(unsigned long long *p, unsigned long long o,
                                                  unsigned long long n)
{
    __atomic_compare_exchange_n(p, &o, n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return o;
}
#endif

#define SG_REC_RANGES 64     /* = SG_KPARAMS_MAX_PTRS */
#define SG_REC_POLL_REPEATS 4 /* the same thread reading the same address this often more: a poll */

/* Slot bits (kept equal to learn/access_set.h's SG_AX_*). */
#define SG_REC_READ 0x1u
#define SG_REC_WRITE 0x2u
#define SG_REC_ATOMIC 0x4u
#define SG_REC_ATOMSYS 0x8u

struct sg_rec_slot {
    unsigned int bits;
    unsigned int repeats;        /* reads of first_key's address by its thread, after the first */
    unsigned long long lo, hi;   /* bytes [lo, hi) touched; lo starts at ~0, hi at 0 */
    unsigned long long first_key; /* 0: no read yet */
};

struct sg_rec {
    unsigned int nranges;        /* <= SG_REC_RANGES; slot[nranges] is "other" */
    unsigned int blocks;         /* blocks that began: 0 means the launch ran uninstrumented */
    unsigned long long base[SG_REC_RANGES], end[SG_REC_RANGES];
    struct sg_rec_slot slot[SG_REC_RANGES + 1];
};

/* The device's access flags (learn/sanitizer_api.h) as slot bits: a write
 * without a new value is an atomic. */
SG_REC_FN unsigned int sg_rec_bits(unsigned int flags, const void *new_value)
{
    unsigned int bits = 0;
    if (flags & 0x4u)
        bits |= SG_REC_ATOMSYS;
    if ((flags & 0x2u) && !new_value)
        bits |= SG_REC_ATOMIC;
    else if (flags & 0x2u)
        bits |= SG_REC_WRITE;
    if ((flags & 0x1u) && !(bits & (SG_REC_ATOMIC | SG_REC_ATOMSYS)))
        bits |= SG_REC_READ;
    return bits;
}

SG_REC_FN struct sg_rec_slot *sg_rec_slot_of(struct sg_rec *r, unsigned long long a)
{
    unsigned int n = r->nranges < SG_REC_RANGES ? r->nranges : SG_REC_RANGES;
    for (unsigned int i = 0; i < n; i++)
        if (a >= r->base[i] && a < r->end[i])
            return &r->slot[i];
    return &r->slot[n];
}

/* A read's poll key: the address and the reading thread, never 0. */
SG_REC_FN unsigned long long sg_rec_key(unsigned long long a, unsigned long long thread)
{
    unsigned long long k = (a * 0x9E3779B97F4A7C15ull) ^ (thread * 0xC2B2AE3D27D4EB4Full);
    return k ? k : 1;
}

SG_REC_FN void sg_rec_note_read(struct sg_rec_slot *s, unsigned long long key)
{
    unsigned long long first = SG_REC_LOAD64(&s->first_key);
    if (first == 0)
        first = SG_REC_CAS64(&s->first_key, 0ull, key);
    if (first == key)
        SG_REC_ADD32(&s->repeats, 1u);
}

/* One access of size bytes at a by thread (a number unique per thread in
 * the launch). */
SG_REC_FN void sg_rec_access(struct sg_rec *r, unsigned long long a, unsigned int size,
                             unsigned int flags, const void *new_value, unsigned long long thread)
{
    if (!r)
        return;
    struct sg_rec_slot *s = sg_rec_slot_of(r, a);
    unsigned int bits = sg_rec_bits(flags, new_value);
    if ((SG_REC_LOAD32(&s->bits) & bits) != bits)
        SG_REC_OR32(&s->bits, bits);
    if (a < SG_REC_LOAD64(&s->lo))
        SG_REC_MIN64(&s->lo, a);
    if (a + size > SG_REC_LOAD64(&s->hi))
        SG_REC_MAX64(&s->hi, a + size);
    if (bits == SG_REC_READ)
        sg_rec_note_read(s, sg_rec_key(a, thread));
}

SG_REC_FN void sg_rec_block_began(struct sg_rec *r)
{
    if (r && SG_REC_LOAD32(&r->blocks) == 0)
        SG_REC_ADD32(&r->blocks, 1u);
}

#endif
