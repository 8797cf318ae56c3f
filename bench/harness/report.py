"""The results table: printed, and written into docs/benchmarks.md between
two markers (text outside them — the analysis of each MISS — is kept)."""

import os
import platform
import subprocess
import time

from .results import fmt_bytes, fmt_n, fmt_rss, fmt_target, fmt_time
from .taskwarrior import IN_TURN, PAIRS, RATIO_AT

BEGIN = "<!-- bench:begin (written by `make bench`; edit outside these markers) -->"
END = "<!-- bench:end -->"
RATIO_TARGET = 5.0


def machine():
    """nproc, CPU model, memory, OS, load: what the figures depend on."""
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = "%.1f GiB" % (kb / 1024 / 1024)
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
    """median, min, max, CPU, RSS, target, result, note."""
    if row.error and not row.stats and row.value is None:
        return ["—", "—", "—", "—", "—", fmt_target(row), row.status, row.error]
    if row.unit == "KiB":
        return ["—", "—", "—", "—", fmt_rss(row.extra.get("rss_kb")), fmt_target(row), row.status, row.note]
    if row.unit == "B":
        return [fmt_bytes(row.value), "—", "—", "—", "—", fmt_target(row), row.status, row.note]
    if row.stats:
        s = row.stats
        note = row.note or ("%d runs" % len(s.samples))
        return [fmt_time(s.median), fmt_time(s.min), fmt_time(s.max), fmt_time(s.cpu), fmt_rss(s.rss_kb),
                fmt_target(row), row.status, note]
    note = ("%d samples" % row.extra["count"]) if "count" in row.extra else row.note
    if "p95" in row.extra:
        note = "p95 %s, %s" % (fmt_time(row.extra["p95"]), note)
    return [fmt_time(row.value), fmt_time(row.extra.get("min")), fmt_time(row.extra.get("max")), "—", "—",
            fmt_target(row), row.status, note]


HEAD = ["tasks", "measurement", "median", "min", "max", "CPU", "peak RSS", "target", "result", "note"]
RATIO_HEAD = ["tasks", "nextup", "Taskwarrior", "runs", "nextup median", "Taskwarrior median", "how many × faster",
              "× in CPU time",
              "≥ %d× at %s" % (RATIO_TARGET, fmt_n(RATIO_AT))]


def tables(rows):
    """[(title, head, body rows)]."""
    out = []
    titles = {"command line": "Command line", "sync": "Sync", "phone bridge": "Phone bridge (vdir)", "TUI": "TUI",
              "Taskwarrior": "Taskwarrior 2.6",
              IN_TURN: "Side by side at %s tasks (nextup's and Taskwarrior's runs taken in turn)" % fmt_n(RATIO_AT)}
    for section, title in titles.items():
        body = [[fmt_n(r.n), r.name] + cells(r) for r in rows if r.section == section]
        if body:
            out.append((title, HEAD, body))
    ratio = ratio_rows(rows)
    if ratio:
        out.append(("nextup against Taskwarrior 2.6 (medians)", RATIO_HEAD, ratio))
    return out


def ratio_rows(rows):
    by = {(r.section, r.n, r.name): r for r in rows if r.section != IN_TURN}
    turns = {(r.n, r.extra["pair"], r.name): r for r in rows if r.section == IN_TURN}
    body = []
    for n in sorted({r.n for r in rows if r.section == "Taskwarrior"}):
        for mine, theirs in PAIRS:
            # A pair measured in turn is judged on those runs; the sections'
            # own runs are minutes apart.
            a, b = turns.get((n, mine, mine)), turns.get((n, mine, theirs))
            runs = "in turn"
            if not (a and b and a.stats and b.stats):
                a, b = by.get(("command line", n, mine)), by.get(("Taskwarrior", n, theirs))
                runs = "each in its section"
            if not a or not b:
                continue
            if a.stats and b.stats:
                ratio = b.stats.median / a.stats.median
                verdict = ("PASS" if ratio >= RATIO_TARGET else "MISS") if n == RATIO_AT else "—"
                cpu = ("%.1f×" % (b.stats.cpu / a.stats.cpu)) if a.stats.cpu and b.stats.cpu else "—"
                body.append([fmt_n(n), mine, theirs, runs, fmt_time(a.stats.median), fmt_time(b.stats.median),
                             "%.1f×" % ratio, cpu, verdict])
            elif a.stats and b.capped:
                body.append([fmt_n(n), mine, theirs, runs, fmt_time(a.stats.median), b.error,
                             "> %.0f×" % (b.capped / a.stats.median), "—", "—"])
            else:
                body.append([fmt_n(n), mine, theirs, runs, fmt_time(a.median) if a.stats else a.status,
                             b.error or b.status, "—", "—", "—"])
    return body


def text_table(head, body):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    line = lambda cols: "  ".join(str(c).ljust(w) for c, w in zip(cols, widths)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in body])


def md_table(head, body):
    esc = lambda c: str(c).replace("|", "\\|")
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in body]
    return "\n".join(out)


def print_tables(rows, log=print):
    for title, head, body in tables(rows):
        log("\n== %s ==" % title)
        log(text_table(head, body))


def markdown(rows, info):
    m = info["machine"]
    lines = [
        BEGIN,
        "",
        "## Results",
        "",
        "- date: %s" % info["date"],
        "- machine: %s CPUs (`nproc`), %s, %s memory, %s" % (m["nproc"], m["cpu"], m["memory"], m["os"]),
        "- load average when the run started: %s%s" % (m["load"], " — **noisy: other work was running**"
                                                        if float(m["load"].split()[0]) > 0.5 else ""),
        "- nextup: `%s` at commit %s" % (info["binary"], info["commit"]),
        "- Taskwarrior: %s" % info["taskwarrior"],
        "- runs: %s timed runs after %s warm-up (%s for whole-set commands at 100,000); cap %s s per command; "
        "whole run took %s" % (info["runs"], info["warmup"], info["heavy_runs"], info["cap"], info["elapsed"]),
        "- Wall times are judged against the targets; CPU is the median user + system time of the same runs, "
        "a steadier figure when other work shares the cores",
        "- RSS figures: %s" % ("peak resident set of the command itself (wait4 through bench/spawn.c)"
                               if info["exact_rss"] else "upper bounds (no C compiler: timed from Python)"),
        "",
    ]
    for title, head, body in tables(rows):
        lines += ["### " + title, "", md_table(head, body), ""]
    misses = [r for r in rows if r.status == "MISS"]
    ratio_misses = [r for r in ratio_rows(rows) if r[-1] == "MISS"]
    lines += ["MISS: %d against the targets, %d against the 5× ratio (each is analysed below)."
              % (len(misses), len(ratio_misses)), "", END]
    return "\n".join(lines)


def write_markdown(path, rows, info):
    """Replaces the part between the markers; creates the file if needed."""
    block = markdown(rows, info)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            tail = rest.split(END, 1)[1]
            text = head + block + tail
        else:
            text = text.rstrip("\n") + "\n\n" + block + "\n"
    else:
        text = "# Benchmarks\n\n" + block + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def now_utc():
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
