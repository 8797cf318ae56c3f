"""Deterministic task data sets for the benchmark.

`generate(n, seed)` always returns the same tasks for the same arguments, as the JSON objects
`nextup import` reads (DESIGN.md §4, Sources/NextUpCore/Model/TaskJSON.swift).
`to_taskwarrior` turns them into the objects `task import` reads, so both tools
load the same tasks.

The mix: Unicode titles (Latin with accents, CJK, Cyrillic, Arabic, emoji with
ZWJ sequences), each triage attribute set or unset independently, notes on
about a third, a due date on about 30%, about 20% done, about 5% deleted, and
a Next Up list of max(10, min(200, n / 200)) open tasks.
"""

import calendar
import json
import random
import time
import uuid

SEED = 20261122
# Every timestamp is relative to this fixed instant, so runs are reproducible.
BASE_MS = 1_793_577_600_000  # 2026-11-02T00:00:00Z
DAY_MS = 86_400_000

WORDS = [
    "review", "write", "call", "plan", "fix", "update", "email", "book", "prepare", "read",
    "draft", "clean", "order", "pay", "renew", "check", "backup", "refactor", "test", "ship",
    "report", "invoice", "slides", "budget", "garden", "dentist", "taxes", "release", "notes",
    "migration", "meeting", "library", "bike", "groceries", "design", "roadmap", "contract",
]
PHRASES = [
    "café au lait ☕", "naïve résumé", "Überprüfe die Straße", "日本語の資料を確認", "会議の準備",
    "한국어 메모 정리", "Привет команде", "отчёт за квартал", "مراجعة التقرير", "🚀 launch",
    "👩‍💻 pair session", "🇫🇷 visa", "Ελληνικά σημειώσεις", "ñandú piñata", "中文 文档 翻译",
    "smörgåsbord", "🎉🎂 party", "tōkyō ✈ trip",
]
CATEGORIES = ["Essentials", "Deep Work", "Admin", "Learning", "Recharge", "Home", "Side Project"]


def rfc3339(ms):
    """2026-11-22T10:04:05.123Z, like nextup's own output."""
    seconds, millis = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%03dZ" % millis


def day(ms):
    return time.strftime("%Y-%m-%d", time.gmtime(ms // 1000))


def _title(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(2, 6))]
    if rng.random() < 0.45:
        words.insert(rng.randint(0, len(words)), rng.choice(PHRASES))
    words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


RULES = ["FREQ=WEEKLY;BYDAY=MO", "FREQ=MONTHLY;BYMONTHDAY=31;RSCALE=GREGORIAN;SKIP=BACKWARD", "FREQ=DAILY",
         "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "FREQ=DAILY;INTERVAL=3;X-NEXTUP-FROM=DONE", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24"]


def _with_series(tasks, series, seed):
    """Makes `series` open tasks live occurrences of a series, and as many
    others deferred (a separate random stream: the rest of the set is unchanged)."""
    rng = random.Random(seed + 2)
    # Outside Next Up: a deferred task is in neither list, and Next Up's size is fixed by the set.
    open_tasks = [t for t in tasks if not t["done"] and not t["deleted"] and not t["next_up"]]
    picked = rng.sample(open_tasks, min(len(open_tasks), 2 * series))
    for i, t in enumerate(picked):
        if i < series:
            t["recur"] = rng.choice(RULES)
            t["occurrence"] = "%s#1" % t["id"]
            t["due"] = t["due"] or day(BASE_MS + rng.randint(0, 30) * DAY_MS)
        else:
            t["defer"] = day(BASE_MS + rng.randint(1, 120) * DAY_MS)
    return tasks


def generate(n, seed=SEED, series=0):
    """The first n tasks of the data set for `seed`, in nextup's import format;
    with `series`, that many open tasks recurring and as many deferred."""
    rng = random.Random(seed)
    next_target = max(10, min(200, n // 200))
    tasks = []
    next_count = 0
    for i in range(n):
        created = BASE_MS - rng.randint(1, 730) * DAY_MS + rng.randint(0, DAY_MS - 1)
        modified = min(BASE_MS, created + rng.randint(0, 60) * DAY_MS)
        deleted = rng.random() < 0.05
        done = rng.random() < 0.20
        t = {
            "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            "title": _title(rng),
            "notes": ("Notes for task %d:\n%s" % (i, _title(rng))) if rng.random() < 0.33 else None,
            "urgency": rng.choice([None, "urgent", "not-urgent"]),
            "importance": rng.choice([None, 1, 2, 3]),
            "duration": rng.choice([None, 15, 30, 45, 60, 90, 120, 240, 480]),
            "category": rng.choice([None] + CATEGORIES),
            "due": day(BASE_MS + rng.randint(-30, 120) * DAY_MS) if rng.random() < 0.30 else None,
            "done": done,
            "next_up": False,
            "deleted": deleted,
            "created": rfc3339(created),
            "modified": rfc3339(modified),
            "completed_at": rfc3339(modified) if done else None,
        }
        # Spread the Next Up tasks over the whole set.
        if not done and not deleted and next_count < next_target and rng.random() < 4 * next_target / max(n, 1):
            t["next_up"] = True
            next_count += 1
        tasks.append(t)
    return _with_series(tasks, series, seed) if series else tasks


def summary(tasks):
    """Counts and the task ids the benchmark operates on."""
    open_ids = [t["id"] for t in tasks if not t["done"] and not t["deleted"]]
    free = [t["id"] for t in tasks if not t["done"] and not t["deleted"] and not t["next_up"]]
    random.Random(SEED + 1).shuffle(free)
    next_ids = [t["id"] for t in tasks if t["next_up"]]
    # Live occurrences to complete (outside Next Up), and the tasks deferred
    # after today: in neither list, so not in `count`.
    series = [t["id"] for t in tasks if t.get("recur") and not t["done"] and not t["deleted"] and not t["next_up"]]
    random.Random(SEED + 3).shuffle(series)
    today = time.strftime("%Y-%m-%d")
    later = sum(1 for t in tasks if not t["done"] and not t["deleted"] and (t.get("defer") or "") > today)
    return {
        "total": len(tasks),
        "open": len(open_ids),
        "done": sum(1 for t in tasks if t["done"] and not t["deleted"]),
        "deleted": sum(1 for t in tasks if t["deleted"]),
        "next_up": len(next_ids),
        "next_ids": next_ids,
        "free_ids": [i for i in free if i not in set(series)][:256],
        "series_ids": series[:256],
        "later": later,
        "first_next_title": next((t["title"] for t in tasks if t["next_up"]), None),
    }


def _tw_date(ms):
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(ms // 1000))


def _ms(stamp):
    base, frac = stamp[:19], stamp[20:23]
    return calendar.timegm(time.strptime(base, "%Y-%m-%dT%H:%M:%S")) * 1000 + int(frac)


def to_taskwarrior(tasks):
    """The same tasks as Taskwarrior 2.6 import objects: importance → priority
    H/M/L, category → project, urgent → tag `urgent`, Next Up → tag `next`,
    duration → numeric UDA `estimate`, notes → one annotation."""
    out = []
    for t in tasks:
        entry, modified = _ms(t["created"]), _ms(t["modified"])
        status = "deleted" if t["deleted"] else "completed" if t["done"] else "pending"
        w = {
            "uuid": t["id"],
            "description": t["title"],
            "status": status,
            "entry": _tw_date(entry),
            "modified": _tw_date(modified),
        }
        if status != "pending":
            w["end"] = _tw_date(modified)
        if t["importance"]:
            w["priority"] = {1: "L", 2: "M", 3: "H"}[t["importance"]]
        if t["category"]:
            w["project"] = t["category"].replace(" ", "_")
        tags = []
        if t["urgency"] == "urgent":
            tags.append("urgent")
        if t["next_up"]:
            tags.append("next")
        if tags:
            w["tags"] = tags
        if t["duration"]:
            w["estimate"] = t["duration"]
        if t["due"]:
            w["due"] = t["due"].replace("-", "") + "T000000Z"
        if t["notes"]:
            w["annotations"] = [{"entry": _tw_date(entry), "description": t["notes"].replace("\n", " ")}]
        out.append(w)
    return out


def write(path, objects):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(objects, f, ensure_ascii=False)
        f.write("\n")
