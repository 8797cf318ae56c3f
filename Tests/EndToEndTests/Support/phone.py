#!/usr/bin/python3
"""Plays the phone in the CalDAV end-to-end test: a second client that talks
to the CalDAV server directly with the `caldav` library, as tasks.org or
Apple Reminders would, and rewrites tasks the way such apps do — dropping
every X- property it does not know.

usage: phone.py URL COMMAND [ARGS]
  list                      every VTODO as JSON: uid, summary, due, priority, status, x (X- names)
  create UID SUMMARY        a new task
  complete UID              STATUS:COMPLETED + COMPLETED, X- properties dropped
  reopen UID                STATUS:NEEDS-ACTION, COMPLETED and PERCENT-COMPLETE removed, X- properties dropped
  rename UID TITLE          a new SUMMARY, X- properties dropped
  delete UID                removes the task
  set UID NAME VALUE        NAME's lines replaced by NAME:VALUE and a new LAST-MODIFIED, every other line kept
  put NAME FILE             FILE's bytes stored as the item NAME, as they are (an app's own upload)
  get NAME                  the item NAME's bytes as the server gives them
  advance UID DUE START     tasks.org completing a repeating task: DUE and DTSTART moved in place, no COMPLETED
  override UID DATE         Thunderbird completing one occurrence: a COMPLETED VTODO with RECURRENCE-ID DATE added
  renew UID NEWUID DUE      Apple Reminders completing a repeating task: the item COMPLETED without its RRULE,
                            and a new item NEWUID with the same SUMMARY and RRULE due DUE
"""
import datetime
import json
import sys

import caldav


def unfold(text):
    lines = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        if raw[:1] in (" ", "\t") and lines:
            lines[-1] += raw[1:]
        elif raw:
            lines.append(raw)
    return lines


def todo_lines(lines):
    """The lines of the VTODO, without BEGIN/END, and the rest around it."""
    start = lines.index("BEGIN:VTODO")
    end = lines.index("END:VTODO")
    return lines[:start + 1], lines[start + 1:end], lines[end:]


def prop(lines, name):
    for line in lines:
        head, _, value = line.partition(":")
        if head.split(";")[0].upper() == name:
            return value
    return None


def rewrite(obj, edit):
    before, todo, after = todo_lines(unfold(obj.data))
    todo = [line for line in todo if not line.upper().startswith("X-")]
    todo = edit(todo)
    obj.data = "\n".join(before + todo + after) + "\n"
    obj.save()


def find(cal, uid):
    for obj in cal.todos(include_completed=True):
        if prop(todo_lines(unfold(obj.data))[1], "UID") == uid:
            return obj
    raise SystemExit(f"no task with UID {uid}")


def main():
    url, command, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    client = caldav.DAVClient(url=url, username="phone", password="phone")
    cal = caldav.Calendar(client=client, url=url)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    if command == "list":
        out = []
        for obj in cal.todos(include_completed=True):
            todo = todo_lines(unfold(obj.data))[1]
            out.append({
                "uid": prop(todo, "UID"), "summary": prop(todo, "SUMMARY"), "due": prop(todo, "DUE"),
                "priority": prop(todo, "PRIORITY"), "status": prop(todo, "STATUS"),
                "x": sorted(line.split(":")[0].split(";")[0] for line in todo if line.upper().startswith("X-")),
                "rrule": prop(todo, "RRULE"), "dtstart": prop(todo, "DTSTART"),
                "vtodos": unfold(obj.data).count("BEGIN:VTODO"),
            })
        print(json.dumps(sorted(out, key=lambda t: t["uid"])))
    elif command == "create":
        uid, summary = args
        cal.save_todo("\n".join([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//phone//test//EN", "BEGIN:VTODO",
            f"UID:{uid}", f"DTSTAMP:{now}", f"SUMMARY:{summary}", "PRIORITY:1", "DUE;VALUE=DATE:20261201",
            "CATEGORIES:Errands", "STATUS:NEEDS-ACTION", "END:VTODO", "END:VCALENDAR"]) + "\n")
    elif command == "complete":
        (uid,) = args
        rewrite(find(cal, uid), lambda todo: [l for l in todo if not l.upper().startswith(("STATUS", "COMPLETED", "LAST-MODIFIED"))]
                + ["STATUS:COMPLETED", f"COMPLETED:{now}", f"LAST-MODIFIED:{now}"])
    elif command == "reopen":
        (uid,) = args
        rewrite(find(cal, uid), lambda todo: [l for l in todo if not l.upper().startswith(("STATUS", "COMPLETED", "PERCENT-COMPLETE", "LAST-MODIFIED"))]
                + ["STATUS:NEEDS-ACTION", f"LAST-MODIFIED:{now}"])
    elif command == "rename":
        uid, title = args
        rewrite(find(cal, uid), lambda todo: [l for l in todo if not l.upper().startswith(("SUMMARY", "LAST-MODIFIED"))]
                + [f"SUMMARY:{title}", f"LAST-MODIFIED:{now}"])
    elif command == "set":
        uid, name, value = args
        obj = find(cal, uid)
        before, todo, after = todo_lines(unfold(obj.data))
        todo = [l for l in todo if l.split(":")[0].split(";")[0].upper() not in (name.split(";")[0].upper(), "LAST-MODIFIED")]
        todo += [f"{name}:{value}", f"LAST-MODIFIED:{now}"]
        obj.data = "\n".join(before + todo + after) + "\n"
        obj.save()
    elif command == "put":
        name, path = args
        with open(path, "rb") as f:
            data = f.read()
        client.put(url + name, data, {"Content-Type": "text/calendar; charset=utf-8"})
    elif command == "get":
        (name,) = args
        raw = client.request(url + name, "GET").raw
        sys.stdout.write(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
    elif command == "advance":
        uid, due, start = args
        obj = find(cal, uid)
        before, todo, after = todo_lines(unfold(obj.data))
        todo = [l for l in todo if l.split(":")[0].split(";")[0].upper() not in ("DUE", "DTSTART", "LAST-MODIFIED")]
        todo += [f"DTSTART;VALUE=DATE:{start}", f"DUE;VALUE=DATE:{due}", f"LAST-MODIFIED:{now}"]
        obj.data = "\n".join(before + todo + after) + "\n"
        obj.save()
    elif command == "override":
        uid, date = args
        obj = find(cal, uid)
        lines = unfold(obj.data)
        end = len(lines) - 1 - lines[::-1].index("END:VCALENDAR")
        summary = prop(todo_lines(lines)[1], "SUMMARY")
        lines[end:end] = ["BEGIN:VTODO", f"UID:{uid}", f"RECURRENCE-ID;VALUE=DATE:{date}", f"DTSTAMP:{now}",
                          f"LAST-MODIFIED:{now}", f"SUMMARY:{summary}", "STATUS:COMPLETED", f"COMPLETED:{now}",
                          "PERCENT-COMPLETE:100", "END:VTODO"]
        obj.data = "\n".join(lines) + "\n"
        obj.save()
    elif command == "renew":
        uid, new_uid, due = args
        obj = find(cal, uid)
        todo = todo_lines(unfold(obj.data))[1]
        summary, rule = prop(todo, "SUMMARY"), prop(todo, "RRULE")
        rewrite(obj, lambda todo: [l for l in todo if not l.upper().startswith(("STATUS", "COMPLETED", "LAST-MODIFIED", "RRULE"))]
                + ["STATUS:COMPLETED", f"COMPLETED:{now}", f"LAST-MODIFIED:{now}"])
        cal.save_todo("\n".join([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//phone//test//EN", "BEGIN:VTODO",
            f"UID:{new_uid}", f"DTSTAMP:{now}", f"CREATED:{now}", f"LAST-MODIFIED:{now}", f"SUMMARY:{summary}",
            f"DUE;VALUE=DATE:{due}", f"RRULE:{rule}", "STATUS:NEEDS-ACTION", "END:VTODO", "END:VCALENDAR"]) + "\n")
    elif command == "delete":
        (uid,) = args
        find(cal, uid).delete()
    else:
        raise SystemExit(f"unknown command {command}")


main()
