"""Running one command and timing it: wall time and peak RSS.

Commands run through `spawn` (bench/spawn.c, compiled on first use with the
system C compiler): a child's ru_maxrss starts at the high-water mark of the
process it was forked from, so a Python parent would report its own memory as
a floor under every figure. Without a C compiler the harness falls back to
timing from Python and says that RSS figures are upper bounds.
"""

import os
import shutil
import statistics
import subprocess
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Sample:
    """One run: seconds of wall time, peak RSS in KiB, exit code, timed out?,
    seconds of CPU time (user + system)."""

    def __init__(self, wall, rss_kb, code, timed_out, stderr="", cpu=None):
        self.wall = wall
        self.cpu = cpu
        self.rss_kb = rss_kb
        self.code = code
        self.timed_out = timed_out
        self.stderr = stderr

    @property
    def ok(self):
        return self.code == 0 and not self.timed_out


class Launcher:
    def __init__(self, work_dir):
        self.work_dir = work_dir
        self.exact_rss = True
        self.path = os.path.join(work_dir, "spawn")
        source = os.path.join(HERE, "spawn.c")
        fresh = os.path.exists(self.path) and os.path.getmtime(self.path) >= os.path.getmtime(source)
        if not fresh:
            cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
            built = False
            if cc:
                r = subprocess.run([cc, "-O2", "-o", self.path, source], capture_output=True, text=True)
                built = r.returncode == 0
            if not built:
                self.path = None
                self.exact_rss = False

    def run(self, argv, env=None, stdin="/dev/null", stdout="/dev/null", timeout=0.0):
        """Runs argv once; `timeout` in seconds (0: none). Returns a Sample."""
        err_path = os.path.join(self.work_dir, "last-stderr.txt")
        if self.path:
            cmd = [self.path, stdin, stdout, err_path, str(int(timeout * 1000)), "--"] + list(argv)
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if r.returncode != 0 or not r.stdout.strip():
                raise RuntimeError("spawn failed: %s" % (r.stderr.strip() or r.returncode))
            ns, rss, code, to, cpu = r.stdout.split()
            sample = Sample(int(ns) / 1e9, int(rss), int(code), to == "1", cpu=int(cpu) / 1e9)
        else:
            with open(stdin, "rb") as fin, open(stdout, "wb") as fout, open(err_path, "wb") as ferr:
                t0 = time.perf_counter()
                p = subprocess.Popen(argv, env=env, stdin=fin, stdout=fout, stderr=ferr, start_new_session=True)
                timed_out = False
                try:
                    p.wait(timeout=timeout or None)
                except subprocess.TimeoutExpired:
                    timed_out = True
                    os.killpg(p.pid, 9)
                    p.wait()
                wall = time.perf_counter() - t0
            import resource
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            sample = Sample(wall, usage.ru_maxrss, p.returncode, timed_out)
        if not sample.ok:
            try:
                with open(err_path, encoding="utf-8", errors="replace") as f:
                    lines = [line.strip() for line in f if line.strip()]
                sample.stderr = lines[-1] if lines else ""
            except OSError:
                pass
        return sample


class Stats:
    """Median, min and max of a series of samples."""

    def __init__(self, samples):
        self.samples = samples
        walls = [s.wall for s in samples]
        self.median = statistics.median(walls)
        self.min = min(walls)
        self.max = max(walls)
        self.rss_kb = max(s.rss_kb for s in samples)


def percentile(values, p):
    """The p-th percentile (0..100) by linear interpolation."""
    v = sorted(values)
    if not v:
        return None
    k = (len(v) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)
