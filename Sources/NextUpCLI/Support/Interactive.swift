import ArgumentParser
import NextUpStore
import NextUpTUI

/// What `nextup` with no subcommand opens: the terminal UI.
enum Interactive {
    static func open(_ context: CommandContext) throws {
        do {
            let companion = try context.bridge().map(BridgeCompanion.init)
            let status = try TerminalApp.run(store: context.store, peerFolder: context.peerFolder, companion: companion, config: context.config)
            if status != 0 { throw ExitCode(status) }
        } catch let error as TerminalAppError {
            throw CLIError(error.description)
        }
    }
}
