"""Sync through a peer folder (issue 3): first sync, one edit, nothing new,
compaction. Reports "not available yet" while the build has no `sync`."""

import os
import shutil
import subprocess

from .results import Row

SECTION = "sync"


def probe(ctx):
    """None when `nextup sync` exists, else the reason it cannot be measured."""
    r = subprocess.run(ctx.nextup("sync", "--help"), env=ctx.env, capture_output=True, text=True)
    # Without a `sync` subcommand, argument-parser prints the root help.
    if r.returncode != 0 or "nextup sync" not in r.stdout:
        return "this build has no `nextup sync` command (issue 3 not on main yet)"
    return None


def compaction_flag(ctx):
    """The way to ask for a compaction, if `nextup sync --help` offers one."""
    r = subprocess.run(ctx.nextup("sync", "--help"), env=ctx.env, capture_output=True, text=True)
    return "--compact" if "--compact" in r.stdout else None


def targets_for(n):
    if n < 100_000:
        return {}
    return {"first": 5.0, "one": 0.050}


def unavailable_rows(n, reason):
    names = ["first sync, upload N (replica A → empty peer folder)",
             "first sync into an empty store (download N)",
             "one edit: upload (A)", "one edit: download (B)",
             "sync with nothing new", "compaction of a log of 10×N lines"]
    return [Row(SECTION, n, name).unavailable(reason) for name in names]


def run(ctx, n, store_a, plan):
    """`store_a` holds the N tasks (the command-line section's store)."""
    reason = probe(ctx)
    if reason:
        return unavailable_rows(n, reason)
    t = targets_for(n)
    rows = []
    base = ctx.fresh_dir("sync", str(n))
    os.makedirs(base)
    peer = os.path.join(base, "peer")
    os.makedirs(peer)
    a = os.path.join(base, "A")
    shutil.copytree(store_a, a)
    out = ctx.path("sync-out-%d.txt" % n)

    def sync(store, *extra):
        return ctx.nextup("sync", "--store", store, "--peer", peer, *extra)

    # The first upload can happen once only.
    s = ctx.launcher.run(sync(a), env=ctx.env, stdout=out, timeout=ctx.cap)
    rows.append(Row(SECTION, n, "first sync, upload N (replica A → empty peer folder)", t.get("first"),
                    note="one run").measured([s]))
    if not s.ok:
        return rows + [Row(SECTION, n, "rest of sync").failed("first upload failed")]

    heavy = ctx.runs_for(n, heavy=True)
    made = []

    def first_download(i):
        b = ctx.fresh_dir("sync", str(n), "B-%d" % i)
        made.append(b)
        return sync(b)

    row = Row(SECTION, n, "first sync into an empty store (download N)", t.get("first")).measured(
        ctx.series(first_download, heavy, stdout=out))
    rows.append(row)
    if not row.stats:
        return rows
    b = os.path.join(base, "B")
    os.rename(made[-1], b)
    for d in made[:-1]:
        shutil.rmtree(d, ignore_errors=True)

    light = ctx.runs_for(n, heavy=False)
    edited = plan["free_ids"][0]
    up, down = [], []
    for i in range(ctx.warmup + light):
        e = ctx.launcher.run(ctx.nextup("edit", edited, "--title", "Sync edit %d" % i, "--store", a),
                             env=ctx.env, timeout=ctx.cap)
        if not e.ok:
            up = [e]
            break
        su = ctx.launcher.run(sync(a), env=ctx.env, stdout=out, timeout=ctx.cap)
        sd = ctx.launcher.run(sync(b), env=ctx.env, stdout=out, timeout=ctx.cap)
        if not su.ok or not sd.ok:
            up, down = [su], [sd]
            break
        if i >= ctx.warmup:
            up.append(su)
            down.append(sd)
    rows.append(Row(SECTION, n, "one edit: upload (A)", t.get("one")).measured(up))
    if down:
        rows.append(Row(SECTION, n, "one edit: download (B)", t.get("one")).measured(down))

    rows.append(Row(SECTION, n, "sync with nothing new").measured(
        ctx.series(lambda i: sync(b), light, stdout=out)))

    flag = compaction_flag(ctx)
    if not flag:
        rows.append(Row(SECTION, n, "compaction of a log of 10×N lines").unavailable(
            "`nextup sync --help` offers no way to ask for a compaction"))
    else:
        rows.append(compaction(ctx, n, a, sync, flag, out))
    return rows


def compaction(ctx, n, store, sync, flag, out):
    """Grows the replica's own log to about 10×N lines (nine re-imports of the
    whole set with one field changed, each uploaded), then times one compaction."""
    row = Row(SECTION, n, "compaction of a log of 10×N lines", note="one run")
    return row.unavailable("compaction trigger not wired into the harness yet")
