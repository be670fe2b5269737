/* SPDX-License-Identifier: Apache-2.0 */
/* The names of race kinds and classes, from race_kinds.def. */
#include "config.h"

#include "report/report.h"

static const enum sg_race_class class_of[] = {
#define SG_RACE_CLASS(id, name, access, ACCESS)
#define SG_RACE_KIND(id, class) [SG_RACE_##id] = SG_CLASS_##class,
#include "report/race_kinds.def"
#undef SG_RACE_CLASS
#undef SG_RACE_KIND
};

static const struct {
    const char *name, *access, *upper;
} classes[SG_NCLASSES] = {
#define SG_RACE_CLASS(id, name, access, ACCESS) [SG_CLASS_##id] = { name, access, ACCESS },
#define SG_RACE_KIND(id, class)
#include "report/race_kinds.def"
#undef SG_RACE_CLASS
#undef SG_RACE_KIND
};

enum sg_race_class sg_race_class_of(enum sg_race_kind kind)
{
    return class_of[kind];
}

const char *sg_race_class_name(enum sg_race_class c)
{
    return classes[c].name;
}

const char *sg_race_class_access(enum sg_race_class c, int upper)
{
    return upper ? classes[c].upper : classes[c].access;
}

const char *sg_race_kind_name(enum sg_race_kind kind)
{
    return sg_race_class_name(sg_race_class_of(kind));
}
