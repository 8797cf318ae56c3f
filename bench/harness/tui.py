"""The TUI (issue 4) in tmux: start to first full screen, key press to
redrawn screen, peak RSS, and live propagation from another process on the
same store and from another replica through the peer folder — also of the
first change another replica publishes right after the TUI starts, while its
start-up reconcile runs.

"First full screen" is the last chunk of output before the screen went quiet
for 300 ms, provided the screen then shows the first Next Up task. "Redrawn"
is the last chunk of output of the burst a key press caused (quiet 60 ms).
A key in the filter (`/`, then typing) is timed the same way; each key
narrows or widens the lists, which must be redrawn.
Propagation is timed from the moment the writing command has exited (its
change is committed, and published to its log) until the other screen shows
the new title. The first change after start: the TUI is started afresh each
time, and the other replica's edit is made and published the moment the TUI
is launched; timed, as above, from the end of that publish.
"""

import os
import shlex
import time

from .measure import percentile
from .results import Row
from .tmux import Tmux, TmuxError, peak_rss_kb, tmux_available

SECTION = "TUI"
WIDTH, HEIGHT = 120, 40


def targets_for(n):
    if n < 100_000:
        return {"live": 1.0}  # p95 of propagation: the target holds at every size
    return {"first": 0.200, "key": 0.016, "filter": 0.050, "rss": 100 * 1024, "live": 1.0}


# Typed one key at a time after `/`, each followed by one Backspace (which
# widens the filter again): ASCII words, Unicode case folding (`STRASSE`
# matches "Straße"), a category. 27 timed keys.
FILTER_TEXTS = ["report", "STRASSE", "cat:home fix"]

NAMES = ["start → first full screen", "key j/k → redrawn screen", "key u (write + reload) → redrawn screen",
         "key in the filter → redrawn screen", "peak RSS", "live: other process, same store (p50 / p95)", "live: other replica via peer folder (p50 / p95)"]


def first_change_name(starts):
    return "live: first peer change after start (p50 / p95 over %d starts)" % starts


def unavailable_rows(n, reason, starts=20):
    return [Row(SECTION, n, name).unavailable(reason) for name in NAMES + [first_change_name(starts)]]


def first_word(title):
    return (title or "").split(" ")[0][:8]


def run(ctx, n, store, plan, keys=30, changes=20, replica=None, starts=20):
    """`replica`: (store A, store B, peer folder) from the sync section, or a
    reason why there is none. `starts`: TUI starts timed for the first peer
    change after start."""
    if not tmux_available():
        return unavailable_rows(n, "tmux is not installed", starts)
    t = targets_for(n)
    rows = []
    tmux = Tmux("nextup-bench-%d" % os.getpid(), WIDTH, HEIGHT, ctx.env)
    try:
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "NO_COLOR": "1",
               "HOME": ctx.env["HOME"], "XDG_CONFIG_HOME": ctx.env["XDG_CONFIG_HOME"]}
        start = tmux.respawn(ctx.nextup("--store", store), env)
        last = tmux.wait_quiet(start, 0.3, ctx.cap)
        dead = tmux.pane("#{pane_dead}") == "1"
        if dead:
            return unavailable_rows(n, "`nextup` with no subcommand exits at once (no TUI in this build)", starts)
        screen = tmux.screen()
        if last is None:
            return unavailable_rows(n, "the TUI drew nothing within %d s" % ctx.cap, starts)
        expect = first_word(plan["first_next_title"])
        first = Row(SECTION, n, "start → first full screen", t.get("first"))
        if expect and expect not in screen:
            rows.append(first.failed("the first screen does not show the first Next Up task (%r)" % expect))
        else:
            first.value = last - start
            rows.append(first.judge(first.value))
        pid = int(tmux.pane("#{pane_pid}") or 0)

        rows.append(key_latency(tmux, n, "key j/k → redrawn screen", ["j", "k"] * (keys // 2), t.get("key")))
        rows.append(key_latency(tmux, n, "key u (write + reload) → redrawn screen", ["u"] * (3 * max(1, keys // 6)),
                                t.get("key")))
        rows.append(filter_latency(tmux, n, "key in the filter → redrawn screen", FILTER_TEXTS, t.get("filter")))

        rss = Row(SECTION, n, "peak RSS", t.get("rss"), unit="KiB")
        rss.extra["rss_kb"] = peak_rss_kb(pid)
        rows.append(rss.judge(rss.extra["rss_kb"]) if rss.extra["rss_kb"] else rss.failed("no /proc status"))

        target_id = plan["next_ids"][0] if plan["next_ids"] else None
        rows.append(propagation(ctx, tmux, n, "live: other process, same store (p50 / p95)", changes, t.get("live"),
                                lambda i: ctx.nextup("edit", target_id, "--title", "Live local %d" % i,
                                                     "--store", store),
                                "Live local %d"))
        tmux.send("send-keys -t bench q")
        time.sleep(0.2)

        name = "live: other replica via peer folder (p50 / p95)"
        if not isinstance(replica, tuple):
            rows.append(Row(SECTION, n, name).unavailable(replica or "no synced replicas"))
            rows.append(Row(SECTION, n, first_change_name(starts)).unavailable(replica or "no synced replicas"))
        else:
            a, b, peer = replica
            start = tmux.respawn(ctx.nextup("--store", b, "--peer", peer), env)
            tmux.wait_quiet(start, 0.3, ctx.cap)
            rows.append(propagation(ctx, tmux, n, name, changes, t.get("live"),
                                    lambda i: ctx.nextup("edit", target_id, "--title", "Live peer %d" % i,
                                                         "--store", a, "--peer", peer),
                                    "Live peer %d", publish=ctx.nextup("sync", "--store", a, "--peer", peer),
                                    peer=peer))
            tmux.send("send-keys -t bench q")
            time.sleep(0.2)
            rows.append(first_change_after_start(ctx, tmux, n, starts, t.get("live"), env, replica, target_id))
    except TmuxError as e:
        rows.append(Row(SECTION, n, "TUI").failed(str(e)))
    finally:
        tmux.close()
    return rows


def key_latency(tmux, n, name, keys, target):
    row = Row(SECTION, n, name, target)
    times = []
    for key in keys:
        tmux.wait_quiet(time.perf_counter(), 0.1, 1.0)
        t0 = time.perf_counter()
        tmux.send("send-keys -t bench %s" % key)
        last = tmux.wait_quiet(t0, 0.06, 3.0)
        if last is None:
            return row.failed("no redraw within 3 s of key %r" % key)
        times.append(last - t0)
    latencies(row, times)
    return row.judge(row.value)


def filter_latency(tmux, n, name, texts, target):
    """Opens the filter (`/`, untimed), types each text one key at a time
    and then one Backspace, timing each key to its redrawn screen; then Esc
    closes the prompt and clears the filter (untimed). The selection moved
    with the filter (and the focus may have moved to the Backlog), so `g`,
    Tab, `g` take both panes back to the top for the rows after."""
    row = Row(SECTION, n, name, target)
    times = []

    def press(args, timed):
        tmux.wait_quiet(time.perf_counter(), 0.1, 1.0)
        t0 = time.perf_counter()
        tmux.send("send-keys -t bench %s" % args)
        last = tmux.wait_quiet(t0, 0.06, 3.0 if timed else 0.5)
        if timed:
            if last is None:
                raise TmuxError("no redraw within 3 s of key %s in the filter" % args)
            times.append(last - t0)

    try:
        for text in texts:
            press("/", False)
            for ch in text:
                press("-l %s" % shlex.quote(ch), True)
            press("BSpace", True)
            press("Escape", False)
        for key in ("g", "Tab", "g"):
            press(key, False)
    except TmuxError as e:
        return row.failed(str(e))
    latencies(row, times)
    return row.judge(row.extra["p95"])


def latencies(row, times):
    row.value = percentile(times, 50)
    row.extra["min"], row.extra["max"] = min(times), max(times)
    row.extra["p95"] = percentile(times, 95)
    row.extra["count"] = len(times)
    return row


def propagation(ctx, tmux, n, name, changes, target, argv_for, title, publish=None, peer=None):
    row = Row(SECTION, n, name, target)
    times = []
    for i in range(changes):
        before = log_sizes(peer)
        s = ctx.launcher.run(argv_for(i), env=ctx.env, timeout=ctx.cap)
        if not s.ok:
            return row.failed("the writing command failed: %s" % s.stderr)
        if publish and log_sizes(peer) == before:
            # The edit did not publish by itself: a sync of the writer does.
            s = ctx.launcher.run(publish, env=ctx.env, timeout=ctx.cap)
            if not s.ok:
                return row.failed("sync of the writer failed: %s" % s.stderr)
        t0 = time.perf_counter()
        seen = tmux.wait_for_text(title % i, t0, 10.0)
        if seen is None:
            return row.failed("change %d did not show within 10 s" % i)
        times.append(seen - t0)
    latencies(row, times)
    return row.judge(row.extra["p95"])


def first_change_after_start(ctx, tmux, n, starts, target, env, replica, target_id):
    """Starts the TUI on B `starts` times; each time, the moment it is
    launched, A edits a task on B's first screen and publishes it; the time is
    from the end of that publish until B's screen shows the new title."""
    a, b, peer = replica
    row = Row(SECTION, n, first_change_name(starts), target)
    times = []
    for i in range(starts):
        title = "Start peer %d" % i
        tmux.respawn(ctx.nextup("--store", b, "--peer", peer), env)
        before = log_sizes(peer)
        s = ctx.launcher.run(ctx.nextup("edit", target_id, "--title", title, "--store", a, "--peer", peer),
                             env=ctx.env, timeout=ctx.cap)
        if not s.ok:
            return row.failed("the writing command failed: %s" % s.stderr)
        if log_sizes(peer) == before:
            s = ctx.launcher.run(ctx.nextup("sync", "--store", a, "--peer", peer), env=ctx.env, timeout=ctx.cap)
            if not s.ok:
                return row.failed("sync of the writer failed: %s" % s.stderr)
        t0 = time.perf_counter()
        seen = tmux.wait_for_text(title, t0, 10.0)
        if seen is None:
            return row.failed("the change after start %d did not show within 10 s" % (i + 1))
        times.append(seen - t0)
        tmux.send("send-keys -t bench q")
        deadline = time.perf_counter() + 10.0
        while tmux.pane("#{pane_dead}") != "1" and time.perf_counter() < deadline:
            time.sleep(0.02)
    latencies(row, times)
    return row.judge(row.extra["p95"])


def log_sizes(folder):
    if not folder:
        return None
    return sorted((f, os.path.getsize(os.path.join(folder, f))) for f in os.listdir(folder))
