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
    }

    /// The last change this machine made (nil: none yet).
    public let lastChange: (task: TaskID, version: Version)?
    /// Every other machine whose log this store reads, by name.
    public let peers: [Peer]

    public static func == (a: DeliveryStatus, b: DeliveryStatus) -> Bool {
        a.lastChange?.task == b.lastChange?.task && a.lastChange?.version == b.lastChange?.version && a.peers == b.peers
    }

    /// Reads the status from `store`'s history and peer cursors.
    public static func read(_ store: TaskStore) throws -> DeliveryStatus {
        let last = try store.lastOwnChange()
        let names = try MachineNames.known(store)
        var peers: [Peer] = []
        for (file, cursor) in try TaskStoreSyncStorage(store: store).cursors() {
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
