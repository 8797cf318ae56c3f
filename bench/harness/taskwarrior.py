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
# The pairs measured again with their runs taken in turn (nextup, Taskwarrior,
# nextup, …) at the size the 5× ratio is judged at.
IN_TURN = "in turn"
RATIO_AT = 10_000

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

    def run(self, n, tw_data_path, plan, store=None, data_path=None):
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
        if n == RATIO_AT and store and data_path:
            rows += self.in_turn(n, tw_data_path, env, store, data_path, exported if r.returncode == 0 else None)
        return rows, None

    def in_turn(self, n, tw_data_path, env, store, data_path, exported):
        """The pairs whose ratio is judged, measured again with nextup's and
        Taskwarrior's runs taken in turn, so that a machine that slows down
        between the two sections (other work, another VM on the host) weighs
        on both sides of the ratio alike. Reads on the stores each section
        left; imports into fresh folders. Two rows per pair (section
        IN_TURN); a pair whose side fails is left out."""
        ctx = self.ctx
        out = ctx.path("turn-out-%d.txt" % n)

        def fresh_store(i):
            return ctx.fresh_dir("taskwarrior", str(n), "turn-nextup-%d" % i)

        def fresh_task_data(i):
            data = ctx.fresh_dir("taskwarrior", str(n), "turn-task-%d" % i)
            os.makedirs(data)
            return data

        def task_import(i):
            return [self.task, "import", tw_data_path], self.env_for(fresh_task_data(i))

        pairs = [
            ("import (whole set, empty store)", lambda i: ctx.nextup("import", data_path, "--store", fresh_store(i)),
             "task import", task_import),
            ("count", lambda i: ctx.nextup("count", "--store", store),
             "task status:pending count", lambda i: ([self.task, "status:pending", "count"], env)),
            ("next", lambda i: ctx.nextup("next", "--store", store), "task next", lambda i: ([self.task, "next"], env)),
            ("list", lambda i: ctx.nextup("list", "--store", store), "task list", lambda i: ([self.task, "list"], env)),
            ("export", lambda i: ctx.nextup("export", "--store", store),
             "task export", lambda i: ([self.task, "export"], env)),
        ]
        if exported:
            pairs.insert(1, ("import --from taskwarrior (task export of the set)",
                             lambda i: ctx.nextup("import", "--from", "taskwarrior", exported, "--store", fresh_store(i)),
                             "task import", task_import))
        rows = []
        runs = ctx.runs_for(n, heavy=True)
        for mine, mine_argv, theirs, theirs_argv in pairs:
            samples = ([], [])
            failed = None
            for i in range(ctx.warmup + runs):
                argv_a = mine_argv(i)
                a = ctx.launcher.run(argv_a, env=ctx.env, stdout=out, timeout=ctx.cap)
                argv_b, env_b = theirs_argv(i)
                b = ctx.launcher.run(argv_b, env=env_b, stdout=out, timeout=ctx.cap)
                if not (a.ok and b.ok):
                    failed = a if not a.ok else b
                    break
                if i >= ctx.warmup:
                    samples[0].append(a)
                    samples[1].append(b)
            if failed:
                ctx.log("in turn: %s / %s left out: %s" % (mine, theirs, failed.stderr[:160] or "exit %d" % failed.code))
                continue
            a = Row(IN_TURN, n, mine, note="%d runs, taken in turn with %s" % (runs, theirs)).measured(samples[0])
            b = Row(IN_TURN, n, theirs, note="%d runs, taken in turn with nextup %s" % (runs, mine)).measured(samples[1])
            # Two pairs share `task import`: each of its rows names its pair.
            a.extra["pair"] = b.extra["pair"] = mine
            rows += [a, b]
        return rows
