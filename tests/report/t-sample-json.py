#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sampled mode in the JSON summary: with sample=N the summary line has
a "sampling" member (sample, sample_first, guarded_beyond_table, and per
enqueue site its id, where, guarded, sampled_out), which agrees with the
stats' copies_sampled_out and with the copies guarded; without sample it
has none. drv/d2h_sample_sites_race: site A 3 guarded and 6 sampled out,
site B 2 and 3. drv/d2h_sample_site_runtime: a site whose innermost frame
is in a library named like the CUDA runtime is named by main's line, as
in the text summary."""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402


def summary_of(prog, d, options, status=66):
    r = t.run([prog], options + ":json_path=" + os.path.join(d, "sg.json"))
    t.expect(r.status == status, "%s: exit status %d, expected %d\n%s" % (
        prog, r.status, status, r.err))
    pid = int(re.search(r"^==(\d+)==", r.err, re.M).group(1))
    with open(os.path.join(d, "sg.json.%d" % pid)) as f:
        objs = [json.loads(line) for line in f]
    summaries = [o for o in objs if o["type"] == "summary"]
    t.expect(len(summaries) == 1, "not one summary line: %r" % objs)
    return summaries[0]


def main():
    sites_prog = t.drv("d2h_sample_sites_race")
    plain_prog = t.drv("d2h_async_read_race")
    runtime_prog = t.drv("d2h_sample_site_runtime")
    with t.tmpdir() as d:
        s = summary_of(sites_prog, d, "sample=3:sample_first=1")
        sm = s.get("sampling")
        t.expect(isinstance(sm, dict), "no sampling member: %r" % s)
        t.expect(sm["sample"] == 3 and sm["sample_first"] == 1, "options: %r" % sm)
        t.expect(sm["guarded_beyond_table"] == 0, "guarded beyond the table: %r" % sm)
        sites = sm["sites"]
        t.expect([(x["guarded"], x["sampled_out"]) for x in sites] == [(3, 6), (2, 3)],
                 "per-site counts, in the order the sites appeared: %r" % sites)
        for x in sites:
            t.expect(re.match(r"^d2h_sample_sites_race\.c:\d+ in main$", x["where"]),
                     "where: %r" % x["where"])
            t.expect(re.match(r"^[0-9a-f]{16}$", x["site"]), "site id: %r" % x["site"])
        t.expect(sites[0]["where"] != sites[1]["where"] and sites[0]["site"] != sites[1]["site"],
                 "two sites, told apart: %r" % sites)
        t.expect(s["stats"]["copies_sampled_out"] == 9, "stats: %r" % s["stats"])
        t.expect(s["copies_guarded"] == 5, "copies_guarded: %r" % s["copies_guarded"])

        s = summary_of(runtime_prog, d, "sample=2:sample_first=1:verbosity=1", 0)
        sites = s["sampling"]["sites"]
        t.expect(len(sites) == 1 and (sites[0]["guarded"], sites[0]["sampled_out"]) == (2, 1),
                 "the runtime program's site: %r" % sites)
        t.expect(re.match(r"^d2h_sample_site_runtime\.c:\d+ in main$", sites[0]["where"]),
                 "a site through libcudart_sgtest named by main's line: %r" % sites[0]["where"])

        s = summary_of(plain_prog, d, "verbosity=0")
        t.expect("sampling" not in s, "a sampling member without sample: %r" % s)
        t.expect(s["stats"]["copies_sampled_out"] == 0, "stats: %r" % s["stats"])
    t.passed("per-site guarded and sampled-out counts and places in the JSON summary")


main()
