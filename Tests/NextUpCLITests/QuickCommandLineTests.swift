import ArgumentParser
import NextUpTestSupport
import Testing
@testable import NextUpCLI

/// `QuickCommandLine` against the parser: every line it answers for is one
/// the parser reads as the same command with the same values, and one that
/// nothing checked before the parser objects to.
@Suite struct QuickCommandLineTests {
    /// What the parser (and the checks before it) make of a line, in the
    /// quick form; nil when the line fails or is another command.
    static func parsed(_ arguments: [String]) -> QuickCommandLine? {
        do {
            try DashedWord.check(arguments)
            try TaskwarriorSpelling.check(arguments, knownCommands: Set(NextUpCommand.configuration.subcommands.map { $0._commandName }))
            switch try NextUpCommand.parseAsRoot(arguments) {
            case let count as CountCommand: return QuickCommandLine(command: .count, json: count.json, folders: count.global.folders)
            case let next as NextCommand: return QuickCommandLine(command: .next, json: next.json, folders: next.global.folders)
            case let export as ExportCommand:
                let taskwarrior = export.taskwarrior
                guard export.file == nil, export.to == nil, taskwarrior.urgencyFrom == nil, taskwarrior.durationFrom == nil,
                      !taskwarrior.categoryFromProject, !taskwarrior.categoryFromTopProject else { return nil }
                return QuickCommandLine(command: .export, folders: export.global.folders)
            case let command as ImportCommand:
                let taskwarrior = command.taskwarrior
                guard command.from == nil, taskwarrior.urgencyFrom == nil, taskwarrior.durationFrom == nil,
                      !taskwarrior.categoryFromProject, !taskwarrior.categoryFromTopProject else { return nil }
                return QuickCommandLine(command: .importFile, folders: command.global.folders, file: command.file, overwrite: command.overwrite)
            case let add as AddCommand:
                return QuickCommandLine(command: .add, json: add.json, folders: add.global.folders,
                                        title: add.title, fields: add.given, tags: add.tags, next: add.next)
            default: return nil
            }
        } catch {
            return nil
        }
    }

    static let words = [
        "count", "next", "export", "list", "add", "--json", "--to", "taskwarrior", "-", "out.json", "--json=1", "--store", "--peer", "--vdir", "--store=/tmp/a=b",
        "--store=", "--peer=/p", "--vdir=-v", "/tmp/x", "-x", "--", "", "é", "--help", "-h", "--version",
        "--all", "--generate-completion-script", "count", "next", "--store", "--json",
    ]

    @Test func everyLineItAnswersForParsesTheSameWayThroughTheParser() {
        // Lines that do not start with a command are never answered
        // (``theLinesAPromptRuns()``); these all do.
        let (answered, declined) = Self.compare(["count", "next", "export"], words: Self.words, most: 5, lines: 1000, seed: 0x7175_6963_6b)
        // The vocabulary reaches both sides: many lines are answered, and some
        // that the parser takes are left to it (a value that starts with '-').
        #expect(answered > 150, "\(answered) answered")
        #expect(declined > 0)
    }

    /// `lines` random lines, each one of `commands` followed by up to `most`
    /// of `words`: every one the quick form answers for is the parser's
    /// reading. Returns how many it answered, and how many the parser took
    /// that it left to the parser.
    static func compare(_ commands: [String], words: [String], most: Int, lines: Int, seed: UInt64) -> (answered: Int, declined: Int) {
        var generator = SeededRandom(seed: seed)
        var answered = 0, declined = 0
        for _ in 0..<lines {
            let count = Int(generator.next() % UInt64(most + 1))
            let arguments = [commands[Int(generator.next() % UInt64(commands.count))]] + (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }
            let quick = QuickCommandLine.parse(arguments)
            let real = Self.parsed(arguments)
            if let quick {
                answered += 1
                #expect(quick == real, "\(arguments)")
            } else if real != nil {
                declined += 1
            }
        }
        return (answered, declined)
    }

    /// `add`'s words: title words, its options and flags, values of each
    /// kind, the folder options, and words the parser or the checks before
    /// it treat apart.
    static let addWords = [
        "Buy", "milk ☕", "a=b", "help", "count", "", "é", "--urgency", "urgent", "--importance=2", "--importance", "2", "--duration", "1h30m",
        "--category", "Home", "--category=", "--due", "tomorrow", "-3d", "--notes", "--notes=-n", "--tag", "--tag", "home", "--tag=x y",
        "--next", "--next=1", "--no-next", "--json", "--title", "-dash", "-h", "--help", "--", "--urgency=", "--store", "/tmp/x", "--peer=/p",
    ]

    /// The field options the quick form takes for `add` are the parser's:
    /// each given once reads back as exactly those names.
    @Test func addsFieldOptionsAreTheParsers() throws {
        let line = ["add", "x"] + AddCommand.fieldOptions.map { "--\($0)=v" }
        let add = try #require(try NextUpCommand.parseAsRoot(line) as? AddCommand)
        #expect(Set(add.given.keys) == Set(AddCommand.fieldOptions))
        #expect(AddCommand.fieldOptions.count == 6 && QuickCommandLine.addFields.count == 6)
    }

    @Test func everyAddLineItAnswersForParsesTheSameWayThroughTheParser() {
        let (answered, declined) = Self.compare(["add"], words: Self.addWords, most: 6, lines: 800, seed: 0x6164_64)
        #expect(answered > 100, "\(answered) answered")
        #expect(declined > 0)
    }

    /// `import`'s words: files, its flag, the other format and its options,
    /// standard input, the folder options.
    static let importWords = [
        "tasks.json", "b.json", "-", "--overwrite", "--overwrite=1", "--from", "taskwarrior", "--from=taskwarrior", "--urgency-from", "next",
        "--category-from-top-project", "--store", "/tmp/x", "--peer=/p", "--json", "", "--", "-h", "--help", "é",
    ]

    @Test func everyImportLineItAnswersForParsesTheSameWayThroughTheParser() {
        let (answered, declined) = Self.compare(["import"], words: Self.importWords, most: 4, lines: 500, seed: 0x696d_70)
        #expect(answered > 25, "\(answered) answered")
        #expect(declined > 0)
    }

    @Test func theLinesAPromptRuns() {
        #expect(QuickCommandLine.parse(["count"]) == QuickCommandLine(command: .count))
        #expect(QuickCommandLine.parse(["next", "--json"]) == QuickCommandLine(command: .next, json: true))
        #expect(QuickCommandLine.parse(["count", "--store", "/s", "--json", "--peer=/p"])
                == QuickCommandLine(command: .count, json: true, folders: FolderOptions(store: "/s", peer: "/p")))
        #expect(QuickCommandLine.parse(["export", "--store", "/s"]) == QuickCommandLine(command: .export, folders: FolderOptions(store: "/s")))
        #expect(QuickCommandLine.parse(["add", "Buy", "milk", "--urgency", "urgent", "--tag", "a", "--tag=b", "--next", "--store", "/s"])
                == QuickCommandLine(command: .add, folders: FolderOptions(store: "/s"), title: ["Buy", "milk"], fields: ["urgency": "urgent"],
                                    tags: ["a", "b"], next: true))
        #expect(QuickCommandLine.parse(["import", "tasks.json", "--overwrite", "--store=/s"])
                == QuickCommandLine(command: .importFile, folders: FolderOptions(store: "/s"), file: "tasks.json", overwrite: true))
        for declined in [["import"], ["import", "-"], ["import", "a.json", "b.json"], ["import", "a.json", "--from", "taskwarrior"], ["import", "a.json", "--json"]] {
            #expect(QuickCommandLine.parse(declined) == nil, "\(declined)")
        }
        for declined in [["add"], ["add", "--urgency", "urgent"], ["add", "x", "--due", "-3d"], ["add", "--", "-x"], ["add", "-dash"], ["add", "x", "--notes"],
                         ["add", "x", "--help"], ["add", "x", "--next=yes"], ["add", "x", "--due", "a", "--due", "b"], ["count", "--next"], ["next", "word"]] {
            #expect(QuickCommandLine.parse(declined) == nil, "\(declined)")
        }
        for declined in [[], ["list"], ["export", "--json"], ["export", "out.json"], ["export", "-"], ["export", "--to", "taskwarrior"], ["count", "--store", ""], ["--store", "/s", "count"], ["count", "--json", "--json"],
                         ["count", "--store", "-x"], ["count", "--help"], ["count", "extra"], ["next", "--json=true"]] {
            #expect(QuickCommandLine.parse(declined) == nil, "\(declined)")
        }
    }
}
