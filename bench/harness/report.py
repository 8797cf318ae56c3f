"""The results table: printed, and written into docs/benchmarks.md between
two markers (the text outside them is kept)."""

import os
import platform
import subprocess
import time

from .results import fmt_budget, fmt_figure, fmt_n, fmt_time
from .taskwarrior import RATIO, RATIO_AT

BEGIN = "<!-- bench:begin (written by `make bench`; edit outside these markers) -->"
END = "<!-- bench:end -->"

HEAD = ["tasks", "measurement", "figure", "budget", "result", "note"]
RATIO_HEAD = ["nextup", "Taskwarrior", "nextup median", "Taskwarrior median", "× faster", "budget", "result"]
TITLES = {"command line": "Command line", "sync": "Sync", "TUI": "TUI"}


def machine():
    """nproc, CPU model, memory, OS, load: what the figures depend on."""
    cpu, mem = "?", "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
        with open("/proc/meminfo") as f:
            mem = "%.1f GiB" % (int(f.readline().split()[1]) / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    osname = platform.system() + " " + platform.release()
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    osname = line.split("=", 1)[1].strip().strip('"') + ", kernel " + platform.release()
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory": mem, "os": osname,
            "load": " ".join("%.2f" % x for x in os.getloadavg())}


def git_commit(repo):
    try:
        c = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        d = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True)
        return c.stdout.strip() + (" (with uncommitted changes)" if d.stdout.strip() else "")
    except OSError:
        return "?"


def cells(row):
    if row.error:
        return [fmt_n(row.n), row.name, "—", fmt_budget(row), row.status, row.error]
    return [fmt_n(row.n), row.name, fmt_figure(row), fmt_budget(row), row.status, row.note]


def ratio_cells(pair):
    """One pair's cells and its verdict (PASS, MISS, or "error")."""
    mine = fmt_time(pair.mine_stats.median) if pair.mine_stats else "—"
    if pair.error or not pair.their_stats or not pair.mine_stats:
        why = pair.error or "not measured"
        return [pair.mine, pair.theirs, mine, why, "—", "≥ %g×" % RATIO, "error"]
    ratio = pair.their_stats.median / pair.mine_stats.median
    verdict = "PASS" if ratio >= RATIO else "MISS"
    return [pair.mine, pair.theirs, mine, fmt_time(pair.their_stats.median), "%.1f×" % ratio,
            "≥ %g×" % RATIO, verdict]


def tables(rows, pairs):
    """[(title, head, body rows)]."""
    out = []
    for section, title in TITLES.items():
        body = [cells(r) for r in rows if r.section == section]
        if body:
            out.append((title, HEAD, body))
    if pairs:
        out.append(("Beside Taskwarrior 2.6 at %s tasks (runs taken in turn)" % fmt_n(RATIO_AT), RATIO_HEAD,
                    [ratio_cells(p) for p in pairs]))
    return out


def verdicts(rows, pairs):
    """(PASS, MISS) counts over every budget, the ratios included."""
    results = [r.status for r in rows] + [ratio_cells(p)[-1] for p in pairs]
    return results.count("PASS"), results.count("MISS")


def text_table(head, body):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    line = lambda cols: "  ".join(str(c).ljust(w) for c, w in zip(cols, widths)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in body])


def md_table(head, body):
    esc = lambda c: str(c).replace("|", "\\|")
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in body]
    return "\n".join(out)


def print_tables(rows, pairs, log=print):
    for title, head, body in tables(rows, pairs):
        log("\n== %s ==" % title)
        log(text_table(head, body))


def markdown(rows, pairs, info):
    m = info["machine"]
    passed, missed = verdicts(rows, pairs)
    lines = [
        BEGIN,
        "",
        "## The table",
        "",
        "- date: %s; nextup `%s` at commit %s; Taskwarrior: %s" % (
            info["date"], info["binary"], info["commit"], info["taskwarrior"]),
        "- machine: %s CPUs, %s, %s memory, %s; load average at the start: %s%s" % (
            m["nproc"], m["cpu"], m["memory"], m["os"], m["load"],
            " (**noisy: other work was running**)" if float(m["load"].split()[0]) > 0.5 else ""),
        "- %s timed runs after %s warm-up (%s for whole-set commands at 100,000); the run took %s" % (
            info["runs"], info["warmup"], info["heavy_runs"], info["elapsed"]),
        "",
    ]
    for title, head, body in tables(rows, pairs):
        lines += ["### " + title, "", md_table(head, body), ""]
    lines += ["%d PASS, %d MISS." % (passed, missed), "", END]
    return "\n".join(lines)


def write_markdown(path, rows, pairs, info):
    """Replaces the part between the markers; creates the file if needed."""
    block = markdown(rows, pairs, info)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            text = head + block + rest.split(END, 1)[1]
        else:
            text = text.rstrip("\n") + "\n\n" + block + "\n"
    else:
        text = "# Benchmarks\n\n" + block + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def now_utc():
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
