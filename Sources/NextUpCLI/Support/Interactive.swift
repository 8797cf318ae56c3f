import ArgumentParser
import NextUpBridge
import NextUpCore
import NextUpStore
import NextUpTUI

/// What `nextup` with no subcommand opens: the terminal UI.
enum Interactive {
    static func open(_ context: CommandContext) throws {
        do {
            // A missing vdir does not keep the screen closed: the status bar says so.
            let companion = context.vdir.map { BridgeCompanion(bridge: VdirBridge(store: context.store, folder: $0)) }
            let status = try TerminalApp.run(store: context.store, peerFolder: context.peerFolder, companion: companion, otherNames: ReplicaID.calendarNames, config: context.config)
            if status != 0 { throw ExitCode(status) }
        } catch let error as TerminalAppError {
            throw CLIError(error.description)
        }
    }
}
