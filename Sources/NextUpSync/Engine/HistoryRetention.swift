import NextUpCore
import NextUpStore

/// How long the history keeps replaced values (`[history] keep` in the
/// config file), applied by `nextup sync` after its cycle.
///
/// A replaced value goes only when it is older than the limit *and* every
/// other machine whose log this store reads has said, in its last delivery
/// mark (``PeerCursor/merged``), that it merged its writer's changes past
/// it: a machine that may still need it (to show it, or to hear of it from
/// this machine's log) keeps it here. A machine that never said (an older
/// nextup, or one that has not merged anything yet) keeps every value; so
/// do values from writers no log speaks for (the phone) while any other
/// machine is known. ``TaskStore/dropReplacedValues(before:mergedThrough:others:)``
/// says which of the eligible values go.
public enum HistoryRetention {
    /// Drops what may go from `store`'s history at `now` (ms), keeping
    /// `keepDays` days; returns how many values went.
    @discardableResult
    public static func apply(_ store: TaskStore, keepDays: Int, now: Int64) throws -> Int {
        let me = try store.replicaID()
        var peers: [(replica: ReplicaID, merged: [String: Int64])] = []
        var unknown = false
        for (file, cursor) in try TaskStoreSyncStorage(store: store).cursors() {
            guard case .log(let replica) = PeerFileName.classify(file), replica != me else { continue }
            if let merged = cursor.merged { peers.append((replica, merged)) } else { unknown = true }
        }
        if unknown { return 0 }
        // For each writer, how far every other machine has merged it.
        var through: [ReplicaID: Int64] = [:]
        for writer in [me] + peers.map(\.replica) {
            var least = Int64.max
            for peer in peers where peer.replica != writer {
                guard let said = peer.merged[writer.rawValue] else { least = .min; break }
                least = min(least, said)
            }
            if least > .min { through[writer] = least }
        }
        return try store.dropReplacedValues(before: now - Int64(keepDays) * 86_400_000, mergedThrough: through,
                                            others: peers.isEmpty ? .max : nil)
    }
}
