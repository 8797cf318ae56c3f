import NextUpStore
import NextUpTUI

/// What `nextup` with no subcommand opens: the terminal UI.
enum Interactive {
    static func open(_ context: CommandContext) throws {
        do {
            let companion = try context.bridge().map(BridgeCompanion.init)
            try TerminalApp.run(store: context.store, peerFolder: context.peerFolder, companion: companion, config: context.config)
        } catch let error as TerminalAppError {
            throw CLIError(error.description)
        }
    }
}
