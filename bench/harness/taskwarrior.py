"""Taskwarrior 2.6 beside nextup: the same tasks, each of nextup's commands
paired with Taskwarrior's, in a throw-away TASKRC/TASKDATA.

Settings: rc.confirmation=off, rc.verbose=nothing, hooks off, terminal
detection off (fixed width 120), a numeric UDA `estimate` for durations; every
other setting is Taskwarrior's default (garbage collection on, as users have).
"""

import os
import shutil
import subprocess

# The size the ratio is judged at, and the ratio every command must reach.
RATIO_AT = 10_000
RATIO = 2.0


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
    """`task` on one data folder at a time; `pair(name, …)` gives Taskwarrior's
    side of one of nextup's commands as (label, argv_for, env_for)."""

    def __init__(self, ctx, task):
        self.ctx = ctx
        self.task = task
        self.imported = []  # the data folders `task import` filled, in order

    def env_for(self, data):
        os.makedirs(data, exist_ok=True)
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
        return dict(self.ctx.env, TASKRC=rc, TASKDATA=data)

    def pair(self, name, n, data_path, main, plan):
        """Taskwarrior's command for nextup's `name` at size n: (label,
        argv_for(i), env_for(i)). `main` is the data folder the last import
        left; `data_path` the tasks in Taskwarrior's import form. None for a row
        Taskwarrior has no like of."""
        t = self.task
        free = plan["free_ids"]
        if name == "import":
            def fresh(i):
                self.imported.append(self.ctx.fresh_dir("taskwarrior", str(n), "import-%d" % i))
                return self.env_for(self.imported[-1])
            return "task import", lambda i: [t, "import", data_path], fresh
        table = {
            "count": ("task status:pending count", lambda i: [t, "status:pending", "count"]),
            "next": ("task next", lambda i: [t, "next"]),
            "show": ("task UUID info", lambda i: [t, free[0], "info"]),
            "list": ("task list", lambda i: [t, "list"]),
            "list --json": ("task status:pending export", lambda i: [t, "status:pending", "export"]),
            "export": ("task export", lambda i: [t, "export"]),
            "add": ("task add", lambda i: [t, "add", "Bench task %d ☕" % i, "priority:M", "project:Admin",
                                           "+urgent", "estimate:30"]),
            "edit": ("task UUID modify", lambda i: [t, free[0], "modify", "description:Bench edit %d" % i]),
            "done": ("task UUID done", lambda i: [t, free[1 + i], "done"]),
            "undo": ("task undo", lambda i: [t, "undo"]),
        }
        if name not in table:  # a row Taskwarrior has no like of (a series' done)
            return None
        label, argv_for = table[name]
        env = self.env_for(main)
        return label, argv_for, lambda i: env
