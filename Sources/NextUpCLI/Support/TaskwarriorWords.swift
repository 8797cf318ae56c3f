import NextUpCore

/// Taskwarrior's modification words on `add` and `edit`, read as nextup's
/// options before the command line is parsed: `+tag` (`--tag`), `-tag` on
/// `edit` (`--untag`), `due:fri` (`--due`), `project:Home` (`--category`),
/// `priority:H` (`--importance 3`: H, M, L as the Taskwarrior import maps them),
/// `wait:`/`scheduled:` (`--defer`, as the import maps them) and `recur:weekly`
/// (`--recur`, a Taskwarrior period read as the import reads it).
///
/// The rule, so that a title word that only looks like one stays in the title:
/// - `key:value` is a modification only when `key` is one of ``keys`` exactly
///   (lower case) and the value is not empty: `http://x`, `10:30`,
///   `re:meeting` and `Project:` are title words. On `edit`, an empty value
///   clears the field, as in Taskwarrior (`due:` → `--due none`).
/// - `+tag` and `-tag` only when the name starts with a letter: `+1` and
///   `+44 20…` are title words.
/// - A known key whose value nextup cannot take, or a Taskwarrior attribute
///   nextup has no field for (`until:`, `depends:`), is refused in one
///   line naming nextup's spelling — never a title with the word in it.
/// - Words after `--` are never read: `nextup add -- "priority:high"`.
/// The values themselves are checked by the options they become.
enum TaskwarriorWords {
    /// Taskwarrior's attribute names (and the abbreviations people type) → nextup's option.
    static let keys: [String: String] = [
        "due": "due",
        "project": "category", "proj": "category", "pro": "category",
        "priority": "importance", "pri": "importance",
        "wait": "defer", "scheduled": "defer", "sched": "defer",
        "recur": "recur",
    ]

    /// Taskwarrior attributes nextup has no field for, and what to do instead.
    static let missing: [String: String] = [
        "until": "nextup has no expiry (until) dates; use a due date (due:… or --due)",
        "depends": "nextup has no dependencies between tasks; order them in Next Up (nextup edit ID --before ID)",
    ]

    /// The options of `add` and `edit` that take no value.
    static let flags: Set<String> = ["--next", "--no-next", "--json", "--help", "-h", "--version"]

    /// The command line with the Taskwarrior words of an `add` or `edit`
    /// turned into options; any other command line unchanged.
    static func rewrite(_ arguments: [String]) throws -> [String] {
        var start = 0
        // Skip the global options and their values.
        while start < arguments.count, arguments[start].hasPrefix("--") {
            start += arguments[start].contains("=") ? 1 : 2
        }
        guard start < arguments.count, ["add", "edit"].contains(arguments[start]) else { return arguments }
        let edit = arguments[start] == "edit"
        var out = Array(arguments[...start])
        var i = start + 1
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if word == "--" {
                out += arguments[(i - 1)...]
                break
            }
            if word.hasPrefix("-"), !isTagRemoval(word, edit: edit) {
                out.append(word)
                // An option's value is copied as typed.
                if word.hasPrefix("--"), !word.contains("="), !flags.contains(word), i < arguments.count {
                    out.append(arguments[i])
                    i += 1
                }
                continue
            }
            out += try options(for: word, edit: edit) ?? [word]
        }
        return out
    }

    static func isTagRemoval(_ word: String, edit: Bool) -> Bool {
        edit && word.count > 2 && word.hasPrefix("-") && word.dropFirst().first?.isLetter == true
    }

    /// The options one word stands for, or nil when it is a title word.
    static func options(for word: String, edit: Bool) throws -> [String]? {
        if word.hasPrefix("+"), word.dropFirst().first?.isLetter == true { return ["--tag=" + word.dropFirst()] }
        if isTagRemoval(word, edit: edit) { return ["--untag=" + word.dropFirst()] }
        guard let colon = word.firstIndex(of: ":") else { return nil }
        let key = String(word[..<colon]), value = String(word[word.index(after: colon)...])
        if let why = missing[key], !value.isEmpty {
            throw TaskwarriorSpelling(message: "'\(word)': \(why)")
        }
        guard let option = keys[key] else { return nil }
        if value.isEmpty { return edit ? ["--\(option)=none"] : nil }
        if option == "recur" { return ["--recur=\(recurrence(value))"] }
        guard option == "importance" else { return ["--\(option)=\(value)"] }
        switch value.uppercased() {
        case "H": return ["--importance=3"]
        case "M": return ["--importance=2"]
        case "L": return ["--importance=1"]
        default:
            throw TaskwarriorSpelling(message: "'\(word)': priority is H, M or L (importance 3, 2 or 1 in nextup: --importance 3)")
        }
    }

    /// A Taskwarrior period (`weekly`, `2wks`, `weekdays`, `P1M`) as the rule
    /// the import makes of it, in RRULE text; any other value as typed, for
    /// `--recur` to read (nextup's words) or refuse in its own words.
    static func recurrence(_ value: String) -> String {
        if value.lowercased() == "weekdays" {
            return (try? RecurrenceRule(frequency: .weekly, byDay: (1...5).map { RecurrenceRule.Weekday($0) }))?.rrule ?? value
        }
        guard let (frequency, interval) = TaskwarriorRecurrence.period(value.lowercased()),
              let rule = try? RecurrenceRule(frequency: frequency, interval: interval, lastDayOfShorterMonth: true)
        else { return value }
        return rule.rrule
    }
}
