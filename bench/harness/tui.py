"""The TUI in tmux: start to first screen, key press to screen, a key in the
filter, another process's change and another machine's change on screen, and
keys pressed while a first sync fills the store.

"First screen" is the output that drew the first Next Up task and the count
of the Next Up list. A key's time is to the last
chunk of output of the burst it caused (quiet 60 ms); while a first sync
redraws the counts, a key's time is to the output that drew its own effect
(the help opened or closed). A change's time runs
from the moment the writing command has exited (its change committed, and
for another machine, its log line written to the peer folder, as Syncthing
would deliver it) until the screen shows the new title.
"""

import os
import re
import shlex
import statistics
import threading
import time

from .results import Row, fmt_time
from .tmux import Tmux, TmuxError, tmux_available

SECTION = "TUI"
WIDTH, HEIGHT = 120, 40

FIRST = "start → first screen"
KEY = "key j/k → screen"
KEY_WRITE = "key u (a write) → screen"
FILTER = "key in the filter → screen"
LOCAL = "another process's change → screen"
PEER = "another machine's change → screen, from its log's arrival"
DURING_CLI = "keys while `nextup sync` fills the store: slowest"
DURING_OWN = "keys while the TUI's own first sync runs: slowest"

# Typed one key at a time after `/`, each followed by one Backspace (which
# widens the filter again): ASCII words, Unicode case folding (`STRASSE`
# matches "Straße"), a category: 28 timed keys.
FILTER_TEXTS = ["report", "STRASSE", "cat:home fix"]
COUNTS = re.compile(r"Next Up (\d+) · Backlog (\d+)")
# The help's first line ("?" opens it, any key closes it), and the overlay
# of other machines' changes a TUI shows at start until a key is pressed.
HELP = "any key closes this help"
AWAY = "While you were away"


def budgets(n):
    b = {LOCAL: 0.050, PEER: 0.300}
    if n == 100_000:
        b.update({FIRST: 0.250, KEY: 0.033, KEY_WRITE: 0.033, FILTER: 0.050, DURING_CLI: 0.100, DURING_OWN: 0.100})
    return b


def first_word(title):
    return (title or "").split(" ")[0][:8]


def run(ctx, n, store, plan, keys=30, changes=20, replica=None):
    """`replica`: (store A, store B, peer folder) from the sync section, or None."""
    if not tmux_available():
        return [Row(SECTION, n, "TUI").failed("tmux is not installed")]
    b = budgets(n)
    rows = []
    tmux = Tmux("nextup-bench-%d" % os.getpid(), WIDTH, HEIGHT, ctx.env)
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "NO_COLOR": "1",
           "HOME": ctx.env["HOME"], "XDG_CONFIG_HOME": ctx.env["XDG_CONFIG_HOME"]}
    target_id = plan["next_ids"][0]
    try:
        rows.append(first_screen(ctx, tmux, n, store, env, plan, b.get(FIRST)))
        if rows[-1].status == "error":
            return rows
        rows.append(key_latency(tmux, Row(SECTION, n, KEY, b.get(KEY)), ["j", "k"] * (keys // 2)))
        rows.append(key_latency(tmux, Row(SECTION, n, KEY_WRITE, b.get(KEY_WRITE)), ["u"] * (3 * max(1, keys // 6))))
        rows.append(filter_latency(tmux, Row(SECTION, n, FILTER, b.get(FILTER)), FILTER_TEXTS))
        rows.append(propagation(ctx, tmux, Row(SECTION, n, LOCAL, b.get(LOCAL)), changes,
                                lambda i: ctx.nextup("edit", target_id, "--title", "Live local %d" % i,
                                                     "--store", store), "Live local %d"))
        quit(tmux)
        if replica is None:
            return rows
        a, b_store, peer = replica
        want = int(plan_open(ctx, a))
        # Before A's edits below, so that the first syncs read A's log as the sync section did.
        rows.append(keys_during_first_sync(ctx, tmux, Row(SECTION, n, DURING_CLI, b.get(DURING_CLI)), env, peer,
                                           want, own=False))
        rows.append(keys_during_first_sync(ctx, tmux, Row(SECTION, n, DURING_OWN, b.get(DURING_OWN)), env, peer,
                                           want, own=True))
        start = tmux.respawn(ctx.nextup("--store", b_store, "--peer", peer), env)
        tmux.wait_quiet(start, 0.3, ctx.cap)
        publish = ctx.nextup("sync", "--store", a, "--peer", peer)
        rows.append(propagation(ctx, tmux, Row(SECTION, n, PEER, b.get(PEER)), changes,
                                lambda i: ctx.nextup("edit", target_id, "--title", "Live peer %d" % i,
                                                     "--store", a, "--peer", peer),
                                "Live peer %d", publish=publish, peer=peer))
        quit(tmux)
    except TmuxError as e:
        rows.append(Row(SECTION, n, "TUI").failed(str(e)))
    finally:
        tmux.close()
    return rows


def plan_open(ctx, store):
    out = ctx.path("tui-count.txt")
    ctx.run(ctx.nextup("count", "--store", store), stdout=out)
    with open(out, encoding="utf-8") as f:
        return f.read().strip() or "0"


def quit(tmux):
    tmux.send("send-keys -t bench q")
    deadline = time.perf_counter() + 10.0
    while tmux.pane("#{pane_dead}") != "1" and time.perf_counter() < deadline:
        time.sleep(0.02)


def first_screen(ctx, tmux, n, store, env, plan, budget):
    """The median over several starts; the last start stays open."""
    row = Row(SECTION, n, FIRST, budget)
    expect = first_word(plan["first_next_title"])
    times = []
    starts = ctx.runs_for(n, heavy=True)
    for i in range(starts):
        if i:
            quit(tmux)
        start = tmux.respawn(ctx.nextup("--store", store), env)
        drawn = tmux.wait_for(lambda screen: expect in screen and next_up_count(screen) == plan["next_up"],
                              start, ctx.cap)
        if drawn is None:
            return row.failed("the TUI did not show the first Next Up task (%r) and %d in Next Up within %d s"
                              % (expect, plan["next_up"], ctx.cap))
        times.append(drawn - start)
        tmux.wait_quiet(start, 0.3, ctx.cap)
    times.sort()
    row.note = "median of %d starts: %s–%s" % (starts, fmt_time(times[0]), fmt_time(times[-1])) if starts > 1 else "1 start"
    return row.judge(statistics.median(times))


def press(tmux, key, timeout=3.0):
    """Sends a key once the screen is quiet; the seconds to its screen, or None."""
    tmux.settle(0.1, 1.0)
    t0 = time.perf_counter()
    tmux.send("send-keys -t bench %s" % key)
    last = tmux.wait_quiet(t0, 0.06, timeout)
    return None if last is None else last - t0


def toggle_help(screen):
    """The key that changes what `screen` shows, and what it then shows: an
    overlay closes at Escape, else `?` opens the help."""
    for overlay in (AWAY, HELP):
        if overlay in screen:
            return "Escape", lambda after, overlay=overlay: overlay not in after
    return "?", lambda after: HELP in after


def press_for(tmux, choose, timeout=3.0):
    """Once the screen is quiet, sends the key `choose(screen)` names; the
    key and the seconds to the output that drew its effect, or None. (The
    screen may keep changing for other reasons, as during a sync: those
    are not the key's.)"""
    tmux.settle(0.1, 1.0)
    key, shows = choose(tmux.screen())
    t0 = time.perf_counter()
    tmux.send("send-keys -t bench %s" % key)
    seen = tmux.wait_for(shows, t0, timeout)
    return key, None if seen is None else seen - t0


def key_latency(tmux, row, keys):
    times = []
    for key in keys:
        t = press(tmux, key)
        if t is None:
            return row.failed("no redraw within 3 s of key %r" % key)
        times.append(t)
    return row.latencies(times)


def filter_latency(tmux, row, texts):
    """Opens the filter (`/`, untimed), types each text one key at a time
    and then one Backspace, timing each key to its screen; then Esc closes
    the prompt and clears the filter (untimed). The selection moved with the
    filter (and the focus may have moved to the Backlog), so `g`, Tab, `g`
    take both panes back to the top for what follows."""
    times = []
    for text in texts:
        press(tmux, "/", 0.5)
        for key in ["-l %s" % shlex.quote(ch) for ch in text] + ["BSpace"]:
            t = press(tmux, key)
            if t is None:
                return row.failed("no redraw within 3 s of key %s in the filter" % key)
            times.append(t)
        press(tmux, "Escape", 0.5)
    for key in ("g", "Tab", "g"):
        press(tmux, key, 0.5)
    return row.latencies(times)


def propagation(ctx, tmux, row, changes, argv_for, title, publish=None, peer=None):
    times = []
    for i in range(changes):
        # Each change on its own, as a person makes them: the watcher
        # coalesces a change that follows the last signal within its quiet
        # period (150 ms) into a storm, which this row does not time.
        time.sleep(0.4)
        before = log_sizes(peer)
        s = ctx.run(argv_for(i))
        if not s.ok:
            return row.failed("the writing command failed: %s" % s.stderr)
        if publish and log_sizes(peer) == before:
            # The edit did not publish by itself: a sync of the writer does.
            s = ctx.run(publish)
            if not s.ok:
                return row.failed("sync of the writer failed: %s" % s.stderr)
        t0 = time.perf_counter()
        seen = tmux.wait_for_text(title % i, t0, 10.0)
        if seen is None:
            return row.failed("change %d did not show within 10 s" % i)
        times.append(seen - t0)
    return row.latencies(times)


def keys_during_first_sync(ctx, tmux, row, env, peer, want_open, own):
    """A TUI open on an empty store while the peer folder's log fills it:
    `nextup sync` in another process (own=False), or the TUI's own sync
    engine (own=True, the TUI started with the peer folder). `?` (the help
    opens) and Escape (it, or the overlay of changes shown at start, closes)
    are pressed in turn, and timed, over and over until the screen counts
    every open task, and five times more. Each key is timed to the output
    that drew its effect (the sync's own redraws that follow are not the
    key's). Judged on the slowest key."""
    store = ctx.fresh_dir("tui-sync", "own" if own else "cli")
    start = tmux.respawn(ctx.nextup("--store", store, *(["--peer", peer] if own else [])), env)
    if tmux.wait_quiet(start, 0.3 if not own else 0.05, ctx.cap) is None:
        return row.failed("the TUI drew nothing within %d s" % ctx.cap)
    # Keys typed before the lists are first drawn could reach the terminal before the TUI reads it.
    if tmux.wait_for(lambda screen: COUNTS.search(screen) is not None, start, ctx.cap) is None:
        return row.failed("the TUI drew no lists within %d s" % ctx.cap)
    began = time.perf_counter()
    synced = []
    if not own:
        sync = threading.Thread(target=lambda: synced.append(
            ctx.run(ctx.nextup("sync", "--store", store, "--peer", peer))))
        sync.start()
    times, shown, after = [], None, 0
    while after < 5:
        key, t = press_for(tmux, toggle_help)
        if t is None:
            return row.failed("no answer on screen within 3 s of %s, %d keys into the sync" % (key, len(times)))
        times.append(t)
        if shown is None and shows(tmux.screen(), want_open):
            shown = time.perf_counter() - began
        if shown is not None:
            after += 1
        elif time.perf_counter() - began > ctx.cap:
            return row.failed("the screen did not count %d open tasks within %d s" % (want_open, ctx.cap))
    if not own:
        sync.join()
        if not synced[0].ok:
            return row.failed("nextup sync failed: %s" % synced[0].stderr)
    quit(tmux)
    row.note = "every task on screen %.1f s after the sync began" % shown
    return row.latencies(times, judged_on="max")


def shows(screen, want_open):
    m = COUNTS.search(screen)
    return bool(m) and int(m.group(1)) + int(m.group(2)) == want_open


def next_up_count(screen):
    m = COUNTS.search(screen)
    return int(m.group(1)) if m else None


def log_sizes(folder):
    if not folder:
        return None
    return sorted((f, os.path.getsize(os.path.join(folder, f))) for f in os.listdir(folder))
