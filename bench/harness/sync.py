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


def targets_for(n):
    if n < 100_000:
        return {}
    # Issue 14: a first sync into an empty store ≤ 2 s (the upload keeps issue 5's 5 s).
    return {"first": 5.0, "download": 2.0, "one": 0.050}


def unavailable_rows(n, reason):
    names = ["first sync, upload N (replica A → empty peer folder)",
             "first sync into an empty store (download N)",
             "one edit: upload (A)", "one edit: download (B)",
             "sync with nothing new", COMPACTION]
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

    row = Row(SECTION, n, "first sync into an empty store (download N)", t.get("download")).measured(
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

    return rows


COMPACTION = "compaction of its own log (≈10×N lines)"
ROUNDS = 14
# The engine compacts its own log once it is larger than
# max(4 MiB, 4 × its size right after the last rewrite) (SyncOptions).
COMPACT_MIN_BYTES, COMPACT_FACTOR = 4 * 1024 * 1024, 4


def log_lines(peer):
    """Lines of every log in the peer folder."""
    total = 0
    for name in os.listdir(peer):
        if name.endswith(".log"):
            with open(os.path.join(peer, name), "rb") as f:
                total += sum(1 for _ in f)
    return total


def log_bytes(peer):
    return sum(os.path.getsize(os.path.join(peer, f)) for f in os.listdir(peer) if f.endswith(".log"))


def run_compaction(ctx, n, tasks, store_a, peer):
    """Grows replica A's own log by one line per task per round — re-import
    the whole set with each task's notes changed, then `nextup sync` uploads
    it — until a sync reports that it compacted the log, and times that sync.
    The engine decides when to compact (past 4× its last snapshot); the
    notes are padded after round 1 so that this happens at about round 10,
    i.e. on a log of about 10×N lines. Runs after the TUI section, since it
    rewrites every task."""
    row = Row(SECTION, n, COMPACTION, note="one run")
    out = ctx.path("sync-out-%d.txt" % n)
    data = ctx.path("sync-round-%d.json" % n)
    from . import dataset
    snapshot = log_bytes(peer)
    threshold = max(COMPACT_MIN_BYTES, COMPACT_FACTOR * snapshot)
    pad = 0
    for k in range(1, ROUNDS + 1):
        changed = []
        for t in tasks:
            c = dict(t)
            c["notes"] = "round %d %s" % (k, "x" * pad)
            # No `modified`: the record is a new edit, not an older copy the
            # import would keep the store's newer values over.
            c.pop("modified", None)
            changed.append(c)
        dataset.write(data, changed)
        s = ctx.launcher.run(ctx.nextup("import", data, "--store", store_a), env=ctx.env, timeout=ctx.cap)
        if not s.ok:
            return row.failed("round %d: import failed: %s" % (k, s.stderr))
        lines, size = log_lines(peer), log_bytes(peer)
        s = ctx.launcher.run(ctx.nextup("sync", "--store", store_a, "--peer", peer), env=ctx.env, stdout=out,
                             timeout=ctx.cap)
        if not s.ok:
            return row.measured([s])
        with open(out, encoding="utf-8", errors="replace") as f:
            said = f.read()
        if "compaction" in said:
            row.measured([s])
            row.note = "its log held %s lines (%.1f×N, %.0f MB) before this sync, round %d; one run" % (
                "{:,}".format(lines), lines / max(n, 1), size / 1e6, k)
            return row
        grown = log_bytes(peer)
        if k == 1:
            per_round = grown - snapshot
            wanted = (threshold - snapshot) / 9.5
            pad = max(0, int((wanted - per_round) / max(n, 1)))
    return row.failed("no sync compacted the log in %d rounds (%s lines, %.0f MB)" % (
        ROUNDS, "{:,}".format(log_lines(peer)), log_bytes(peer) / 1e6))
