/// The command lines a shell prompt or a status bar runs many times a minute —
/// `count` and `next`, with `--json` and the folder options — a plain
/// `export` to standard output, `add` (a title and its field options, the
/// line typed or scripted most) and a plain `import FILE` (nextup's format,
/// `--overwrite`), recognised without swift-argument-parser.
///
/// Contract: when ``parse(_:)`` returns a line, `NextUpCommand.parseAsRoot`
/// gives the same command (``CountCommand``, ``NextCommand``,
/// ``ExportCommand`` with no file and no other format, ``AddCommand``,
/// ``ImportCommand`` of a file in nextup's format) with the same values,
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
/// (12.6M of 21.1M instructions), for a command whose grammar is five words,
/// and two thirds of an `add`'s CPU time.
struct QuickCommandLine: Equatable {
    enum Command: Equatable { case count, next, export, add, importFile }

    var command: Command
    var json = false
    var folders = FolderOptions()
    /// `add`'s title words, field options (by their field-table names, as
    /// ``AddCommand``'s `given`), tags in the order given, and `--next`.
    var title: [String] = []
    var fields: [String: String] = [:]
    var tags: [String] = []
    var next = false
    /// `import`'s file and `--overwrite`.
    var file: String?
    var overwrite = false

    /// `add`'s options that take a value, each a field of the table (``AddCommand/fieldOptions``).
    static let addFields: Set<Substring> = Set(AddCommand.fieldOptions.map { "--\($0)"[...] })

    /// The line, when it is one of the few this type answers for; else nil.
    static func parse(_ arguments: [String]) -> QuickCommandLine? {
        guard let first = arguments.first else { return nil }
        var line: QuickCommandLine
        switch first {
        case "count": line = QuickCommandLine(command: .count)
        case "next": line = QuickCommandLine(command: .next)
        case "export": line = QuickCommandLine(command: .export)
        case "add": line = QuickCommandLine(command: .add)
        case "import": line = QuickCommandLine(command: .importFile)
        default: return nil
        }
        var seen: [Substring] = []  // a word given twice goes to the parser (but `--tag`)
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            guard word.hasPrefix("--") else {
                // A title word, or the file; anything else that starts with
                // `-` (a short option, a dashed word, standard input) is the
                // parser's, or DashedWord's.
                guard !word.isEmpty, !word.hasPrefix("-") else { return nil }
                switch line.command {
                case .add: line.title.append(word)
                case .importFile where line.file == nil: line.file = word
                default: return nil
                }
                continue
            }
            let name: Substring, value: String?
            if let equals = word.firstIndex(of: "=") {
                name = word[..<equals]
                value = String(word[word.index(after: equals)...])
            } else {
                name = word[...]
                value = nil
            }
            guard !seen.contains(name) else { return nil }
            if name != "--tag" { seen.append(name) }
            // The option's value: after `=`, or the next word when it is
            // not empty and does not start with `-`.
            func given() -> String? {
                guard let given = value ?? rest.popFirst(), !given.isEmpty, value != nil || !given.hasPrefix("-") else { return nil }
                return given
            }
            switch name {
            case "--json":
                guard value == nil, line.command != .export, line.command != .importFile else { return nil }
                line.json = true
            case "--overwrite" where line.command == .importFile:
                guard value == nil else { return nil }
                line.overwrite = true
            case "--next" where line.command == .add:
                guard value == nil else { return nil }
                line.next = true
            case "--tag" where line.command == .add:
                guard let tag = given() else { return nil }
                line.tags.append(tag)
            case _ where line.command == .add && addFields.contains(name):
                guard let field = given() else { return nil }
                line.fields[String(name.dropFirst(2))] = field
            case "--store", "--peer", "--vdir":
                guard let given = given() else { return nil }
                switch name {
                case "--store": line.folders.store = given
                case "--peer": line.folders.peer = given
                default: line.folders.vdir = given
                }
            default:
                return nil
            }
        }
        // `add` needs a title, `import` a file (the parser names a missing one).
        guard line.command != .add || !line.title.isEmpty, line.command != .importFile || line.file != nil else { return nil }
        return line
    }

    /// Runs the command, as its parsed form's `run()` would.
    func run() throws {
        switch command {
        case .count: try CountCommand.run(folders, json: json)
        case .next: try NextCommand.run(folders, json: json)
        case .export: try ExportCommand.run(folders, file: nil)
        case .add: try AddCommand.run(folders, title: title, fields: fields, tags: tags, next: next, json: json)
        case .importFile:
            let file = file!
            try ImportCommand.run(folders, file: file, overwrite: overwrite) { try ImportCommand.nextupRecords(file) }
        }
    }
}
