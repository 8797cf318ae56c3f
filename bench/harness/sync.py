"""The first sync into an empty store: replica A (a copy of the command-line
section's store) publishes its log to an empty peer folder (untimed), then
`nextup sync` brings it into empty stores; the last one is replica B, which
the TUI section uses for another machine's change."""

import os
import shutil

from .results import Row, runs_note

SECTION = "sync"
FIRST_SYNC = "first sync into an empty store (`nextup sync`)"


def budgets(n):
    return {FIRST_SYNC: 4.0} if n == 100_000 else {}


def run(ctx, n, store, plan):
    """Returns (rows, (A, B, peer) or None)."""
    base = ctx.fresh_dir("sync", str(n))
    peer, a = os.path.join(base, "peer"), os.path.join(base, "A")
    os.makedirs(peer)
    shutil.copytree(store, a)
    out = ctx.path("sync-out-%d.txt" % n)

    def sync(replica):
        return ctx.nextup("sync", "--store", replica, "--peer", peer)

    up = ctx.run(sync(a), stdout=out)
    if not up.ok:
        return [Row(SECTION, n, FIRST_SYNC).failed("replica A could not publish its log: %s" % up.stderr)], None

    made = []

    def first_sync(i):
        made.append(ctx.fresh_dir("sync", str(n), "B-%d" % i))
        return sync(made[-1])

    row = Row(SECTION, n, FIRST_SYNC, budgets(n).get(FIRST_SYNC)).measured(
        ctx.series(first_sync, ctx.runs_for(n, heavy=True), stdout=out))
    if not row.stats:
        return [row], None
    b = os.path.join(base, "B")
    os.rename(made[-1], b)
    for d in made[:-1]:
        shutil.rmtree(d, ignore_errors=True)
    counted = ctx.run(ctx.nextup("count", "--store", b), stdout=out)
    with open(out, encoding="utf-8") as f:
        got = f.read().strip()
    want = count(ctx, a, out)
    if not counted.ok or got != want:
        return [row.failed("after the first sync B counts %r open tasks, A %r" % (got, want))], None
    row.note = "%s; %s open tasks arrived" % (runs_note(row.stats), want)
    return [row], (a, b, peer)


def count(ctx, store, out):
    """`nextup count` of a store, as printed."""
    ctx.run(ctx.nextup("count", "--store", store), stdout=out)
    with open(out, encoding="utf-8") as f:
        return f.read().strip()
