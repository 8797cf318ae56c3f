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
        print("my last change: \(Self.age(now - last.version.timestamp.millis)) (task \(last.task.short))")
        if status.peers.isEmpty { print("  no other machine's log read yet") }
        for peer in status.peers {
            let seen = peer.lastSeen.map { "last seen \(Self.age(now - $0))" } ?? "never seen"
            switch peer.stand {
            case .has(let since): print("  \(peer.name): has it since \(Self.age(now - since))")
            case .notYet: print("  \(peer.name): not yet — \(seen)")
            case .unknown: print("  \(peer.name): unknown (its nextup does not say) — \(seen)")
            }
        }
    }

    /// "just now", "2 min ago", "3 h ago", "4 days ago".
    static func age(_ millis: Int64) -> String {
        let s = max(0, millis) / 1000
        if s < 60 { return "just now" }
        if s < 3600 { return "\(s / 60) min ago" }
        if s < 86_400 { return "\(s / 3600) h ago" }
        return "\(s / 86_400) day\(s / 86_400 == 1 ? "" : "s") ago"
    }
}
