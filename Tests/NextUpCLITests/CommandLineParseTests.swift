import ArgumentParser
import NextUpTestSupport
import Testing
@testable import NextUpCLI

/// `CommandLineParse.command` against the parser's own root, `NextUpCommand.parseAsRoot`:
/// for every command line, the same command with the same values, or the same failure.
@Suite struct CommandLineParseTests {
    /// What a parse gave, in a form two parses can be compared by: the command's
    /// type and every parsed value, or the message, full help text and exit code
    /// the failure would print.
    static func outcome(_ parse: () throws -> ParsableCommand) -> String {
        do {
            let command = try parse()
            return "command \(type(of: command)): \(String(reflecting: command))"
        } catch {
            return "error \(NextUpCommand.exitCode(for: error).rawValue): \(NextUpCommand.fullMessage(for: error))"
        }
    }

    static let words = [
        "add", "list", "next", "show", "edit", "done", "undone", "delete", "restore", "undo", "count",
        "export", "import", "doctor", "sync", "help", "modify",
        "--help", "-h", "--version", "--generate-completion-script", "--generate-completion-script=fish", "bash", "zsh",
        "--store", "/tmp/x", "--json", "--all", "--done", "--deleted", "--filter", "urgent", "--urgency", "--importance",
        "3", "none", "--duration", "1h", "--category", "Admin", "--due", "tomorrow", "--next", "--no-next", "--notes",
        "--title", "abcd1234", "--from", "taskwarrior", "--to", "-", "--full", "--watch", "--peer", "--vdir",
        "--overwrite", "--", "-x", "Write the report", "é", "",
    ]

    @Test func everyCommandLineParsesAsTheRealRootParsesIt() {
        var generator = SeededRandom(seed: 0x6e65_7874_7570)
        var compared = 0, commands = 0
        for _ in 0..<400 {
            let count = Int(generator.next() % 6)
            let arguments = (0..<count).map { _ in Self.words[Int(generator.next() % UInt64(Self.words.count))] }
            let fast = Self.outcome { try CommandLineParse.command(arguments) }
            let real = Self.outcome { try NextUpCommand.parseAsRoot(arguments) }
            #expect(fast == real, "\(arguments)")
            compared += 1
            if fast.hasPrefix("command") { commands += 1 }
        }
        // The vocabulary reaches both sides: many lines parse, many fail.
        #expect(commands > 40 && compared - commands > 40, "\(commands) of \(compared) parsed")
    }

    @Test func helpVersionAndCompletionScriptsComeFromTheRealRoot() throws {
        for arguments in [["--help"], ["help", "count"], ["count", "--help"], ["--version"], ["--generate-completion-script", "bash"], []] {
            #expect(Self.outcome { try CommandLineParse.command(arguments) } == Self.outcome { try NextUpCommand.parseAsRoot(arguments) }, "\(arguments)")
        }
        #expect(try CommandLineParse.command([]) is NextUpCommand)
        #expect(try CommandLineParse.command(["count", "--store", "/tmp/x"]) is CountCommand)
    }
}
