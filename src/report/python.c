/* Placeholder until the CPython frame walker lands: no Python frames. */
#include "config.h"

#include "syncguard/python.h"

void sg_python_init(void)
{
}

int sg_python_capture(struct sg_pyframe *out, int max)
{
    (void)out, (void)max;
    return 0;
}

int sg_python_symbolize(const struct sg_pyframe *f, struct sg_pysym *out)
{
    (void)f, (void)out;
    return -1;
}
