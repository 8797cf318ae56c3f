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
        var generator = SeededRandom(seed: 0x7175_6963_6b)
        var answered = 0, declinedCommands = 0
        for _ in 0..<1500 {
            let count = 1 + Int(generator.next() % 6)
            var arguments = (0..<count).map { _ in Self.words[Int(generator.next() % UInt64(Self.words.count))] }
            if generator.next() % 2 == 0 { arguments[0] = ["count", "next", "export"][Int(generator.next() % 3)] }
            let quick = QuickCommandLine.parse(arguments)
            let real = Self.parsed(arguments)
            if let quick {
                answered += 1
                #expect(quick == real, "\(arguments)")
            } else if real != nil {
                declinedCommands += 1
            }
        }
        // The vocabulary reaches both sides: many lines are answered, and some
        // that the parser takes are left to it (a value that starts with '-').
        #expect(answered > 150, "\(answered) answered")
        #expect(declinedCommands > 0)
    }

    @Test func theLinesAPromptRuns() {
        #expect(QuickCommandLine.parse(["count"]) == QuickCommandLine(command: .count))
        #expect(QuickCommandLine.parse(["next", "--json"]) == QuickCommandLine(command: .next, json: true))
        #expect(QuickCommandLine.parse(["count", "--store", "/s", "--json", "--peer=/p"])
                == QuickCommandLine(command: .count, json: true, folders: FolderOptions(store: "/s", peer: "/p")))
        #expect(QuickCommandLine.parse(["export", "--store", "/s"]) == QuickCommandLine(command: .export, folders: FolderOptions(store: "/s")))
        for declined in [[], ["list"], ["export", "--json"], ["export", "out.json"], ["export", "-"], ["export", "--to", "taskwarrior"], ["count", "--store", ""], ["--store", "/s", "count"], ["count", "--json", "--json"],
                         ["count", "--store", "-x"], ["count", "--help"], ["count", "extra"], ["next", "--json=true"]] {
            #expect(QuickCommandLine.parse(declined) == nil, "\(declined)")
        }
    }
}
