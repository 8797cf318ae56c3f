#!/usr/bin/env python3
"""nextup's benchmark (issue 5): speed and memory at 1k, 10k and 100k tasks,
side by side with Taskwarrior 2.6.

    python3 bench/run.py                      # what `make bench` runs
    python3 bench/run.py --smoke --bin .build/debug/nextup   # `make bench-smoke`

First, `count`, `next` and `add` on an empty store (start-up alone). Each
size gets a deterministic data set (bench/harness/dataset.py), loaded
with `nextup import` into throw-away stores under --work. Every measurement
runs --warmup untimed times, then --runs timed times; the table shows median,
min, max, peak RSS, the target and PASS/MISS. A MISS does not fail the run;
a harness that cannot do its job (a command that errors, a data set that does
not load as generated) exits 1. Sections whose feature has not landed yet
(sync, TUI) say "not available yet" and why.
"""

import argparse
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import bridge, cli, dataset, report, sync, taskwarrior, tui  # noqa: E402
from harness.context import Context  # noqa: E402
from harness.results import fmt_n  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=os.path.join(REPO, ".build/release/nextup"), help="the nextup binary to measure")
    p.add_argument("--sizes", default="1000,10000,100000", help="comma-separated task counts")
    p.add_argument("--runs", type=int, default=7, help="timed runs of each command")
    p.add_argument("--heavy-runs", type=int, default=3, help="timed runs of whole-set commands at 100,000")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs before the timed ones")
    p.add_argument("--cap", type=float, default=60.0, help="seconds one command may take before it is killed")
    p.add_argument("--keys", type=int, default=30, help="key presses timed in the TUI")
    p.add_argument("--changes", type=int, default=20, help="changes timed for live propagation")
    p.add_argument("--starts", type=int, default=20,
                   help="TUI starts timed for the first peer change after start")
    p.add_argument("--no-taskwarrior", action="store_true", help="skip the Taskwarrior comparison")
    p.add_argument("--work", default=os.path.join(REPO, "bench-out"), help="scratch folder (deleted stores, data)")
    p.add_argument("--out", default=os.path.join(REPO, "docs/benchmarks.md"), help="where the results go")
    p.add_argument("--smoke", action="store_true",
                   help="tiny pass that proves the harness works: 50 tasks, 1 run, no warm-up, no Taskwarrior")
    a = p.parse_args(argv)
    if a.smoke:
        a.sizes, a.runs, a.heavy_runs, a.warmup, a.no_taskwarrior = "50", 1, 1, 0, True
        a.keys, a.changes, a.starts = 2, 2, 2
        if a.out == p.get_default("out"):
            a.out = os.path.join(a.work, "smoke.md")
    a.sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    return a


def main(argv):
    args = parse(argv)
    started = time.time()
    log = lambda *x: print(*x, flush=True)
    # The smoke pass (inside `make test`) prints only its final table.
    show = (lambda rows, log: None) if args.smoke else report.print_tables
    if not os.access(args.bin, os.X_OK):
        log("bench: no nextup binary at %s (build it first)" % args.bin)
        return 2
    work = os.path.join(args.work, "smoke") if args.smoke else args.work
    ctx = Context(args.bin, work, args.runs, args.heavy_runs, args.warmup, args.cap, smoke=args.smoke, log=log)
    machine = report.machine()
    log("bench: %s, %s CPUs, %s, load %s" % (args.bin, machine["nproc"], machine["cpu"], machine["load"]))

    tw, tw_version = None, "not measured (--no-taskwarrior)"
    if not args.no_taskwarrior:
        path, detail = taskwarrior.ensure_installed(log)
        if path:
            tw, tw_version = taskwarrior.Taskwarrior(ctx, path), detail
        else:
            tw_version = "not measured: " + detail

    rows = []
    problems = []
    log("\n-- an empty store --")
    try:
        section = cli.run_empty(ctx)
        rows += section
        show(section, log)
    except cli.HarnessCheckFailed as e:
        problems.append(str(e))
        log("bench: " + str(e))
    for n in args.sizes:
        log("\n-- %s tasks --" % fmt_n(n))
        tasks = dataset.generate(n)
        plan = dataset.summary(tasks)
        data = ctx.path("tasks-%d.json" % n)
        dataset.write(data, tasks)
        if args.smoke and json.load(open(data, encoding="utf-8")) != dataset.generate(n):
            raise SystemExit("bench: the data set is not deterministic")
        log("data: %d tasks, %d open, %d done, %d deleted, %d in Next Up" %
            (plan["total"], plan["open"], plan["done"], plan["deleted"], plan["next_up"]))
        try:
            section, store = cli.run(ctx, n, data, plan)
        except cli.HarnessCheckFailed as e:
            problems.append(str(e))
            log("bench: " + str(e))
            continue
        rows += section
        show(section, log)

        if tw:
            tw_data = ctx.path("taskwarrior-%d.json" % n)
            dataset.write(tw_data, dataset.to_taskwarrior(tasks))
            section, why = tw.run(n, tw_data, plan, store=store, data_path=data)
            rows += section
            show(section, log)
            if why:
                log("taskwarrior: " + why)

        section = sync.run(ctx, n, store, plan)
        rows += section
        show(section, log)
        replica_section = section

        section = bridge.run(ctx, n, store, plan)
        rows += section
        show(section, log)
        section = replica_section
        replica = sync_replicas(ctx, n, section)

        section = tui.run(ctx, n, store, plan, keys=args.keys, changes=args.changes, replica=replica,
                          starts=args.starts)
        rows += section
        show(section, log)

        if isinstance(replica, tuple):
            compaction = [sync.run_compaction(ctx, n, tasks, replica[0], replica[2])]
            rows += compaction
            show(compaction, log)
        if not args.smoke:
            shutil.rmtree(ctx.path("stores", str(n)), ignore_errors=True)
            shutil.rmtree(ctx.path("sync", str(n)), ignore_errors=True)
            shutil.rmtree(ctx.path("taskwarrior", str(n)), ignore_errors=True)

    elapsed = time.time() - started
    info = {"date": report.now_utc(), "machine": machine, "binary": os.path.relpath(args.bin, REPO),
            "commit": report.git_commit(REPO), "taskwarrior": tw_version, "runs": args.runs,
            "warmup": args.warmup, "heavy_runs": args.heavy_runs, "cap": args.cap,
            "elapsed": "%d min %d s" % divmod(int(elapsed), 60), "exact_rss": ctx.launcher.exact_rss}
    log("\n==== all results ====")
    report.print_tables(rows, log)
    report.write_markdown(args.out, rows, info)
    log("\nwrote %s (%s)" % (os.path.relpath(args.out, os.getcwd()), info["elapsed"]))
    errors = [r for r in rows if r.status == "error" and r.section != "Taskwarrior"]
    for r in errors:
        problems.append("%s, %s tasks, %s: %s" % (r.section, fmt_n(r.n), r.name, r.error))
    misses = [r for r in rows if r.status == "MISS"]
    log("%d MISS (a MISS does not fail the run)" % len(misses))
    if problems:
        log("bench: the harness could not measure everything:")
        for p in problems:
            log("  " + p)
        return 1
    return 0


def sync_replicas(ctx, n, section):
    """(A, B, peer) when the sync section left two synced replicas, else why not."""
    base = ctx.path("sync", str(n))
    a, b, peer = (os.path.join(base, x) for x in ("A", "B", "peer"))
    if all(os.path.isdir(p) for p in (a, b, peer)):
        return (a, b, peer)
    reasons = [r.error for r in section if r.error]
    return reasons[0] if reasons else "the sync section left no replicas"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
