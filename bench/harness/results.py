"""Results: one row per measurement, PASS/MISS against its target."""

from .measure import Stats


class Row:
    """One measurement at one size.

    `stats` holds the timed runs (wall time, RSS); `value` replaces it for
    figures that are not one process's wall time (TUI latencies, p95...).
    `status` is PASS/MISS against `target` (seconds, or KiB when `unit` is
    "KiB", or bytes when it is "B"), "—" without a target, or a word for what went wrong
    ("not available yet", "error", "> cap").
    """

    def __init__(self, section, n, name, target=None, unit="s", note=""):
        self.section = section
        self.n = n
        self.name = name
        self.target = target
        self.unit = unit
        self.note = note
        self.stats = None
        self.value = None
        self.extra = {}
        self.status = "—"
        self.error = None
        self.capped = None

    def measured(self, samples):
        bad = [s for s in samples if not s.ok]
        if bad:
            s = bad[0]
            if s.timed_out:
                self.status = "> cap"
                self.capped = s.wall
                self.error = "> %s (capped)" % fmt_time(s.wall)
            else:
                self.status = "error"
                self.error = "exit %d: %s" % (s.code, s.stderr[:160])
            return self
        self.stats = Stats(samples)
        self.judge(self.stats.median)
        return self

    def judge(self, figure):
        if self.target is not None and figure is not None:
            self.status = "PASS" if figure <= self.target else "MISS"
        return self

    def unavailable(self, reason):
        self.status = "not available yet"
        self.error = reason
        return self

    def failed(self, reason):
        self.status = "error"
        self.error = reason
        return self

    @property
    def median(self):
        if self.value is not None:
            return self.value
        return self.stats.median if self.stats else None


def fmt_time(s):
    if s is None:
        return "—"
    if s < 1:
        return "%.1f ms" % (s * 1000)
    return "%.2f s" % s


def fmt_rss(kb):
    if kb is None:
        return "—"
    return "%.1f MB" % (kb / 1024)


def fmt_target(row):
    if row.target is None:
        return "—"
    if row.unit == "KiB":
        return "≤ " + fmt_rss(row.target)
    if row.unit == "B":
        return "≤ " + fmt_bytes(row.target)
    return "≤ " + fmt_time(row.target).replace(".0 ms", " ms").replace(".00 s", " s")


def fmt_bytes(b):
    if b is None:
        return "—"
    return "%.2f KB" % (b / 1000) if b >= 1000 else "%d B" % b


def fmt_n(n):
    return "{:,}".format(n)
