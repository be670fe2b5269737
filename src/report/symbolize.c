/* Symbolization with libdw (elfutils): module and offset from the process's
 * mappings, the function from the symbol table (static functions too), and
 * file:line from DWARF where the module has it. Only the reporter thread
 * calls it; the Dwfl session is built on first use and refreshed when a pc
 * falls outside every module it knows (a library loaded since). */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <string.h>
#include <unistd.h>

#include "syncguard/symbolize.h"

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

static const char *basename_of(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

int sg_symbolize(uintptr_t pc, int is_exact, struct sg_symbol *out)
{
    memset(out, 0, sizeof *out);
    Dwarf_Addr lookup = is_exact ? pc : pc - 1;
    Dwfl_Module *m = module_of(lookup);
    if (!m)
        return -1;
    Dwarf_Addr base = 0;
    const char *mainfile = NULL;
    const char *name = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, &mainfile, NULL);
    copy_str(out->module, sizeof out->module, basename_of(mainfile ? mainfile : name));
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
