"""The command line: import, count, next, list --json, export, add, edit, done;
and the floor `count` and `next` are judged against: the `sqlite3` shell
running `count`'s query on the same store."""

import json
import os
import shutil

from .results import Row

SECTION = "command line"

# `count`'s query, as TaskStore.openCount runs it (ListSQL.open).
OPEN_COUNT_SQL = "SELECT count(*) FROM task WHERE deleted = 0 AND completed_at IS NULL"
FLOOR = "floor: sqlite3 shell, count's query"
FLOOR_FACTOR = 2.0


class HarnessCheckFailed(Exception):
    """The data set did not load as generated: the harness (or nextup) is broken."""


def targets_for(n):
    """Targets at 100,000 tasks: issue 5's, with issue 14's for the whole-set
    commands (import ≤ 1.5 s, export, list --json and list ≤ 0.4 s)."""
    if n < 100_000:
        return {}
    return {"import": 1.5, "count": 0.030, "add": 0.040, "next": 0.050,
            "edit": 0.040, "done": 0.040, "list --json": 0.4, "export": 0.4, "list": 0.4}


def run(ctx, n, data_path, plan):
    """Measures every command at size n. Returns (rows, main store folder)."""
    t = targets_for(n)
    rows = []
    base = ctx.path("stores", str(n))
    main = os.path.join(base, "main")
    out = ctx.path("out-%d.json" % n)

    # import of the whole set into an empty store; the last one is kept.
    runs = ctx.runs_for(n, heavy=True)
    stores = []

    def import_argv(i):
        store = ctx.fresh_dir("stores", str(n), "import-%d" % i)
        stores.append(store)
        return ctx.nextup("import", data_path, "--store", store)

    row = Row(SECTION, n, "import (whole set, empty store)", t.get("import"))
    rows.append(row.measured(ctx.series(import_argv, runs, stdout=out)))
    if not row.stats:
        raise HarnessCheckFailed("nextup import failed at %d tasks: %s" % (n, row.error))
    with open(out, encoding="utf-8") as f:
        said = f.read().strip()
    if not said.startswith("imported %d tasks: %d new" % (n, n)):
        raise HarnessCheckFailed("import of %d tasks said: %r" % (n, said))
    shutil.rmtree(main, ignore_errors=True)
    os.rename(stores[-1], main)
    for s in stores[:-1]:
        shutil.rmtree(s, ignore_errors=True)
    rows.append(store_size_row(n, main))

    row = Row(SECTION, n, "import again (nothing changes)").measured(
        ctx.series(lambda i: ctx.nextup("import", data_path, "--store", main), runs, stdout=out))
    rows.append(row)
    check_output(row, out, lambda s: "0 new, 0 updated, 0 kept (newer here), %d unchanged" % n in s, "re-import of %d tasks" % n)

    light = ctx.runs_for(n, heavy=False)
    rows += count_and_next(ctx, n, main, plan["open"], t, light, out)

    rows.append(Row(SECTION, n, "list --json", t.get("list --json")).measured(
        ctx.series(lambda i: ctx.nextup("list", "--json", "--store", main), runs, stdout=out)))
    check_json_count(rows[-1], out, plan["open"], "list --json")

    rows.append(Row(SECTION, n, "list", t.get("list")).measured(
        ctx.series(lambda i: ctx.nextup("list", "--store", main), runs, stdout=out)))

    rows.append(Row(SECTION, n, "export", t.get("export")).measured(
        ctx.series(lambda i: ctx.nextup("export", "--store", main), runs, stdout=out)))
    check_json_count(rows[-1], out, n, "export")

    rows.append(Row(SECTION, n, "add", t.get("add")).measured(
        ctx.series(lambda i: ctx.nextup("add", "Bench task %d ☕" % i, "--urgency", "urgent", "--importance", "2",
                                        "--duration", "30m", "--category", "Admin", "--store", main), light)))

    edited = plan["free_ids"][0]
    rows.append(Row(SECTION, n, "edit", t.get("edit")).measured(
        ctx.series(lambda i: ctx.nextup("edit", edited, "--title", "Bench edit %d" % i, "--store", main),
                   light, stdout=out)))
    check_output(rows[-1], out, lambda s: s.startswith("changed"), "edit")

    done_ids = plan["free_ids"][1:]
    rows.append(Row(SECTION, n, "done", t.get("done")).measured(
        ctx.series(lambda i: ctx.nextup("done", done_ids[i], "--store", main), light, stdout=out)))
    check_output(rows[-1], out, lambda s: s.startswith("done:"), "done")
    return rows, main


# Issue 14: half the ~1.45 KB per task the store took before schema v5.
STORE_BYTES_PER_TASK = 1450 / 2


def store_size_row(n, store):
    """The store's files (database, WAL) right after the import, per task."""
    total = sum(os.path.getsize(os.path.join(store, f)) for f in os.listdir(store) if f.startswith("nextup.sqlite"))
    # A small store is mostly its fixed pages: judged from 10,000 tasks on.
    row = Row(SECTION, n, "store size per task (after the import)", STORE_BYTES_PER_TASK if n >= 10_000 else None, unit="B",
              note="%.1f MB for %s tasks, outbox not yet uploaded" % (total / 1e6, "{:,}".format(n)))
    row.value = total / n
    return row.judge(row.value)


def run_empty(ctx):
    """`count`, `next` and `add` on an empty store, beside the floor: what
    start-up alone costs (argument parsing, loading, opening the store)."""
    store = ctx.fresh_dir("stores", "0", "main")
    out = ctx.path("out-0.json")
    made = ctx.launcher.run(ctx.nextup("count", "--store", store), env=ctx.env, stdout=out, timeout=ctx.cap)
    if not made.ok:
        raise HarnessCheckFailed("nextup count on a new store failed: %s" % made.stderr)
    light = ctx.runs_for(0, heavy=False)
    rows = count_and_next(ctx, 0, store, 0, targets_for(0), light, out)
    check_output(rows[-1], out, lambda s: s.strip() == "Next Up is empty", "next on an empty store")
    # Each timed add adds a task: the last add runs on a store of a few tasks.
    rows.append(Row(SECTION, 0, "add").measured(
        ctx.series(lambda i: ctx.nextup("add", "Bench task %d" % i, "--store", store), light)))
    shutil.rmtree(store, ignore_errors=True)
    return rows


def count_and_next(ctx, n, store, open_tasks, targets, runs, out):
    """The floor row, then `count` and `next`, each judged against
    FLOOR_FACTOR × the floor's median (and the size's own target, if
    tighter). The three run in turn (floor, count, next, floor, …), so that
    other work on the machine weighs on the floor as much as on what it
    judges. Without `sqlite3` the floor row says so and nothing is judged
    against it. `next` prints into `out`."""
    sqlite3 = shutil.which("sqlite3")
    commands = []  # (row name, argv, stdout)
    if sqlite3:
        database = os.path.join(store, "nextup.sqlite")
        commands.append((FLOOR, [sqlite3, database, OPEN_COUNT_SQL], out + ".floor"))
    commands.append(("count", ctx.nextup("count", "--store", store), out + ".count"))
    commands.append(("next", ctx.nextup("next", "--store", store), out))
    samples = {name: [] for name, _, _ in commands}
    failed = {}
    for i in range(ctx.warmup + runs):
        for name, argv, stdout in commands:
            if name in failed:
                continue
            sample = ctx.launcher.run(argv, env=ctx.env, stdout=stdout, timeout=ctx.cap)
            if not sample.ok:
                failed[name] = sample
            elif i >= ctx.warmup:
                samples[name].append(sample)

    def series(name):
        return [failed[name]] if name in failed else samples[name]

    floor = Row(SECTION, n, FLOOR)
    if sqlite3:
        floor.measured(series(FLOOR))
        check_output(floor, out + ".floor", lambda s: s.strip() == str(open_tasks),
                     "sqlite3 count (want %d open)" % open_tasks)
    else:
        floor.status = "skipped"
        floor.error = "no sqlite3 on PATH: count and next not judged against the floor"
    bound = FLOOR_FACTOR * floor.stats.median if floor.stats else None

    def target(name):
        own = targets.get(name)
        if bound is None:
            return own
        return bound if own is None else min(own, bound)

    rows = [floor]
    rows.append(Row(SECTION, n, "count", target("count")).measured(series("count")))
    check_output(rows[-1], out + ".count", lambda s: s.strip() == str(open_tasks), "count (want %d open)" % open_tasks)
    rows.append(Row(SECTION, n, "next", target("next")).measured(series("next")))
    if bound is not None:
        for row in rows[1:]:
            which = ("%g× the floor" % FLOOR_FACTOR) if row.target == bound else "its own, tighter than the floor's"
            row.note = "target: %s, runs taken in turn with the floor" % which + (
                " (%d runs)" % len(row.stats.samples) if row.stats else "")
    return rows


def check_output(row, path, good, what):
    if not row.stats:
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if not good(text):
        raise HarnessCheckFailed("%s printed something unexpected: %r" % (what, text[:200]))


def check_json_count(row, path, want, what):
    if not row.stats:
        return
    with open(path, encoding="utf-8") as f:
        got = len(json.load(f))
    if got != want:
        raise HarnessCheckFailed("%s gave %d tasks, want %d" % (what, got, want))
