"""What every section of the benchmark runs with."""

import os
import shutil

from .measure import Launcher


class Context:
    """The binary under test, the scratch folder, the run counts and the cap.

    - `runs`: timed runs of a command (after `warmup` untimed ones);
    - `heavy_runs`: timed runs of a command that reads or writes every task
      (import, export, list --json, first sync) at 100,000 tasks;
    - `cap`: seconds any one command may take before it is killed and
      reported as "> cap".
    """

    def __init__(self, binary, work, runs, heavy_runs, warmup, cap):
        self.binary = os.path.abspath(binary)
        self.work = os.path.abspath(work)
        self.runs = runs
        self.heavy_runs = heavy_runs
        self.warmup = warmup
        self.cap = cap
        os.makedirs(self.work, exist_ok=True)
        self.launcher = Launcher(self.work)
        # nextup must not read the user's config (which may name a peer folder).
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("NEXTUP_")}
        config_home = self.path("config")
        os.makedirs(config_home, exist_ok=True)
        self.env["XDG_CONFIG_HOME"] = config_home
        self.env["HOME"] = self.path("home")
        os.makedirs(self.env["HOME"], exist_ok=True)
        self.env["NO_COLOR"] = "1"

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def fresh_dir(self, *parts):
        """The path of a folder that does not exist yet (its parent does)."""
        p = self.path(*parts)
        shutil.rmtree(p, ignore_errors=True)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    def runs_for(self, n, heavy):
        """Timed runs for a measurement at size n."""
        if heavy and n >= 100_000:
            return self.heavy_runs
        return self.runs

    def nextup(self, *args):
        return [self.binary] + list(args)

    def run(self, argv, env=None, stdout="/dev/null"):
        """One untimed-for-the-table run (a Sample all the same)."""
        return self.launcher.run(argv, env=env or self.env, stdout=stdout, timeout=self.cap)

    def series(self, argv_for, runs, env=None, stdout="/dev/null"):
        """Runs `argv_for(i)` warmup + runs times; returns the timed samples.
        Stops at the first failed or capped run and returns it alone."""
        samples = []
        for i in range(self.warmup + runs):
            s = self.run(argv_for(i), env=env, stdout=stdout)
            if not s.ok:
                return [s]
            if i >= self.warmup:
                samples.append(s)
        return samples
