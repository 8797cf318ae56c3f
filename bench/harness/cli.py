"""The command line at one size: `import` of the whole set into an empty
store, then the budget table's commands on the store it made, in this order:
count, next, show, list, list --json, export, add, edit, done, undo (each
`undo` takes back one of the `done`s before it).

With Taskwarrior (at RATIO_AT tasks), every run of a command is taken in turn
with its Taskwarrior pair (nextup, task, nextup, …), so that other work on
the machine weighs on both sides of the ratio alike.
"""

import json
import os
import shutil

from .measure import Stats
from .results import Row, runs_note
from .taskwarrior import RATIO_AT

SECTION = "command line"
QUICK = ("count", "next", "show", "add", "edit", "done", "done (series)", "undo")


class HarnessCheckFailed(Exception):
    """A command did not do what it was asked: the harness (or nextup) is broken."""


def budgets(n):
    """The issue's budgets at 10,000 and 100,000 tasks (seconds; KiB for RSS)."""
    if n == 10_000:
        return dict(dict.fromkeys(QUICK, 0.020), **{"list": 0.050, "import": 0.5})
    if n == 100_000:
        return dict(dict.fromkeys(QUICK, 0.040), **{"list": 0.400, "list --json": 1.0, "export": 1.0,
                                                      "import": 4.0, "import: peak RSS": 250 * 1024})
    return {}


class Pair:
    """One of nextup's commands and Taskwarrior's, their runs taken in turn."""

    def __init__(self, n, mine, theirs, mine_stats, their_stats, error=None):
        self.n, self.mine, self.theirs = n, mine, theirs
        self.mine_stats, self.their_stats, self.error = mine_stats, their_stats, error


def run(ctx, n, data_path, plan, tw=None, tw_data_path=None):
    """Measures every command at size n. Returns (rows, pairs, main store).
    `tw` (a Taskwarrior) is used at RATIO_AT tasks only."""
    b = budgets(n)
    tw = tw if n == RATIO_AT else None
    rows, pairs = [], []
    out = ctx.path("out-%d.txt" % n)
    main = ctx.path("stores", str(n), "main")
    tw_main = ctx.path("taskwarrior", str(n), "main")
    free = plan["free_ids"]

    def measure(name, argv_for, heavy=False):
        runs = ctx.runs_for(n, heavy)
        theirs = tw.pair(name, n, tw_data_path, tw_main, plan) if tw else None
        mine, their, tw_error = in_turn(ctx, argv_for, runs, out, theirs)
        row = Row(SECTION, n, name, b.get(name)).measured(mine)
        if row.stats:
            row.note = runs_note(row.stats)
        rows.append(row)
        if theirs:
            pairs.append(Pair(n, name, theirs[0], row.stats, Stats(their) if their else None, tw_error))
        return row

    stores = []

    def import_argv(i):
        stores.append(ctx.fresh_dir("stores", str(n), "import-%d" % i))
        return ctx.nextup("import", data_path, "--store", stores[-1])

    row = measure("import", import_argv, heavy=True)
    if not row.stats:
        raise HarnessCheckFailed("nextup import failed at %d tasks: %s" % (n, row.error))
    check(out, lambda s: s.startswith("imported %d tasks: %d added" % (n, n)), "import of %d tasks" % n)
    shutil.rmtree(main, ignore_errors=True)
    os.rename(stores[-1], main)
    for s in stores[:-1]:
        shutil.rmtree(s, ignore_errors=True)
    if tw and tw.imported:
        shutil.rmtree(tw_main, ignore_errors=True)
        os.rename(tw.imported[-1], tw_main)
        for d in tw.imported[:-1]:
            shutil.rmtree(d, ignore_errors=True)
    if "import: peak RSS" in b:
        rss = Row(SECTION, n, "import: peak RSS", b["import: peak RSS"], unit="KiB",
                  note="the largest of the import's runs" + (
                      "" if ctx.launcher.exact_rss else "; an upper bound (no C compiler for bench/spawn.c)"))
        rows.append(rss.judge(row.stats.rss_kb))

    on = lambda *args: (lambda i: ctx.nextup(*args, "--store", main))
    if measure("count", on("count")).stats:
        shown = plan["open"] - plan["later"]
        check(out, lambda s: s.strip() == str(shown), "count (want %d open, not deferred)" % shown)
    measure("next", on("next"))
    if measure("show", on("show", free[0])).stats:
        check(out, lambda s: free[0] in s, "show")
    measure("list", on("list"))
    if measure("list --json", on("list", "--json"), heavy=True).stats:
        check_json_count(out, plan["open"] - plan["later"], "list --json")
    if measure("export", on("export"), heavy=True).stats:
        check_json_count(out, n, "export")
    measure("add", lambda i: ctx.nextup("add", "Bench task %d ☕" % i, "--urgency", "urgent", "--importance", "2",
                                        "--duration", "30m", "--category", "Admin", "--store", main))
    if measure("edit", lambda i: ctx.nextup("edit", free[0], "--title", "Bench edit %d" % i, "--store", main)).stats:
        check(out, lambda s: s.startswith("changed"), "edit")
    if measure("done", lambda i: ctx.nextup("done", free[1 + i], "--store", main)).stats:
        check(out, lambda s: s.startswith("done:"), "done")
    # An occurrence of a series: done, and its successor made, in one transaction.
    if plan["series_ids"] and measure("done (series)", lambda i: ctx.nextup("done", plan["series_ids"][i], "--store", main)).stats:
        check(out, lambda s: s.startswith("done:") and "next: " in s, "done (series)")
    if measure("undo", on("undo")).stats:
        check(out, lambda s: s.startswith("undid:"), "undo")
    rows.append(history_growth(n, main))
    return rows, pairs, main


def history_growth(n, store):
    """The store's growth per 10,000 one-field edits from the history alone
    (issue 36): the history table's and its index's bytes per row (SQLite's
    dbstat when built in, else the rows' payload), times 10,000, in KiB."""
    import sqlite3
    row = Row(SECTION, n, "history: growth per 10,000 edits", None, unit="KiB",
              note="history rows after the import and the edits above")
    db = sqlite3.connect(os.path.join(store, "nextup.sqlite"))
    try:
        count = db.execute("SELECT count(*) FROM history").fetchone()[0]
        try:
            size = db.execute("SELECT sum(pgsize) FROM dbstat WHERE name IN ('history', 'history_arrived')").fetchone()[0]
        except sqlite3.Error:
            size = db.execute("SELECT sum(length(task_id) + length(field) + 10 + coalesce(length(value), 0)"
                              " + coalesce(length(origin), 0) + 10 + 8) * 2 FROM history").fetchone()[0]
    finally:
        db.close()
    if not count:
        return row.failed("no history rows")
    return row.judge(size / count * 10000 / 1024)


def in_turn(ctx, argv_for, runs, out, theirs):
    """warmup + runs runs of nextup's argv_for(i), each followed by one of
    Taskwarrior's when `theirs` is given. Returns (nextup's timed samples, or
    its failed run alone; Taskwarrior's timed samples; why Taskwarrior's
    side stopped, if it did)."""
    mine, their, tw_error = [], [], None
    for i in range(ctx.warmup + runs):
        # The other tool's writes reach the disk before a timed run, so a
        # commit's fsync does not wait for them (a person's command does not
        # follow a Taskwarrior run by a millisecond).
        os.sync()
        s = ctx.run(argv_for(i), stdout=out)
        if not s.ok:
            return [s], their, tw_error
        if i >= ctx.warmup:
            mine.append(s)
        if theirs and tw_error is None:
            _, tw_argv_for, tw_env_for = theirs
            os.sync()
            t = ctx.run(tw_argv_for(i), env=tw_env_for(i), stdout=out + ".task")
            if not t.ok:
                tw_error = "> cap" if t.timed_out else "exit %d: %s" % (t.code, t.stderr[:120])
            elif i >= ctx.warmup:
                their.append(t)
    return mine, their, tw_error


def check(path, good, what):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if not good(text):
        raise HarnessCheckFailed("%s printed something unexpected: %r" % (what, text[:200]))


def check_json_count(path, want, what):
    with open(path, encoding="utf-8") as f:
        got = len(json.load(f))
    if got != want:
        raise HarnessCheckFailed("%s gave %d tasks, want %d" % (what, got, want))
