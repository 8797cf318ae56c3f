import ArgumentParser
import NextUpStore
import NextUpTUI

/// What `nextup` with no subcommand opens: the terminal UI.
enum Interactive {
    static func open(_ context: CommandContext) throws {
        do {
            let status = try TerminalApp.run(store: context.store, peerFolder: context.peerFolder, config: context.config)
            if status != 0 { throw ExitCode(status) }
        } catch let error as TerminalAppError {
            throw CLIError(error.description)
        }
    }
}
