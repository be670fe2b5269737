/* SPDX-License-Identifier: Apache-2.0 */
/* Symbolization with libdw (elfutils): module and offset from the process's
 * mappings, the function from the symbol table (static functions too), and
 * file:line from DWARF where the module has it, with one frame for each
 * function inlined at the pc (an optimized build's inline wrappers, such
 * as glibc's fortified read(), would otherwise hide the caller's line).
 * Only the reporter thread calls it; the Dwfl session is built on first
 * use and refreshed when a pc falls outside every module it knows (a
 * library loaded since). */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/symbolize.h"

static Dwfl *dwfl;

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static int report_modules(void)
{
    if (!dwfl) {
        dwfl = dwfl_begin(&callbacks);
        if (!dwfl)
            return -1;
    }
    dwfl_report_begin(dwfl);
    int rc = dwfl_linux_proc_report(dwfl, getpid());
    dwfl_report_end(dwfl, NULL, NULL);
    return rc == 0 ? 0 : -1;
}

static Dwfl_Module *module_of(Dwarf_Addr pc)
{
    if (!dwfl && report_modules() < 0)
        return NULL;
    Dwfl_Module *m = dwfl_addrmodule(dwfl, pc);
    if (!m && report_modules() == 0)
        m = dwfl_addrmodule(dwfl, pc);
    return m;
}

static void copy_str(char *dst, size_t len, const char *src)
{
    if (!src)
        src = "";
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

const char *sg_base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

/* Module, offset, the symbol table's function and the line at pc; 0 when
 * at least the module is known. */
static int symbolize(uintptr_t pc, int is_exact, struct sg_symbol *out)
{
    memset(out, 0, sizeof *out);
    Dwarf_Addr lookup = is_exact ? pc : pc - 1;
    Dwfl_Module *m = module_of(lookup);
    if (!m)
        return -1;
    Dwarf_Addr base = 0;
    const char *mainfile = NULL;
    const char *name = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, &mainfile, NULL);
    copy_str(out->module, sizeof out->module, sg_base_name(mainfile ? mainfile : name));
    out->module_offset = pc - base;
    copy_str(out->function, sizeof out->function, dwfl_module_addrname(m, lookup));
    Dwfl_Line *line = dwfl_module_getsrc(m, lookup);
    if (line) {
        int lineno = 0;
        const char *file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
        copy_str(out->file, sizeof out->file, file);
        out->line = lineno;
    }
    return 0;
}

/* The name of an inlined subroutine lives on its abstract origin. */
static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;
    return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

static Dwarf_Word die_number(Dwarf_Die *die, int name)
{
    Dwarf_Attribute a;
    Dwarf_Word v = 0;
    if (dwarf_formudata(dwarf_attr(die, name, &a), &v) != 0)
        return 0;
    return v;
}

/* Where the inlined subroutine die was called: its DW_AT_call_file (an
 * index into its unit's file table) and DW_AT_call_line. */
static void call_site(Dwarf_Die *die, struct sg_symbol *out)
{
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t nfiles;
    out->file[0] = '\0', out->line = 0;
    Dwarf_Word idx = die_number(die, DW_AT_call_file);
    if (dwarf_diecu(die, &cu, NULL, NULL) && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 &&
        idx < nfiles)
        copy_str(out->file, sizeof out->file, dwarf_filesrc(files, idx, NULL, NULL));
    out->line = (int)die_number(die, DW_AT_call_line);
}

int sg_symbolize_inlined(uintptr_t pc, int is_exact, struct sg_symbol *out, int max)
{
    if (max < 1 || symbolize(pc, is_exact, &out[0]) < 0)
        return 0;
    Dwarf_Addr lookup = is_exact ? pc : pc - 1, bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(module_of(lookup), lookup, &bias);
    Dwarf_Die *scopes = NULL;
    int nscopes = cu ? dwarf_getscopes(cu, lookup - bias, &scopes) : 0;
    char outer[sizeof out[0].function];
    memcpy(outer, out[0].function, sizeof outer);
    /* scopes[] runs from the innermost out: each inlined subroutine names
     * the frame so far and starts the next one at its call site. */
    int n = 1;
    for (int i = 0; i < nscopes && n < max; i++) {
        if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
            continue;
        copy_str(out[n - 1].function, sizeof out[n - 1].function, die_name(&scopes[i]));
        out[n] = out[n - 1];
        call_site(&scopes[i], &out[n]);
        memcpy(out[n].function, outer, sizeof outer);
        n++;
    }
    free(scopes);
    return n;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A cross compiler's headers (Debian's: /usr/aarch64-linux-gnu/include/):
 * a target triplet's folder right under /usr. */
static int in_cross_headers(const char *file)
{
    if (!starts_with(file, "/usr/"))
        return 0;
    const char *dir = file + 5, *slash = strchr(dir, '/');
    if (!slash || !memmem(dir, (size_t)(slash - dir), "-linux-", 7))
        return 0;
    return starts_with(slash, "/include/");
}

int sg_symbol_in_system_header(const struct sg_symbol *s)
{
    return starts_with(s->file, "/usr/include/") || starts_with(s->file, "/usr/lib/gcc/") ||
           starts_with(s->file, "/usr/lib/gcc-cross/") || in_cross_headers(s->file);
}

/* The GPU libraries, by the start of their file names (syncguard(7) lists
 * them, under sample). CuPy's and Numba's modules are named after their
 * Python modules, so not matched: their copies are enqueued from Python,
 * and a site with a Python frame is named by that frame. */
static const char *const gpu_libraries[] = {
    "libcuda",                                    /* the driver, libcudart */
    "libcublas", "libcudnn", "libcufft", "libcurand", "libcusolver", "libcusparse",
    "libnccl",                                    /* NCCL */
    "libtorch", "libc10",                         /* PyTorch: libtorch_cuda, libc10_cuda... */
    "xla_",                                       /* JAX: xla_extension, xla_cuda_plugin */
};

int sg_symbol_in_gpu_library(const struct sg_symbol *s)
{
    for (size_t i = 0; i < sizeof gpu_libraries / sizeof gpu_libraries[0]; i++)
        if (starts_with(s->module, gpu_libraries[i]))
            return 1;
    return 0;
}
