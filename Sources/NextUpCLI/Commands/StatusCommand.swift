import ArgumentParser
import NextUpConfig
import NextUpCore
import NextUpStore
import NextUpSync

/// `nextup status`: this machine's name and, for its last change, which
/// other machines have merged it and since when.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status",
        abstract: "Which other machines have your last change.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try CommandContext.open(global)
        let status = try DeliveryStatus.read(context.store)
        let now = LocalTime.nowMillis
        print("this machine: \(try context.store.machineName())")
        guard let last = status.lastChange else { return print("no change made here yet") }
        print("my last change: \(DeliveryStatus.age(now - last.version.timestamp.millis)) (task \(last.task.short))")
        if status.peers.isEmpty { print("  no other machine's log read yet") }
        for peer in status.peers { print("  \(peer.name): \(peer.words(now: now))") }
    }
}
