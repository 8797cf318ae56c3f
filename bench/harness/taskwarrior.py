"""Taskwarrior 2.6 on the same data, with its own throw-away TASKRC/TASKDATA.

Settings: rc.confirmation=off, rc.verbose=nothing, hooks off, terminal
detection off (fixed width 120), a numeric UDA `estimate` for durations; every
other setting is Taskwarrior's default (garbage collection on, as users have).
"""

import os
import shutil
import subprocess

from .results import Row

SECTION = "Taskwarrior"

# nextup's command ↔ Taskwarrior's, for the ratio table.
PAIRS = [
    ("import (whole set, empty store)", "task import"),
    ("import --from taskwarrior (task export of the set)", "task import"),
    ("count", "task status:pending count"),
    ("next", "task next"),
    ("list", "task list"),
    ("export", "task export"),
    ("add", "task add"),
    ("edit", "task UUID modify"),
    ("done", "task UUID done"),
]


def ensure_installed(log):
    """Returns (path to `task`, version) or (None, reason). Installs Debian's
    `taskwarrior` with apt-get when it is missing."""
    task = shutil.which("task")
    if not task:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        log("installing taskwarrior with apt-get…")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        r = subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "taskwarrior"], env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            subprocess.run(sudo + ["apt-get", "update", "-qq"], env=env, capture_output=True)
            r = subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "taskwarrior"], env=env,
                               capture_output=True, text=True)
        task = shutil.which("task")
        if not task:
            return None, "apt-get could not install taskwarrior: %s" % (r.stderr.strip().splitlines() or ["?"])[-1]
    r = subprocess.run([task, "--version"], capture_output=True, text=True)
    version = r.stdout.strip()
    if not version.startswith("2.6"):
        return None, "found Taskwarrior %s, the comparison is with 2.6" % version
    return task, version


class Taskwarrior:
    def __init__(self, ctx, task):
        self.ctx = ctx
        self.task = task

    def env_for(self, data):
        rc = data + ".taskrc"
        with open(rc, "w") as f:
            f.write("\n".join([
                "data.location=%s" % data,
                "confirmation=off",
                "verbose=nothing",
                "hooks=off",
                "news.version=2.6.0",
                "detection=off",
                "defaultwidth=120",
                "uda.estimate.type=numeric",
                "uda.estimate.label=Est",
                "",
            ]))
        env = dict(self.ctx.env, TASKRC=rc, TASKDATA=data)
        return env

    def run(self, n, tw_data_path, plan):
        ctx = self.ctx
        rows = []
        out = ctx.path("tw-out-%d.txt" % n)
        base = ctx.path("taskwarrior", str(n))
        main = os.path.join(base, "main")
        heavy = ctx.runs_for(n, heavy=True)
        made = []
        samples = []
        # Each import goes into a fresh TASKDATA, so `series` (one env) does not fit.
        for i in range(ctx.warmup + heavy):
            data = ctx.fresh_dir("taskwarrior", str(n), "import-%d" % i)
            os.makedirs(data)
            made.append(data)
            s = ctx.launcher.run([self.task, "import", tw_data_path], env=self.env_for(data), stdout=out,
                                 timeout=ctx.cap)
            if not s.ok:
                samples = [s]
                break
            if i >= ctx.warmup:
                samples.append(s)
        row = Row(SECTION, n, "task import").measured(samples)
        rows.append(row)
        if not row.stats:
            return rows, "task import did not finish (%s): no Taskwarrior store at this size" % row.error
        shutil.rmtree(main, ignore_errors=True)
        os.rename(made[-1], main)
        for d in made[:-1]:
            shutil.rmtree(d, ignore_errors=True)
        env = self.env_for(main)
        light = ctx.runs_for(n, heavy=False)

        def measure(name, argv_for, runs):
            rows.append(Row(SECTION, n, name).measured(ctx.series(argv_for, runs, env=env, stdout=out)))

        measure("task status:pending count", lambda i: [self.task, "status:pending", "count"], light)
        measure("task next", lambda i: [self.task, "next"], light)
        measure("task list", lambda i: [self.task, "list"], heavy)
        measure("task export", lambda i: [self.task, "export"], heavy)
        measure("task add", lambda i: [self.task, "add", "Bench task %d ☕" % i, "priority:M", "project:Admin",
                                       "+urgent", "estimate:30"], light)
        # Migration: the file `task export` writes, read by nextup's
        # Taskwarrior importer into fresh stores (issue 11: ≥ 5× `task import`).
        exported = ctx.path("tw-export-%d.json" % n)
        with open(exported, "w") as f:
            r = subprocess.run([self.task, "export"], env=env, stdout=f, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            def migrate(i):
                store = ctx.fresh_dir("taskwarrior", str(n), "nextup-%d" % i)
                return ctx.nextup("import", "--from", "taskwarrior", exported, "--store", store)
            rows.append(Row("command line", n, "import --from taskwarrior (task export of the set)").measured(
                ctx.series(migrate, heavy, stdout=out)))
        edited = plan["free_ids"][0]
        measure("task UUID modify", lambda i: [self.task, edited, "modify", "description:Bench edit %d" % i], light)
        done_ids = plan["free_ids"][1:]
        measure("task UUID done", lambda i: [self.task, done_ids[i], "done"], light)
        return rows, None
