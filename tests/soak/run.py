#!/usr/bin/env python3
"""The soak (`make soak`, SOAK_MINUTES, default 10): two machines, each a
nextup store behind its own Syncthing instance (tests/syncthing/cluster.py),
each with a TUI open in tmux and `nextup sync --watch` running, under random
edits from the shell on both and random keys in both TUIs for N minutes.

At the end: the stores are equal, every field holds its latest write (the
oracle of tests/syncthing/run.py), no process died, memory is flat (resident
and peak RSS at the start and the end) and no file descriptors leaked. The
figures go to docs/benchmarks.md (between soak markers) with --doc.
"""

import argparse
import datetime
import os
import platform
import random
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "syncthing"))

from cluster import Cluster, HarnessError, Tmux, wait_for, write_doc_section  # noqa: E402
import run as st  # noqa: E402

TUI_KEYS = ["j", "j", "k", "g", "G", "Tab", "u", "i", "n", "J", "K"]


def proc_figures(pid):
    """Resident and peak RSS (KiB) and open descriptors of a live process."""
    rss = hwm = None
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return {"rss_kib": rss, "peak_kib": hwm, "fds": fds}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default=os.path.join(REPO, ".build/debug/nextup"))
    p.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", "10")))
    p.add_argument("--work", default="/tmp/nextup-soak")
    p.add_argument("--doc", help="write the figures to this Markdown file (between soak markers)")
    p.add_argument("--seed", type=int, default=15)
    a = p.parse_args(argv)
    binary = os.path.abspath(a.bin)
    rng = random.Random(a.seed)
    tmux = Tmux(f"nextup-soak-{os.getpid()}")
    cluster = Cluster(os.path.join(a.work, "cluster"), 2, binary)
    failures = []
    try:
        print(f"soak: {a.minutes:g} minutes, two machines over Syncthing, a TUI and sync --watch on each", flush=True)
        cluster.start()
        writes = st.Writes()
        pool = st.seed_pool(cluster, 30, next_up=10)
        results = {}
        st.settle(cluster, "seeded 30 tasks", results)
        tuis = {}
        for r in cluster.replicas:
            tuis[r.name] = tmux.open_tui(r.name, r)
            wait_for(f"the TUI of {r.name}", lambda r=r: "shared task" in tmux.screen(r.name), 60)
        watched = {f"TUI {n}": pid for n, pid in tuis.items()}
        watched.update({f"sync --watch {r.name}": r.watch.pid for r in cluster.replicas})

        stop = threading.Event()
        editors = [st.Editor(r, i, writes, pool, random.Random(a.seed * 10 + i)) for i, r in enumerate(cluster.replicas)]

        def edit(ed):
            while not stop.is_set():
                try:
                    ed.random_op()
                except Exception as e:  # noqa: BLE001 — reported below
                    ed.failures.append(repr(e))
                    return
                stop.wait(ed.rng.uniform(0.05, 0.4))

        threads = [threading.Thread(target=edit, args=(ed,)) for ed in editors]
        for t in threads:
            t.start()
        started = time.monotonic()
        deadline = started + a.minutes * 60
        warmup = min(30.0, a.minutes * 60 / 5)
        first = last = None
        samples = []
        keys = 0
        next_sample = started + warmup
        while time.monotonic() < deadline:
            name = rng.choice(list(tuis))
            tmux.keys(name, rng.choice(TUI_KEYS))
            keys += 1
            if time.monotonic() >= next_sample:
                for label, pid in watched.items():
                    try:
                        fig = proc_figures(pid)
                    except OSError:
                        raise HarnessError(f"{label} (pid {pid}) is no longer running")
                    samples.append((round(time.monotonic() - started), label, fig))
                    if first is None or label not in first:
                        first = first or {}
                        first[label] = fig
                next_sample += 30
            time.sleep(rng.uniform(0.1, 0.5))
        stop.set()
        for t in threads:
            t.join()
        for ed in editors:
            if ed.failures:
                failures.append(f"{ed.r.name}: " + "; ".join(ed.failures[:3]))
        edits = sum(ed.ops for ed in editors)
        took, tasks = cluster.settle(timeout=300)
        last = {}
        for label, pid in watched.items():
            try:
                last[label] = proc_figures(pid)
            except OSError:
                failures.append(f"{label} died during the soak")
        checked = writes.verify(tasks)
        for ed in editors:
            for tid in ed.new_tasks:
                if tid not in tasks:
                    failures.append(f"task {tid} added on {ed.r.name} was lost")
        for n in tuis:
            if "shared task" not in tmux.screen(n) and "added on" not in tmux.screen(n):
                failures.append(f"the TUI of {n} no longer shows the tasks: {tmux.screen(n)[:400]}")
        rows = []
        for label in watched:
            s, e = first.get(label), last.get(label)
            if not s or not e:
                continue
            rows.append(f"| {label} | {s['rss_kib'] / 1024:.1f} | {e['rss_kib'] / 1024:.1f} | {s['peak_kib'] / 1024:.1f} "
                        f"| {e['peak_kib'] / 1024:.1f} | {s['fds']} | {e['fds']} |")
            if e["fds"] > s["fds"] + 3:
                failures.append(f"{label}: file descriptors grew from {s['fds']} to {e['fds']}")
            if e["rss_kib"] > max(s["rss_kib"] * 1.5, s["rss_kib"] + 30 * 1024):
                failures.append(f"{label}: resident memory grew from {s['rss_kib']} KiB to {e['rss_kib']} KiB")
        report = "\n".join([
            f"### Soak ({datetime.date.today().isoformat()}, {platform.node() or 'this machine'}, "
            f"{os.cpu_count()} cores, `make soak SOAK_MINUTES={a.minutes:g}`)",
            "",
            f"Two machines, each a store behind its own Syncthing instance, a TUI in tmux and `sync --watch`; "
            f"{edits} random shell edits and {keys} random TUI keys over {a.minutes:g} minutes. At the end the "
            f"stores were equal after {took:.1f} s, {checked} fields and tags held their latest write"
            f"{', and nothing else failed' if not failures else ''}. "
            f"Memory and descriptors after a {warmup:.0f} s warm-up and at the end (debug build unless stated):",
            "",
            "| process | RSS start MiB | RSS end MiB | peak start MiB | peak end MiB | fds start | fds end |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ])
        print(report, flush=True)
        if failures:
            print("FAIL:\n  " + "\n  ".join(failures), file=sys.stderr)
            return 1
        if a.doc:
            write_doc_section(a.doc, "soak", report)
            print(f"(written to {a.doc})")
        return 0
    except (HarnessError, st.Failure) as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    finally:
        tmux.kill()
        cluster.close()
        shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
