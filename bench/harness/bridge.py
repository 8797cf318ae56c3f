"""The phone bridge (issue 12): a vdir of one .ics file per task, kept in step
with the store by `nextup sync --vdir`. Measured up to 10,000 tasks (a vdir of
100,000 files is not a phone calendar): the first bridge into an empty vdir,
one edit's cycle, a quiet cycle, and a phone's rewrite of one file."""

import os
import shutil
import subprocess

from .results import Row

SECTION = "phone bridge"
LARGEST = 10_000


def probe(ctx):
    """None when `nextup sync --vdir` exists, else why it cannot be measured."""
    r = subprocess.run(ctx.nextup("sync", "--help"), env=ctx.env, capture_output=True, text=True)
    if r.returncode != 0 or "--vdir" not in (r.stdout + subprocess.run(ctx.nextup("--help"), env=ctx.env,
                                                                        capture_output=True, text=True).stdout):
        return "this build has no --vdir (issue 12 not on main yet)"
    return None


def run(ctx, n, store, plan):
    """`store` holds the N tasks (the command-line section's store)."""
    if n > LARGEST:
        return []
    reason = probe(ctx)
    if reason:
        return [Row(SECTION, n, "first bridge (N tasks → empty vdir)").unavailable(reason)]
    base = ctx.fresh_dir("bridge", str(n))
    os.makedirs(base)
    vdir = os.path.join(base, "vdir")
    os.makedirs(vdir)
    a = os.path.join(base, "A")
    shutil.copytree(store, a)
    out = ctx.path("bridge-out-%d.txt" % n)

    def bridge():
        return ctx.nextup("sync", "--store", a, "--vdir", vdir)

    rows = []
    first = ctx.launcher.run(bridge(), env=ctx.env, stdout=out, timeout=ctx.cap)
    files = len([f for f in os.listdir(vdir) if f.endswith(".ics")])
    rows.append(Row(SECTION, n, "first bridge (N tasks → empty vdir)",
                    note="one run; %d files written" % files).measured([first]))
    if not first.ok:
        return rows

    light = ctx.runs_for(n, heavy=False)
    edited = plan["free_ids"][0]
    cycles = []
    for i in range(ctx.warmup + light):
        e = ctx.launcher.run(ctx.nextup("edit", edited, "--title", "Bridge edit %d" % i, "--store", a),
                             env=ctx.env, timeout=ctx.cap)
        s = ctx.launcher.run(bridge(), env=ctx.env, stdout=out, timeout=ctx.cap)
        if not e.ok or not s.ok:
            cycles = [e if not e.ok else s]
            break
        if i >= ctx.warmup:
            cycles.append(s)
    rows.append(Row(SECTION, n, "one edit in nextup → its file rewritten").measured(cycles))

    rows.append(Row(SECTION, n, "quiet cycle (nothing new on either side)").measured(
        ctx.series(lambda i: bridge(), light, stdout=out)))

    # The phone renames a task: its file is rewritten without nextup's X- properties.
    path = os.path.join(vdir, edited + ".ics")
    phone = []
    for i in range(ctx.warmup + light):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as err:
            return rows + [Row(SECTION, n, "a phone's rewrite of one file → store").failed(str(err))]
        lines = [l for l in text.replace("\r\n", "\n").split("\n") if l and not l.startswith("X-NEXTUP-")]
        lines = ["SUMMARY:Phone edit %d" % i if l.startswith("SUMMARY") else l for l in lines]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\r\n".join(lines) + "\r\n")
        s = ctx.launcher.run(bridge(), env=ctx.env, stdout=out, timeout=ctx.cap)
        if not s.ok:
            phone = [s]
            break
        if i >= ctx.warmup:
            phone.append(s)
    # The harness must see the bridge do its job, not only exit 0.
    shown = subprocess.run(ctx.nextup("show", edited, "--json", "--store", a), env=ctx.env,
                           capture_output=True, text=True)
    wanted = "Phone edit %d" % (ctx.warmup + light - 1)
    if phone and all(p.ok for p in phone) and '"title" : "%s"' % wanted not in shown.stdout:
        rows.append(Row(SECTION, n, "a phone's rewrite of one file → store").failed(
            "the store does not hold the phone's title %r after the cycle" % wanted))
    else:
        rows.append(Row(SECTION, n, "a phone's rewrite of one file → store").measured(phone))
    shutil.rmtree(base, ignore_errors=True)
    return rows
