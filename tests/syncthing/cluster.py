"""Real Syncthing instances on 127.0.0.1 and a nextup replica behind each.

Each instance has its own --home, GUI/API address and listen address on ports
picked free, global/local discovery, relays, NAT, usage reporting, crash
reporting and upgrades off, and one folder ("nextup") shared with every other
instance, file watcher on with a 1 s delay and a short rescan. The REST API
(the key comes from config.xml) is used to wait for connections, pause,
resume and rescan, and to decide that the cluster has settled.

Each nextup replica has its own store and uses its own instance's folder as
its peer folder, with `nextup sync --watch` running.
"""

import copy
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

FOLDER_ID = "nextup"
WATCHER_DELAY_S = 1
RESCAN_S = 5


class HarnessError(Exception):
    pass


_ports_handed_out = set()


def free_port():
    """A loopback port free now and not handed out before by this process:
    the kernel may give a port it just gave back again (two instances once
    got the same GUI port, and the second could not start its API)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _ports_handed_out:
            _ports_handed_out.add(port)
            return port


def wait_for(what, predicate, timeout, interval=0.2):
    """Polls `predicate` until it returns a true value; fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (OSError, HarnessError, ValueError) as e:  # a process still starting, a file mid-rename
            value, last = None, e
        if value:
            return value
        time.sleep(interval)
    raise HarnessError(f"timed out after {timeout:.0f} s waiting for {what}" + (f" (last error: {last})" if last else ""))


def _set(parent, tag, text):
    el = parent.find(tag)
    if el is None:
        el = ET.SubElement(parent, tag)
    el.text = str(text)


class Syncthing:
    """One Syncthing process with its own home, ports and shared folder."""

    def __init__(self, root, name):
        self.name = name
        self.home = os.path.join(root, name, "syncthing")
        self.folder = os.path.join(root, name, "Sync")
        self.log_path = os.path.join(root, name, "syncthing.log")
        self.gui_port = free_port()
        self.listen_port = free_port()
        self.proc = None
        os.makedirs(os.path.join(self.folder, ".stfolder"), exist_ok=True)
        # The README's advice: the temp file of a log rewrite is never copied.
        with open(os.path.join(self.folder, ".stignore"), "w") as f:
            f.write(".nextup-*.tmp\n")
        subprocess.run(["syncthing", "generate", f"--home={self.home}", "--no-default-folder", "--skip-port-probing"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run(["syncthing", f"--home={self.home}", "--device-id"], check=True,
                             capture_output=True, text=True).stdout
        self.device_id = out.strip().split()[-1]
        root_el = ET.parse(self.config_path).getroot()
        self.api_key = root_el.find("gui/apikey").text

    @property
    def config_path(self):
        return os.path.join(self.home, "config.xml")

    def configure(self, peers):
        """Writes config.xml: local-only networking and one folder shared with `peers`."""
        tree = ET.parse(self.config_path)
        root = tree.getroot()
        _set(root.find("gui"), "address", f"127.0.0.1:{self.gui_port}")
        opts = root.find("options")
        for tag, value in [("listenAddress", f"tcp://127.0.0.1:{self.listen_port}"),
                           ("globalAnnounceEnabled", "false"), ("localAnnounceEnabled", "false"),
                           ("relaysEnabled", "false"), ("natEnabled", "false"), ("urAccepted", "-1"),
                           ("autoUpgradeIntervalH", "0"), ("startBrowser", "false"),
                           ("crashReportingEnabled", "false"), ("reconnectionIntervalS", "1"),
                           ("setLowPriority", "false")]:
            _set(opts, tag, value)
        mhdf = opts.find("minHomeDiskFree")
        if mhdf is not None:
            mhdf.text = "0"
        for old in root.findall("folder"):
            root.remove(old)
        for p in peers:
            dev = ET.SubElement(root, "device", id=p.device_id, name=p.name, compression="metadata",
                                introducer="false", skipIntroductionRemovals="false", introducedBy="")
            _set(dev, "address", f"tcp://127.0.0.1:{p.listen_port}")
            _set(dev, "autoAcceptFolders", "false")
            _set(dev, "paused", "false")
        # The folder starts from Syncthing's own defaults (maxConflicts 10 and
        # the rest), so that nothing this test does not name differs from a
        # folder a person adds in the GUI.
        folder = copy.deepcopy(root.find("defaults/folder"))
        for key, value in [("id", FOLDER_ID), ("label", FOLDER_ID), ("path", self.folder), ("type", "sendreceive"),
                           ("rescanIntervalS", str(RESCAN_S)), ("fsWatcherEnabled", "true"),
                           ("fsWatcherDelayS", str(WATCHER_DELAY_S))]:
            folder.set(key, value)
        for dev in folder.findall("device"):
            folder.remove(dev)
        for dev_id in [self.device_id] + [p.device_id for p in peers]:
            ET.SubElement(folder, "device", id=dev_id, introducedBy="")
        folder.find("minDiskFree").text = "0"
        if folder.findtext("maxConflicts") in (None, "0"):
            raise HarnessError(f"{self.config_path}: Syncthing's default folder keeps no conflict copies")
        # Insert the folder before the first <device>, where Syncthing writes it.
        root.insert(0, folder)
        tree.write(self.config_path)

    def start(self):
        env = dict(os.environ, STNORESTART="1", STNOUPGRADE="1", STNODEFAULTFOLDER="1")
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(["syncthing", "serve", f"--home={self.home}", "--no-browser", "--no-restart",
                                      "--no-upgrade"], stdout=log, stderr=subprocess.STDOUT, env=env,
                                     start_new_session=True)
        log.close()
        wait_for(f"{self.name}'s REST API", lambda: self.get("/rest/system/ping").get("ping") == "pong", 60)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    @property
    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.gui_port}{path}", data=data, method=method,
                                     headers={"X-API-Key": self.api_key, "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            raw = resp.read()
        return json.loads(raw) if raw.strip() else {}

    def get(self, path):
        return self._call("GET", path)

    def post(self, path):
        return self._call("POST", path)

    def patch(self, path, body):
        return self._call("PATCH", path, body)

    def connected_to(self, other):
        conns = self.get("/rest/system/connections").get("connections", {})
        return conns.get(other.device_id, {}).get("connected", False)

    def folder_status(self):
        return self.get(f"/rest/db/status?folder={FOLDER_ID}")

    def rescan(self):
        self.post(f"/rest/db/scan?folder={FOLDER_ID}")

    def pause_folder(self, paused=True):
        self.patch(f"/rest/config/folders/{FOLDER_ID}", {"paused": paused})

    def idle(self):
        s = self.folder_status()
        return (s.get("state") == "idle" and s.get("needFiles", 1) == 0 and s.get("needDeletes", 1) == 0
                and s.get("needTotalItems", 1) == 0 and not s.get("errors"))

    def log_hashes(self):
        """nextup-*.log name → sha256 of its bytes (conflict copies included)."""
        out = {}
        for name in sorted(os.listdir(self.folder)):
            if name.startswith("nextup-") and name.endswith(".log"):
                with open(os.path.join(self.folder, name), "rb") as f:
                    out[name] = hashlib.sha256(f.read()).hexdigest()
        return out


class Replica:
    """One nextup store whose peer folder is a Syncthing instance's folder."""

    def __init__(self, root, name, binary, syncthing):
        self.name = name
        self.binary = binary
        self.syncthing = syncthing
        self.home = os.path.join(root, name)
        self.store = os.path.join(root, name, "store")
        self.watch = None
        self.watch_log = os.path.join(root, name, "sync-watch.log")
        self.env = dict(os.environ, HOME=self.home, NEXTUP_HOME=self.store, NEXTUP_PEER=syncthing.folder,
                        NO_COLOR="1")
        for k in ("NEXTUP_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
            self.env.pop(k, None)

    def run(self, *args, check=True):
        p = subprocess.run([self.binary, *args], env=self.env, capture_output=True, text=True, timeout=120)
        if check and p.returncode != 0:
            raise HarnessError(f"{self.name}: nextup {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
        return p

    def export(self):
        tasks = json.loads(self.run("export").stdout)
        return {t["id"]: t for t in tasks}

    def replica_id(self):
        for line in self.run("doctor", check=False).stdout.splitlines():
            if line.startswith("replica:"):
                return line.split(":", 1)[1].strip()
        raise HarnessError(f"{self.name}: doctor printed no replica id")

    def start_watch(self):
        log = open(self.watch_log, "ab")
        self.watch = subprocess.Popen([self.binary, "sync", "--watch"], env=self.env, stdout=log,
                                      stderr=subprocess.STDOUT, start_new_session=True)
        log.close()

    def stop_watch(self):
        """SIGTERM; `sync --watch` must stop cleanly with status 0."""
        if self.watch is None:
            return
        self.watch.send_signal(signal.SIGTERM)
        try:
            status = self.watch.wait(30)
        except subprocess.TimeoutExpired:
            self.watch.kill()
            self.watch.wait()
            raise HarnessError(f"{self.name}: sync --watch did not stop within 30 s of SIGTERM")
        self.watch = None
        if status != 0:
            raise HarnessError(f"{self.name}: sync --watch exited {status}; its output: {self.tail_watch_log()}")

    def tail_watch_log(self, n=15):
        try:
            with open(self.watch_log, errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""


class Cluster:
    """n Syncthing instances that all share one folder, a nextup replica on each."""

    def __init__(self, root, n, binary):
        self.root = root
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        self.instances = [Syncthing(root, f"m{i + 1}") for i in range(n)]
        for st in self.instances:
            st.configure([p for p in self.instances if p is not st])
        self.replicas = [Replica(root, st.name, binary, st) for st in self.instances]

    def start(self, first_sync=True):
        for st in self.instances:
            st.start()
        self.wait_connected()
        if first_sync:
            self.first_sync()

    def first_sync(self, replicas=None):
        """The first machine makes the folder's marker; the others sync once it
        has reached them (as a person setting up a second machine does)."""
        replicas = replicas or self.replicas
        replicas[0].run("sync")
        for r in replicas[1:]:
            marker = os.path.join(r.syncthing.folder, "nextup-folder.id")
            wait_for(f"the folder marker to reach {r.name}", lambda: os.path.exists(marker), 60)
            r.run("sync")
        for r in replicas:
            r.start_watch()

    def wait_connected(self, instances=None, timeout=60):
        instances = instances or [st for st in self.instances if st.running]
        for a in instances:
            for b in instances:
                if a is not b:
                    wait_for(f"{a.name} to connect to {b.name}", lambda: a.connected_to(b), timeout)

    def settle(self, replicas=None, timeout=180, quiet_s=3.0):
        """Waits until every running instance is idle with nothing needed,
        every folder holds the same nextup-*.log files with the same hashes,
        and every replica exports the same tasks — all unchanged for `quiet_s`.
        Returns the seconds it took and the common export."""
        replicas = replicas or self.replicas
        started = time.monotonic()
        stable_since, last = None, None
        deadline = started + timeout
        why = "nothing checked yet"
        while time.monotonic() < deadline:
            try:
                state = self._state(replicas)
            except (OSError, ValueError, HarnessError, urllib.error.URLError) as e:
                state, why = None, f"error: {e}"
            if state is not None and state[0]:
                if last is not None and state[1] == last:
                    if time.monotonic() - stable_since >= quiet_s:
                        return stable_since - started, state[2]
                else:
                    stable_since, last = time.monotonic(), state[1]
            else:
                stable_since, last = None, None
                if state is not None:
                    why = state[1]
            time.sleep(0.3)
        detail = "\n".join(f"--- {r.name} sync --watch:\n{r.tail_watch_log()}" for r in replicas)
        raise HarnessError(f"did not settle within {timeout} s: {why}\n{detail}")

    def _state(self, replicas):
        for r in replicas:
            if not r.syncthing.idle():
                return False, f"{r.syncthing.name} not idle: {r.syncthing.folder_status()}", None
            if r.watch is not None and r.watch.poll() is not None:
                raise HarnessError(f"{r.name}: sync --watch died with {r.watch.returncode}: {r.tail_watch_log()}")
        hashes = [r.syncthing.log_hashes() for r in replicas]
        if any(h != hashes[0] for h in hashes):
            return False, "logs differ between folders", None
        exports = [r.export() for r in replicas]
        for r, e in zip(replicas[1:], exports[1:]):
            if e != exports[0]:
                return False, f"{r.name}'s store differs from {replicas[0].name}'s: {diff(exports[0], e)}", None
        return True, json.dumps([hashes[0], exports[0]], sort_keys=True), exports[0]

    def close(self):
        for r in self.replicas:
            if r.watch is not None and r.watch.poll() is None:
                r.watch.kill()
                r.watch.wait()
        for st in self.instances:
            st.stop()


def diff(a, b, limit=3):
    """A short description of how two exports differ."""
    out = []
    for tid in sorted(set(a) | set(b)):
        if tid not in a or tid not in b:
            out.append(f"{tid[:8]} only in {'second' if tid not in a else 'first'}")
        else:
            for k in sorted(set(a[tid]) | set(b[tid])):
                if a[tid].get(k) != b[tid].get(k):
                    out.append(f"{tid[:8]}.{k}: {a[tid].get(k)!r} vs {b[tid].get(k)!r}")
        if len(out) >= limit:
            break
    return "; ".join(out) or "no difference"


class Tmux:
    """A private tmux server (its own socket, no user config) for TUIs."""

    def __init__(self, socket):
        self.socket = socket

    def __call__(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True,
                              check=check).stdout

    def open_tui(self, name, replica, height=30):
        env = " ".join(f"{k}={v}" for k, v in [("HOME", replica.home), ("NEXTUP_HOME", replica.store),
                                               ("NEXTUP_PEER", replica.syncthing.folder), ("TERM", "xterm-256color")])
        self("new-session", "-d", "-s", name, "-x", "100", "-y", str(height), f"exec env {env} {replica.binary}")
        self("set-option", "-t", name, "status", "off")
        return int(self("display-message", "-p", "-t", name, "#{pane_pid}").strip())

    def screen(self, name):
        return self("capture-pane", "-p", "-t", name)

    def keys(self, name, *keys):
        self("send-keys", "-t", name, *keys)

    def kill(self):
        self("kill-server", check=False)


def write_doc_section(path, name, text):
    """Replaces (or appends) the part of a Markdown file between
    `<!-- NAME:begin -->` and `<!-- NAME:end -->`; the rest is kept."""
    begin, end = f"<!-- {name}:begin (written by a script; edit outside these markers) -->", f"<!-- {name}:end -->"
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    block = f"{begin}\n{text.rstrip()}\n{end}"
    start = old.find(f"<!-- {name}:begin")
    stop = old.find(end)
    if start >= 0 and stop > start:
        new = old[:start] + block + old[stop + len(end):]
    else:
        new = old.rstrip() + "\n\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
