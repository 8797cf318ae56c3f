import Foundation

/// Taskwarrior habits that nextup spells differently: `task 3 done` (the id
/// before the verb), `task modify`, `task annotate`, … A command line that
/// starts like one gets one line naming nextup's spelling, instead of the
/// parser's "unexpected argument".
struct TaskwarriorSpelling: Error {
    let message: String

    /// nextup's spelling of Taskwarrior's verbs that differ.
    static let verbs: [String: String] = [
        "modify": "nextup edit ID --title … --urgency … --importance … --due …",
        "mod": "nextup edit ID --title … --urgency … --importance … --due …",
        "annotate": "nextup edit ID --notes TEXT",
        "denotate": "nextup edit ID --notes none",
        "start": "nextup edit ID --next (Next Up is what you are working on)",
        "stop": "nextup edit ID --no-next",
        "append": "nextup edit ID --title TEXT",
        "prepend": "nextup edit ID --title TEXT",
        "info": "nextup show ID",
        "information": "nextup show ID",
        "ls": "nextup list",
        "all": "nextup list --all",
        "completed": "nextup list --done",
        "purge": "nextup delete ID (deletes are soft; nothing is purged)",
    ]

    /// The verbs nextup shares with Taskwarrior but puts first.
    static let sharedVerbs: Set<String> = ["done", "delete", "edit", "show", "list", "next", "count", "export", "import", "sync", "add", "undone", "restore", "undo"]

    /// Throws when the first word after the global options is a Taskwarrior
    /// verb nextup spells differently, or a task number or id followed by a verb.
    static func check(_ arguments: [String], knownCommands: Set<String>) throws {
        var words = arguments[...]
        // Skip the global options and their values.
        while let first = words.first, first.hasPrefix("--") {
            words = words.dropFirst(first.contains("=") ? 1 : 2)
        }
        guard let first = words.first, !knownCommands.contains(first) else { return }
        if let spelling = verbs[first.lowercased()] {
            throw TaskwarriorSpelling(message: "'\(first)' is Taskwarrior's word; in nextup: \(spelling)")
        }
        let looksLikeID = first.allSatisfy(\.isNumber) || (first.count >= 4 && first.allSatisfy { $0.isHexDigit || $0 == "-" })
        if looksLikeID, let verb = words.dropFirst().first {
            let v = verb.lowercased()
            guard let spelling = sharedVerbs.contains(v) ? "nextup \(v) ID" : verbs[v] else { return }
            if first.allSatisfy(\.isNumber) {
                throw TaskwarriorSpelling(message: "nextup puts the command first: \(spelling) (ID is the first 4+ characters of the id 'nextup list' shows, not a number)")
            }
            let named = spelling.replacingOccurrences(of: "ID", with: first)
            throw TaskwarriorSpelling(message: "nextup puts the command first: \(named)")
        }
    }
}
