"""Results: one row per budget measured, its figure beside its budget."""

from .measure import Stats, percentile


class Row:
    """One measurement at one size.

    `figure` is what the budget judges: the median wall time of a command's
    runs (`measured`), or a statistic of TUI latencies (`latencies`), or a
    peak RSS in KiB when `unit` is "KiB". `status` is PASS/MISS against
    `budget`, "—" without one, or what went wrong ("error", "> cap",
    "not available").
    """

    def __init__(self, section, n, name, budget=None, unit="s", note=""):
        self.section = section
        self.n = n
        self.name = name
        self.budget = budget
        self.unit = unit
        self.note = note
        self.stats = None
        self.figure = None
        self.status = "—"
        self.error = None
        self.capped = None

    def measured(self, samples):
        """Judges the median of a series of runs (bench/harness/measure.py)."""
        bad = [s for s in samples if not s.ok]
        if bad:
            s = bad[0]
            if s.timed_out:
                self.capped = s.wall
                return self.failed("> %s (capped)" % fmt_time(s.wall), "> cap")
            return self.failed("exit %d: %s" % (s.code, s.stderr[:160]))
        self.stats = Stats(samples)
        return self.judge(self.stats.median)

    def latencies(self, times, judged_on="p95"):
        """Judges the p95 (or the max) of a series of latencies in seconds."""
        p50, p95, worst = percentile(times, 50), percentile(times, 95), max(times)
        detail = "p50 %s, p95 %s, max %s over %d" % (fmt_time(p50), fmt_time(p95), fmt_time(worst), len(times))
        self.note = detail + ("; " + self.note if self.note else "")
        return self.judge(p95 if judged_on == "p95" else worst)

    def judge(self, figure):
        self.figure = figure
        if self.budget is not None and figure is not None:
            self.status = "PASS" if figure <= self.budget else "MISS"
        return self

    def failed(self, reason, status="error"):
        self.status = status
        self.error = reason
        return self


def fmt_time(s):
    if s is None:
        return "—"
    if s < 1:
        return "%.1f ms" % (s * 1000)
    return "%.2f s" % s


def fmt_rss(kb):
    return "—" if kb is None else "%.0f MB" % (kb / 1024)


def fmt_figure(row):
    return fmt_rss(row.figure) if row.unit == "KiB" else fmt_time(row.figure)


def fmt_budget(row):
    if row.budget is None:
        return "—"
    if row.unit == "KiB":
        return "≤ " + fmt_rss(row.budget)
    return "≤ " + fmt_time(row.budget).replace(".0 ms", " ms").replace(".00 s", " s")


def fmt_n(n):
    return "{:,}".format(n)


def runs_note(stats):
    """"7 runs: 12.1–13.5 ms" (the figure is their median)."""
    if len(stats.samples) == 1:
        return "1 run"
    return "%d runs: %s–%s" % (len(stats.samples), fmt_time(stats.min), fmt_time(stats.max))
