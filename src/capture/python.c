/* SPDX-License-Identifier: Apache-2.0 */
/* Python frames of the calling thread, read straight from CPython's own
 * structures (py-spy style, but in-process). No libpython link, no GIL, no
 * C-API call that allocates or takes a lock: capture runs on the hot path of
 * every guarded copy and inside the SIGSEGV handler.
 *
 * The thread's PyThreadState comes from PyGILState_GetThisThreadState (a
 * pthread_getspecific of the interpreter's TSS key): it is there whether or
 * not the thread holds the GIL right now (PyTorch drops it around its C++
 * ops, which is when copies and host reads happen). A thread's own frame
 * chain does not change while that thread runs C code, so walking it from the
 * thread itself needs no lock.
 *
 * Layouts differ per minor version; the offsets below were taken with
 * offsetof() from each version's installed headers (Include/cpython/pystate.h,
 * Include/cpython/frameobject.h (3.9, 3.10), Include/internal/pycore_frame.h
 * (3.11+), Include/cpython/code.h, Include/cpython/unicodeobject.h), built
 * with Py_BUILD_CORE: 3.9.18, 3.10.13, 3.11.7, 3.12.1 and 3.13.0, x86-64,
 * default (GIL, non-debug) builds. They are the same on any LP64 target.
 * Builds whose object header differs (Py_TRACE_REFS, free-threaded 3.13t)
 * are refused at start-up: PyCode_Type's ob_type must sit at offset 8, and on
 * 3.13 the interpreter's own _Py_DebugOffsets must agree with ours. */
#include "config.h"

#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/log.h"
#include "base/options.h"
#include "capture/python.h"

/* How the frame chain is laid out. */
enum family {
    FAM_39 = 1, /* PyFrameObject chain, tstate->frame, f_lasti in bytes */
    FAM_310,    /* the same, f_lasti in code units */
    FAM_311,    /* _PyInterpreterFrame via tstate->cframe->current_frame */
    FAM_312,    /* the same, plus shim frames owned by the C stack */
    FAM_313,    /* _PyInterpreterFrame via tstate->current_frame */
};

struct layout {
    enum family family;
    int minor;
    /* PyThreadState: frame (3.9/3.10), cframe (3.11/3.12), current_frame */
    size_t ts_frame;
    /* _PyCFrame.current_frame (3.11/3.12 only) */
    size_t cf_current;
    /* Frame: the code object, the caller, the instruction, the owner. */
    size_t fr_code, fr_back, fr_instr, fr_owner;
    /* PyCodeObject */
    size_t co_name;           /* co_qualname on 3.11+ */
    size_t co_filename;
    size_t co_code;           /* 3.9/3.10: the co_code bytes object */
    size_t co_code_adaptive;  /* 3.11+: the instructions, inline */
    size_t co_firsttraceable; /* 3.11+: int */
    /* PyASCIIObject / PyCompactUnicodeObject sizes: where the data starts */
    size_t ascii_size, compact_size;
};

/* Offsets common to every supported version (LP64, default builds):
 * PyObject.ob_type 8, PyVarObject.ob_size 16, PyBytesObject.ob_sval 32,
 * PyASCIIObject.length 16, PyASCIIObject.state 32 (interned:2, kind:3,
 * compact:1, ascii:1 from bit 0 with GCC's little-endian bit-field order). */
#define OFF_OB_TYPE 8
#define OFF_OB_SIZE 16
#define OFF_BYTES_SVAL 32
#define OFF_STR_LENGTH 16
#define OFF_STR_STATE 32
#define STATE_KIND(s) (((s) >> 2) & 7u)
#define STATE_COMPACT(s) (((s) >> 5) & 1u)
#define STATE_ASCII(s) (((s) >> 6) & 1u)

/* _PyInterpreterFrame.owner values (pycore_frame.h, 3.11 to 3.13). */
#define FRAME_OWNED_BY_GENERATOR 1
#define FRAME_OWNED_BY_CSTACK 3 /* 3.12+ */

static const struct layout layouts[] = {
    /* 3.9: cpython/pystate.h: PyThreadState.frame 24; cpython/frameobject.h:
     * f_back 24, f_code 32, f_lasti 104; cpython/code.h: co_code 48,
     * co_filename 104, co_name 112; unicode: PyASCIIObject 48 (with wstr),
     * PyCompactUnicodeObject 72. */
    { FAM_39, 9, 24, 0, 32, 24, 104, 0, 112, 104, 48, 0, 0, 48, 72 },
    /* 3.10: as 3.9 but f_lasti 96 (f_trace_lines/opcodes moved), and it
     * counts code units (PyFrame_GetLineNumber uses f_lasti*2). */
    { FAM_310, 10, 24, 0, 32, 24, 96, 0, 112, 104, 48, 0, 0, 48, 72 },
    /* 3.11: PyThreadState.cframe 56, _PyCFrame.current_frame 8;
     * _PyInterpreterFrame: f_code 32, previous 48, prev_instr 56, owner 69;
     * PyCodeObject: co_filename 112, co_qualname 128, _co_firsttraceable
     * 168, co_code_adaptive 184. */
    { FAM_311, 11, 56, 8, 32, 48, 56, 69, 128, 112, 0, 184, 168, 48, 72 },
    /* 3.12: PyThreadState.cframe 56, _PyCFrame.current_frame 0;
     * _PyInterpreterFrame: f_code 0, previous 8, prev_instr 56, owner 70;
     * PyCodeObject: co_filename 112, co_qualname 128, _co_firsttraceable
     * 176, co_code_adaptive 192; no wstr: PyASCIIObject 40, compact 56. */
    { FAM_312, 12, 56, 0, 0, 8, 56, 70, 128, 112, 0, 192, 176, 40, 56 },
    /* 3.13: PyThreadState.current_frame 72; _PyInterpreterFrame:
     * f_executable 0, previous 8, instr_ptr 56, owner 70; PyCodeObject:
     * co_filename 112, co_qualname 128, _co_firsttraceable 184,
     * co_code_adaptive 200. */
    { FAM_313, 13, 72, 0, 0, 8, 56, 70, 128, 112, 0, 200, 184, 40, 56 },
};

enum { PY_UNKNOWN, PY_ABSENT, PY_READY, PY_UNSUPPORTED };

static _Atomic int py_state = PY_UNKNOWN;
static atomic_flag probing = ATOMIC_FLAG_INIT;
static unsigned long long probed_adds; /* dl_iterate_phdr's count at the last probe */
static SG_TLS unsigned recheck_tick; /* captures while no Python was found */

/* Written once before py_state becomes PY_READY (release), read after. */
static struct layout L;
static uintptr_t code_type, unicode_type;
static void *(*get_tstate)(void);   /* PyGILState_GetThisThreadState */
static int (*is_initialized)(void); /* Py_IsInitialized */
static int (*addr2line)(void *, int); /* PyCode_Addr2Line */

/* A pointer worth dereferencing: not in the first page, word aligned,
 * canonical user space. The frames walked belong to this very thread, so
 * this only screens out a corrupt or half-built link. */
static inline int ok_ptr(uintptr_t p)
{
    return p >= 4096 && (p & 7) == 0 && p < ((uintptr_t)1 << 47);
}

static inline uintptr_t load_ptr(uintptr_t addr)
{
    return *(const volatile uintptr_t *)addr;
}

static int is_code(uintptr_t code)
{
    return ok_ptr(code) && load_ptr(code + OFF_OB_TYPE) == code_type;
}

int sg_python_capture(struct sg_pyframe *out, int max)
{
    if (SG_UNLIKELY(atomic_load_explicit(&py_state, memory_order_acquire) != PY_READY)) {
        /* Not (yet) a Python process. A libpython dlopened after start-up is
         * noticed here: on every 64th capture of a thread, and only in
         * normal context (the fault handler and the reporter run with
         * sg_in_syncguard set); sg_python_init then costs a
         * dl_iterate_phdr (~30 ns) unless objects were loaded. */
        if (atomic_load_explicit(&py_state, memory_order_relaxed) == PY_ABSENT &&
            (recheck_tick++ & 63) == 0 && sg_in_syncguard == 0)
            sg_python_init();
        if (atomic_load_explicit(&py_state, memory_order_acquire) != PY_READY)
            return 0;
    }
    if (max <= 0 || !is_initialized())
        return 0;
    uintptr_t ts = (uintptr_t)get_tstate();
    if (!ok_ptr(ts))
        return 0;
    uintptr_t fr = load_ptr(ts + L.ts_frame);
    if (L.family == FAM_311 || L.family == FAM_312) {
        if (!ok_ptr(fr))
            return 0;
        fr = load_ptr(fr + L.cf_current);
    }
    int n = 0;
    /* Skipped shim and incomplete frames count too: a cycle cannot loop. */
    for (int steps = 0; ok_ptr(fr) && n < max && steps < max + 32;
         steps++, fr = load_ptr(fr + L.fr_back)) {
        uintptr_t code = load_ptr(fr + L.fr_code);
        int lasti;
        if (L.family <= FAM_310) {
            if (!is_code(code))
                break;
            lasti = *(const volatile int *)(fr + L.fr_instr);
            if (lasti < 0)
                lasti = -1;
            else if (L.family == FAM_310)
                lasti *= 2;
        } else {
            char owner = *(const volatile char *)(fr + L.fr_owner);
            if (L.family >= FAM_312 && owner == FRAME_OWNED_BY_CSTACK)
                continue; /* the entry shim of an eval loop */
            if (!is_code(code)) {
                if (L.family == FAM_313)
                    continue; /* f_executable need not be code */
                break;
            }
            uintptr_t first = code + L.co_code_adaptive;
            uintptr_t ip = load_ptr(fr + L.fr_instr);
            int traceable = *(const volatile int *)(code + L.co_firsttraceable);
            /* _PyFrame_IsIncomplete: not yet past its RESUME prologue. */
            if (owner != FRAME_OWNED_BY_GENERATOR && ip < first + 2 * (uintptr_t)traceable)
                continue;
            lasti = ip >= first && ip - first < (1u << 30) ? (int)(ip - first) : -1;
        }
        out[n].code = code;
        out[n].lasti = lasti;
        n++;
    }
    return n;
}

/* Appends the code point c as UTF-8 if it fits; returns the new length. */
static size_t put_utf8(char *dst, size_t used, size_t cap, uint32_t c)
{
    char b[4];
    size_t k;
    if (c < 0x80)
        b[0] = (char)c, k = 1;
    else if (c < 0x800)
        b[0] = (char)(0xc0 | c >> 6), b[1] = (char)(0x80 | (c & 0x3f)), k = 2;
    else if (c < 0x10000)
        b[0] = (char)(0xe0 | c >> 12), b[1] = (char)(0x80 | (c >> 6 & 0x3f)),
        b[2] = (char)(0x80 | (c & 0x3f)), k = 3;
    else if (c < 0x110000)
        b[0] = (char)(0xf0 | c >> 18), b[1] = (char)(0x80 | (c >> 12 & 0x3f)),
        b[2] = (char)(0x80 | (c >> 6 & 0x3f)), b[3] = (char)(0x80 | (c & 0x3f)), k = 4;
    else
        b[0] = '?', k = 1;
    if (used + k >= cap)
        return used;
    memcpy(dst + used, b, k);
    return used + k;
}

/* Copies a str object's text as UTF-8, from its compact layout (what code
 * object names and file names always are); "?" for anything else. */
static void copy_str(uintptr_t s, char *dst, size_t cap)
{
    snprintf(dst, cap, "?");
    if (!ok_ptr(s) || load_ptr(s + OFF_OB_TYPE) != unicode_type)
        return;
    uint32_t state = *(const uint32_t *)(s + OFF_STR_STATE);
    intptr_t len = *(const intptr_t *)(s + OFF_STR_LENGTH);
    unsigned kind = STATE_KIND(state);
    if (!STATE_COMPACT(state) || len < 0 || len > (1 << 20) || (kind != 1 && kind != 2 && kind != 4))
        return;
    size_t used = 0;
    if (STATE_ASCII(state)) {
        used = (size_t)len < cap - 1 ? (size_t)len : cap - 1;
        memcpy(dst, (const char *)(s + L.ascii_size), used);
    } else {
        const unsigned char *data = (const unsigned char *)(s + L.compact_size);
        for (intptr_t i = 0; i < len && used + 1 < cap; i++) {
            uint32_t c = kind == 1   ? data[i]
                         : kind == 2 ? ((const uint16_t *)data)[i]
                                     : ((const uint32_t *)data)[i];
            size_t before = used;
            used = put_utf8(dst, used, cap, c);
            if (used == before)
                break;
        }
    }
    dst[used] = '\0';
}

int sg_python_symbolize(const struct sg_pyframe *f, struct sg_pysym *out)
{
    snprintf(out->function, sizeof out->function, "?");
    snprintf(out->file, sizeof out->file, "?");
    out->line = 0;
    if (atomic_load_explicit(&py_state, memory_order_acquire) != PY_READY || !f ||
        !is_code(f->code))
        return -1;
    uintptr_t code = f->code;
    copy_str(load_ptr(code + L.co_name), out->function, sizeof out->function);
    copy_str(load_ptr(code + L.co_filename), out->file, sizeof out->file);
    /* The instructions' size in bytes, to keep PyCode_Addr2Line in range. */
    intptr_t nbytes;
    if (L.family <= FAM_310) {
        uintptr_t bytes = load_ptr(code + L.co_code);
        nbytes = ok_ptr(bytes) ? *(const intptr_t *)(bytes + OFF_OB_SIZE) : 0;
    } else {
        nbytes = 2 * *(const intptr_t *)(code + OFF_OB_SIZE); /* _PyCode_NBYTES */
    }
    int lasti = f->lasti >= 0 && f->lasti < nbytes ? f->lasti : -1;
    /* A line table read: no allocation, no lock (-1: the first line). */
    out->line = addr2line((void *)code, lasti);
    if (out->line < 0)
        out->line = 0;
    return 0;
}

/* On 3.13 the interpreter describes its own layout (_PyRuntime starts with
 * _Py_DebugOffsets, Include/internal/pycore_runtime.h): check that it
 * agrees with ours, and that it is not a free-threaded build. */
static int debug_offsets_agree(void *runtime, const struct layout *l)
{
    if (!runtime)
        return 0;
    const char *rt = runtime;
    if (memcmp(rt, "xdebugpy", 8) != 0)
        return 0;
    uint64_t v[64];
    memcpy(v, rt, sizeof v);
    /* uint64 indices: cookie 0, version 1, free_threaded 2, runtime_state
     * 3-5, interpreter_state 6-18, thread_state 19-27 (current_frame 23),
     * interpreter_frame 28-33 (previous 29, executable 30, instr_ptr 31,
     * owner 33), code_object 34-43 (filename 35, name 36, qualname 37,
     * co_code_adaptive 43), pyobject 44-45 (ob_type 45), type_object 46-49,
     * tuple 50-52, list 53-55, dict 56-58, float 59-60, long 61-63. */
    return (v[1] >> 16) == 0x030d && v[2] == 0 && v[23] == l->ts_frame && v[29] == l->fr_back &&
           v[30] == l->fr_code && v[31] == l->fr_instr && v[33] == l->fr_owner &&
           v[35] == l->co_filename && v[37] == l->co_name && v[43] == l->co_code_adaptive &&
           v[45] == OFF_OB_TYPE;
}

static int adds_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
        *(unsigned long long *)data = info->dlpi_adds;
    return 1; /* the first object is enough */
}

/* Finds the interpreter's version and the symbols capture needs. */
static int probe(void)
{
    int major = 0, minor = 0;
    const unsigned long *hex = sg_real_dlsym(RTLD_DEFAULT, "Py_Version"); /* 3.11+ */
    if (hex) {
        major = (int)(*hex >> 24 & 0xff), minor = (int)(*hex >> 16 & 0xff);
    } else {
        const char *(*get_version)(void) =
            (const char *(*)(void))sg_real_dlsym(RTLD_DEFAULT, "Py_GetVersion");
        if (!get_version)
            return PY_ABSENT;
        /* "3.10.13 (main, ...": static text, needs no initialized runtime */
        if (sscanf(get_version(), "%d.%d", &major, &minor) != 2)
            return PY_UNSUPPORTED;
    }
    const struct layout *l = NULL;
    for (size_t i = 0; i < SG_ARRAY_SIZE(layouts); i++)
        if (major == 3 && layouts[i].minor == minor)
            l = &layouts[i];
    if (!l)
        return PY_UNSUPPORTED;
    void *tstate_fn = sg_real_dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    void *init_fn = sg_real_dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    void *line_fn = sg_real_dlsym(RTLD_DEFAULT, "PyCode_Addr2Line");
    uintptr_t ct = (uintptr_t)sg_real_dlsym(RTLD_DEFAULT, "PyCode_Type");
    uintptr_t ut = (uintptr_t)sg_real_dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    uintptr_t tt = (uintptr_t)sg_real_dlsym(RTLD_DEFAULT, "PyType_Type");
    if (!tstate_fn || !init_fn || !line_fn || !ct || !ut || !tt)
        return PY_UNSUPPORTED;
    /* Static types are born with ob_type = &PyType_Type: if it is not at
     * offset 8, the object header is not the one assumed (a trace-refs or
     * free-threaded build). */
    if (load_ptr(ct + OFF_OB_TYPE) != tt || load_ptr(ut + OFF_OB_TYPE) != tt)
        return PY_UNSUPPORTED;
    if (l->family == FAM_313 && !debug_offsets_agree(sg_real_dlsym(RTLD_DEFAULT, "_PyRuntime"), l))
        return PY_UNSUPPORTED;
    L = *l;
    code_type = ct, unicode_type = ut;
    get_tstate = (void *(*)(void))tstate_fn;
    is_initialized = (int (*)(void))init_fn;
    addr2line = (int (*)(void *, int))line_fn;
    return PY_READY;
}

void sg_python_init(void)
{
    int st = atomic_load(&py_state);
    if (st == PY_READY || st == PY_UNSUPPORTED)
        return;
    /* Probe again only when objects were loaded since the last probe. */
    unsigned long long adds = 0;
    dl_iterate_phdr(adds_cb, &adds);
    if (st == PY_ABSENT && adds == __atomic_load_n(&probed_adds, __ATOMIC_RELAXED))
        return;
    if (atomic_flag_test_and_set(&probing))
        return; /* another thread is at it */
    __atomic_store_n(&probed_adds, adds, __ATOMIC_RELAXED);
    st = probe();
    atomic_store_explicit(&py_state, st, memory_order_release);
    atomic_flag_clear(&probing);
    if (st == PY_UNSUPPORTED)
        SG_VLOG(1, "this Python's layout is not one syncguard knows (3.9 to 3.13, default "
                   "builds): reports show no Python frames\n");
}
