import NextUpCore
import NextUpStore

/// For this machine's last change, which other machines have merged it and
/// since when, as their logs' delivery marks said (``LogRecord/Delivery``,
/// kept in ``PeerCursor/mergedMine``).
public struct DeliveryStatus: Sendable, Equatable {
    /// Where one other machine stands with the last change.
    public enum Stand: Sendable, Equatable {
        /// It has it since `since` (its clock, ms).
        case has(since: Int64)
        /// Its log says it has not merged it yet.
        case notYet
        /// Its log never said how far it merged (an older nextup).
        case unknown
    }

    public struct Peer: Sendable, Equatable {
        public let replica: ReplicaID
        public let name: String
        public let stand: Stand
        /// This machine's clock when it last saw that machine's log change (ms).
        public let lastSeen: Int64?

        /// Where it stands, in words, at `now` (ms): "has it since 2 min
        /// ago", "not yet, last seen 3 days ago", "unknown (its nextup does
        /// not say), last seen just now".
        public func words(now: Int64) -> String {
            let seen = lastSeen.map { "last seen \(DeliveryStatus.age(now - $0))" } ?? "never seen"
            switch stand {
            case .has(let since): return "has it since \(DeliveryStatus.age(now - since))"
            case .notYet: return "not yet, \(seen)"
            case .unknown: return "unknown (its nextup does not say), \(seen)"
            }
        }
    }

    /// The last change this machine made (nil: none yet).
    public let lastChange: (task: TaskID, version: Version)?
    /// Every other machine whose log this store reads, by name.
    public let peers: [Peer]

    public static func == (a: DeliveryStatus, b: DeliveryStatus) -> Bool {
        a.lastChange?.task == b.lastChange?.task && a.lastChange?.version == b.lastChange?.version && a.peers == b.peers
    }

    /// Where every other machine stands, in one line:
    /// `desktop has it since 2 min ago · server not yet, last seen 3 days ago`
    /// (the TUI's status bar; `nextup status` says each ``Peer/words(now:)``
    /// on a line of its own). Nil when there is no change or no other machine.
    public func summary(now: Int64) -> String? {
        guard lastChange != nil, !peers.isEmpty else { return nil }
        return peers.map { "\($0.name) \($0.words(now: now))" }.joined(separator: " · ")
    }

    /// "just now", "2 min ago", "3 h ago", "4 days ago".
    public static func age(_ millis: Int64) -> String {
        let s = max(0, millis) / 1000
        if s < 60 { return "just now" }
        if s < 3600 { return "\(s / 60) min ago" }
        if s < 86_400 { return "\(s / 3600) h ago" }
        return "\(s / 86_400) day\(s / 86_400 == 1 ? "" : "s") ago"
    }

    /// Reads the status from `store`'s history and peer cursors.
    public static func read(_ store: TaskStore) throws -> DeliveryStatus {
        let last = try store.lastOwnChange()
        let cursors = try TaskStoreSyncStorage(store: store).cursors()
        let names = try MachineNames.known(store, cursors: cursors)
        var peers: [Peer] = []
        for (file, cursor) in cursors {
            guard case .log(let replica) = PeerFileName.classify(file) else { continue }
            let stand: Stand
            if let marks = cursor.mergedMine, !marks.isEmpty {
                let wanted = last?.version.timestamp.millis ?? .min
                if let first = marks.first(where: { $0.count == 2 && $0[0] >= wanted }) { stand = .has(since: first[1]) } else { stand = .notYet }
            } else {
                stand = .unknown
            }
            peers.append(Peer(replica: replica, name: MachineNames.label(replica, in: names), stand: stand, lastSeen: cursor.seen))
        }
        return DeliveryStatus(lastChange: last, peers: peers.sorted { ($0.name, $0.replica) < ($1.name, $1.replica) })
    }
}
