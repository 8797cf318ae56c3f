#!/usr/bin/env python3
"""nextup's benchmark: the perception budgets of issue 30, each printed beside
its figure with PASS or MISS (docs/benchmarks.md says what each one means).

    python3 bench/run.py                      # what `make bench` runs
    python3 bench/run.py --sizes 10000 --runs 3
    python3 bench/run.py --smoke --bin .build/debug/nextup   # `make bench-smoke`

Each size gets a deterministic data set (bench/harness/dataset.py), imported
into empty throw-away stores under --work; the command line is measured at
every size, beside Taskwarrior 2.6 at 10,000 tasks (runs taken in turn); the
first sync and the TUI at the largest size. A MISS does not fail the run; a
harness that cannot do its job (a command that errors or prints something
unexpected) exits 1.
"""

import argparse
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import cli, dataset, report, sync, taskwarrior, tui  # noqa: E402
from harness.context import Context  # noqa: E402
from harness.results import fmt_n  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=os.path.join(REPO, ".build/release/nextup"), help="the nextup binary to measure")
    p.add_argument("--sizes", default="10000,100000", help="comma-separated task counts")
    p.add_argument("--series", type=int, default=0, help="recurring series (and as many deferred tasks) in each data set")
    p.add_argument("--runs", type=int, default=7, help="timed runs of each command")
    p.add_argument("--heavy-runs", type=int, default=3, help="timed runs of whole-set commands at 100,000")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs before the timed ones")
    p.add_argument("--cap", type=float, default=60.0, help="seconds one command may take before it is killed")
    p.add_argument("--keys", type=int, default=30, help="key presses timed in the TUI")
    p.add_argument("--changes", type=int, default=20, help="changes timed on screen, per kind")
    p.add_argument("--no-taskwarrior", action="store_true", help="skip the comparison with Taskwarrior")
    p.add_argument("--work", default=os.path.join(REPO, "bench-out"), help="scratch folder (stores, data)")
    p.add_argument("--out", default=os.path.join(REPO, "docs/benchmarks.md"), help="where the table goes")
    p.add_argument("--smoke", action="store_true",
                   help="a tiny pass that proves the harness works: 50 tasks, 1 run, no warm-up, no Taskwarrior")
    a = p.parse_args(argv)
    if a.smoke:
        a.sizes, a.runs, a.heavy_runs, a.warmup, a.no_taskwarrior = "50", 1, 1, 0, True
        a.keys, a.changes = 2, 2
        a.series = a.series or 5
        if a.out == p.get_default("out"):
            a.out = os.path.join(a.work, "smoke.md")
    a.sizes = sorted(int(s) for s in a.sizes.split(",") if s.strip())
    return a


def main(argv):
    args = parse(argv)
    started = time.time()
    log = lambda *x: print(*x, flush=True)
    # The smoke pass (inside `make test`) prints only its final table.
    show = (lambda rows, pairs, log: None) if args.smoke else report.print_tables
    if not os.access(args.bin, os.X_OK):
        log("bench: no nextup binary at %s (build it first)" % args.bin)
        return 2
    work = os.path.join(args.work, "smoke") if args.smoke else args.work
    ctx = Context(args.bin, work, args.runs, args.heavy_runs, args.warmup, args.cap)
    machine = report.machine()
    log("bench: %s, %s CPUs, %s, load %s" % (args.bin, machine["nproc"], machine["cpu"], machine["load"]))

    tw, tw_version = None, "not measured (--no-taskwarrior)"
    if taskwarrior.RATIO_AT not in args.sizes:
        tw_version = "not measured (no run at %s tasks)" % fmt_n(taskwarrior.RATIO_AT)
    elif not args.no_taskwarrior:
        path, detail = taskwarrior.ensure_installed(log)
        if path:
            tw, tw_version = taskwarrior.Taskwarrior(ctx, path), detail
        else:
            tw_version = "not measured: " + detail

    rows, pairs, problems = [], [], []
    for n in args.sizes:
        log("\n-- %s tasks --" % fmt_n(n))
        tasks = dataset.generate(n, series=args.series)
        plan = dataset.summary(tasks)
        data = ctx.path("tasks-%d.json" % n)
        dataset.write(data, tasks)
        if args.smoke and json.load(open(data, encoding="utf-8")) != dataset.generate(n, series=args.series):
            raise SystemExit("bench: the data set is not deterministic")
        tw_data = None
        if tw and n == taskwarrior.RATIO_AT:
            tw_data = ctx.path("taskwarrior-%d.json" % n)
            dataset.write(tw_data, dataset.to_taskwarrior(tasks))
        log("data: %d tasks, %d open, %d done, %d deleted, %d in Next Up" %
            (plan["total"], plan["open"], plan["done"], plan["deleted"], plan["next_up"]))
        try:
            section, section_pairs, store = cli.run(ctx, n, data, plan, tw, tw_data)
        except cli.HarnessCheckFailed as e:
            problems.append(str(e))
            log("bench: " + str(e))
            continue
        rows += section
        pairs += section_pairs
        show(section, section_pairs, log)

        if n == args.sizes[-1]:
            section, replica = sync.run(ctx, n, store, plan)
            rows += section
            show(section, [], log)
            section = tui.run(ctx, n, store, plan, keys=args.keys, changes=args.changes, replica=replica)
            rows += section
            show(section, [], log)
        if not args.smoke:
            for part in ("stores", "sync", "taskwarrior", "tui-sync"):
                shutil.rmtree(ctx.path(part, str(n)), ignore_errors=True)
            shutil.rmtree(ctx.path("tui-sync"), ignore_errors=True)

    elapsed = time.time() - started
    info = {"date": report.now_utc(), "machine": machine, "binary": os.path.relpath(args.bin, REPO),
            "commit": report.git_commit(REPO), "taskwarrior": tw_version, "runs": args.runs,
            "warmup": args.warmup, "heavy_runs": args.heavy_runs,
            "elapsed": "%d min %d s" % divmod(int(elapsed), 60)}
    log("\n==== all results ====")
    report.print_tables(rows, pairs, log)
    report.write_markdown(args.out, rows, pairs, info)
    log("\nwrote %s (%s)" % (os.path.relpath(args.out, os.getcwd()), info["elapsed"]))
    for r in rows:
        if r.error:
            problems.append("%s, %s tasks, %s: %s" % (r.section, fmt_n(r.n), r.name, r.error))
    for p in pairs:
        if p.error:
            problems.append("Taskwarrior, %s: %s" % (p.theirs, p.error))
    passed, missed = report.verdicts(rows, pairs)
    log("%d PASS, %d MISS (a MISS does not fail the run)" % (passed, missed))
    if problems:
        log("bench: the harness could not measure everything:")
        for p in problems:
            log("  " + p)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
