"""A tmux server on its own socket, driven through one control-mode client.

Control mode (`tmux -C`) reports every chunk a pane writes as a `%output`
line the moment tmux reads it, and takes commands (`capture-pane`,
`send-keys`) without starting a process each time, so screen latencies can be
read to about a millisecond.
"""

import queue
import shlex
import subprocess
import threading
import time


class TmuxError(Exception):
    pass


class Tmux:
    def __init__(self, socket, width, height, env):
        self.base = ["tmux", "-L", socket, "-f", "/dev/null"]
        self.env = env
        subprocess.run(self.base + ["kill-server"], env=env, capture_output=True)
        r = subprocess.run(self.base + ["new-session", "-d", "-s", "bench", "-x", str(width), "-y", str(height),
                                        "sleep 100000"], env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise TmuxError("tmux new-session failed: %s" % r.stderr.strip())
        for option in (["set", "-g", "window-size", "manual"], ["set", "-g", "remain-on-exit", "on"],
                       ["set", "-g", "status", "off"]):
            subprocess.run(self.base + option, env=env, capture_output=True)
        self.proc = subprocess.Popen(self.base + ["-C", "attach", "-t", "bench"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.replies = queue.Queue()
        self.lock = threading.Condition()
        self.output_times = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.command("resize-window -t bench -x %d -y %d" % (width, height))

    def _read(self):
        block = None
        for raw in self.proc.stdout:
            now = time.perf_counter()
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if block is not None:
                if line.startswith("%end") or line.startswith("%error"):
                    self.replies.put((line.startswith("%error"), block))
                    block = None
                else:
                    block.append(line)
            elif line.startswith("%begin"):
                block = []
            elif line.startswith("%output"):
                with self.lock:
                    self.output_times.append(now)
                    self.lock.notify_all()
        self.replies.put((True, ["control client ended"]))

    def command(self, cmd, timeout=10.0):
        """Sends one tmux command; returns its output lines."""
        marker = "bench-%d" % time.monotonic_ns()
        self.proc.stdin.write((cmd + "\n" + "display -p %s\n" % marker).encode())
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        result = None
        while True:
            try:
                error, lines = self.replies.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise TmuxError("tmux did not answer %r" % cmd)
            if lines == [marker]:
                break
            if error and lines == ["control client ended"]:
                raise TmuxError("the tmux control client ended")
            if error:
                raise TmuxError("tmux %r: %s" % (cmd, " ".join(lines)))
            result = lines
        return result or []

    def send(self, cmd):
        """Sends a command without waiting (the reply is collected later)."""
        self.proc.stdin.write((cmd + "\n").encode())
        self.proc.stdin.flush()

    def respawn(self, argv, env):
        """Replaces the pane's process with argv (exec'd, so its pid is the pane's)."""
        words = ["exec", "env"] + ["%s=%s" % kv for kv in sorted(env.items())] + list(argv)
        cmd = "respawn-pane -k -t bench " + shlex.quote(" ".join(shlex.quote(w) for w in words))
        start = time.perf_counter()
        self.send(cmd)
        return start

    def screen(self):
        return "\n".join(self.command("capture-pane -p -t bench"))

    def pane(self, fmt):
        lines = self.command("display -p -t bench '%s'" % fmt)
        return lines[0] if lines else ""

    def wait_quiet(self, since, quiet, timeout):
        """Waits for output after `since`, then for `quiet` seconds without
        any. Returns the time of the last output, or None if none came."""
        deadline = time.perf_counter() + timeout
        with self.lock:
            while True:
                after = [t for t in self.output_times if t >= since]
                now = time.perf_counter()
                if after and now - after[-1] >= quiet:
                    return after[-1]
                if now >= deadline:
                    return after[-1] if after else None
                wait = quiet - (now - after[-1]) if after else deadline - now
                self.lock.wait(timeout=max(0.001, min(wait, deadline - now)))

    def settle(self, quiet, timeout):
        """Waits until the pane has written nothing for `quiet` seconds (at
        most `timeout` seconds)."""
        deadline = time.perf_counter() + timeout
        with self.lock:
            while True:
                now = time.perf_counter()
                idle = now - self.output_times[-1] if self.output_times else quiet
                if idle >= quiet or now >= deadline:
                    return
                self.lock.wait(timeout=max(0.001, min(quiet - idle, deadline - now)))

    def wait_for(self, shows, since, timeout):
        """Captures the screen after each output until `shows(screen)`;
        returns the time of the last output before that capture (the
        output that drew it), or None after `timeout` seconds."""
        deadline = time.perf_counter() + timeout
        seen = 0
        while time.perf_counter() < deadline:
            with self.lock:
                if len(self.output_times) == seen:
                    self.lock.wait(timeout=0.02)
                seen = len(self.output_times)
                asked = time.perf_counter()
            if shows(self.screen()):
                with self.lock:
                    drawn = [t for t in self.output_times if since <= t <= asked]
                return drawn[-1] if drawn else asked
        return None

    def wait_for_text(self, text, since, timeout):
        return self.wait_for(lambda screen: text in screen, since, timeout)

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        subprocess.run(self.base + ["kill-server"], env=self.env, capture_output=True)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def tmux_available():
    try:
        return subprocess.run(["tmux", "-V"], capture_output=True).returncode == 0
    except OSError:
        return False

