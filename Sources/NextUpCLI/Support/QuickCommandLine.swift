/// The command lines a shell prompt or a status bar runs many times a minute —
/// `count` and `next`, with `--json` and the folder options — and a plain
/// `export` to standard output, recognised without swift-argument-parser.
///
/// Contract: when ``parse(_:)`` returns a line, `NextUpCommand.parseAsRoot`
/// gives the same command (``CountCommand``, ``NextCommand``,
/// ``ExportCommand`` with no file and no other format) with the same values,
/// and neither ``DashedWord`` nor ``TaskwarriorSpelling`` objects to it;
/// ``run()`` then does what that command's `run()` does (both call the
/// command's static `run`). Whatever it is not sure of — another command,
/// help, a repeated or empty option, a value that starts with `-`, an option
/// before the command, `export`'s file or `--to` — is nil, and goes through
/// ``CommandLineParse`` as every other line does: every message still comes
/// from the parser.
///
/// Why: the parser builds its argument sets by reflection, and the Swift
/// runtime's first look-up of each (type, protocol) pair scans every
/// conformance record of the binary; that was 60% of an empty store's `count`
/// (12.6M of 21.1M instructions), for a command whose grammar is five words.
struct QuickCommandLine: Equatable {
    enum Command: Equatable { case count, next, export }

    var command: Command
    var json = false
    var folders = FolderOptions()

    /// The line, when it is one of the few this type answers for; else nil.
    static func parse(_ arguments: [String]) -> QuickCommandLine? {
        guard let first = arguments.first else { return nil }
        var line: QuickCommandLine
        switch first {
        case "count": line = QuickCommandLine(command: .count)
        case "next": line = QuickCommandLine(command: .next)
        case "export": line = QuickCommandLine(command: .export)
        default: return nil
        }
        var seen: [Substring] = []  // a word given twice goes to the parser
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            let name: Substring, value: String?
            if let equals = word.firstIndex(of: "=") {
                name = word[..<equals]
                value = String(word[word.index(after: equals)...])
            } else {
                name = word[...]
                value = nil
            }
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            switch name {
            case "--json":
                guard value == nil, line.command != .export else { return nil }
                line.json = true
            case "--store", "--peer", "--vdir":
                guard let given = value ?? rest.popFirst(), !given.isEmpty,
                      value != nil || !given.hasPrefix("-") else { return nil }
                switch name {
                case "--store": line.folders.store = given
                case "--peer": line.folders.peer = given
                default: line.folders.vdir = given
                }
            default:
                return nil
            }
        }
        return line
    }

    /// Runs the command, as its parsed form's `run()` would.
    func run() throws {
        switch command {
        case .count: try CountCommand.run(folders, json: json)
        case .next: try NextCommand.run(folders, json: json)
        case .export: try ExportCommand.run(folders, file: nil)
        }
    }
}
