import ArgumentParser
import Foundation
import NextUpCore
import NextUpStore

/// `nextup`: with no subcommand it opens the TUI; the subcommands are the
/// command-line "shortcuts" of DESIGN.md §4.
public struct NextUpCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "nextup",
        abstract: "A terminal task manager: Next Up and Backlog, triage by keystroke, sync through a folder.",
        version: NextUpVersion.string,
        subcommands: [
            AddCommand.self, ListCommand.self, NextCommand.self, ShowCommand.self, EditCommand.self,
            DoneCommand.self, SkipCommand.self, StopCommand.self, UndoneCommand.self, DeleteCommand.self, RestoreCommand.self, UndoCommand.self,
            CountCommand.self, ExportCommand.self, ImportCommand.self, DoctorCommand.self, SyncCommand.self,
            RecoverCommand.self,
            VdirMergeCommand.self,
            ChangesCommand.self, MachineCommand.self, StatusCommand.self,
        ]
    )

    @OptionGroup public var global: GlobalOptions

    public init() {}

    public func run() throws {
        let context = try CommandContext.open(global, creating: true)
        try Interactive.open(context)
    }
}

/// The process entry point: parses, runs, and turns every failure into one
/// line on stderr and a non-zero exit code — never a backtrace.
public enum NextUpMain {
    public static func run(_ arguments: [String]) -> Int32 {
        do {
            let arguments = try TaskwarriorWords.rewrite(arguments)
            try DashedWord.check(arguments)
            try TaskwarriorSpelling.check(arguments, knownCommands: Set(NextUpCommand.configuration.subcommands.map { $0._commandName }))
            var command = try NextUpCommand.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as OneLineFailure {
            Terminal.printError("nextup: \(error.line)")
            return error.exitCode
        } catch let error as ExitCode {
            return error.rawValue
        } catch {
            if let plain = StoreError.plain(error) {
                Terminal.printError("nextup: \(plain.line)")
                return plain.exitCode
            }
            let code = NextUpCommand.exitCode(for: error)
            if code == .success {
                print(NextUpCommand.fullMessage(for: error))
                return 0
            }
            let message = NextUpCommand.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "\(error)"
            Terminal.printError("nextup: \(message) (see 'nextup --help')")
            return code.rawValue
        }
    }
}
