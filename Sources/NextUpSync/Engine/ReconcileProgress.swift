import NextUpCore

/// How far a full reconcile run in slices has got (``SyncCycle/reconcileSlice(_:merged:)``):
/// what the background engine keeps between slices, so that incremental
/// cycles — a peer's new lines — run between them instead of waiting for the
/// whole reconcile.
///
/// It holds only what this replica read: positions in files, the keys of the
/// changes they hold, the damage seen. Nothing in it is ever written as a
/// cursor ahead of what was merged: slices merge lines *below* the stored
/// cursors (lines merged before, merged again — idempotent) and never move a
/// cursor, except to correct its damage flag once the whole file below it has
/// been read.
public struct ReconcileProgress: Sendable {
    /// One peer log being reconciled.
    struct PeerLog: Sendable {
        enum Stage: Sendable, Equatable {
            /// Not read to its cursor yet.
            case reading
            /// Read from its start to its cursor; incremental cycles still
            /// add what they read of it to ``held``.
            case read
            /// Left to the incremental cycles: the file went away, started a
            /// new generation, or its cursor moved back (they re-read it whole
            /// themselves, with its own re-publish of what it lost).
            case dropped
        }
        let name: String
        let replica: ReplicaID
        var stage = Stage.reading
        /// The generation whose lines were read (nil before the header was).
        var generation: String?
        /// Where the next slice reads from.
        var position: Int64 = 0
        /// The header's `previous_replica` is this replica (changes under its
        /// own id are expected).
        var trusted = false
        /// ``SyncCycle/heldKey(_:withReplica:)`` of every change under the
        /// log's owner read so far, by the slices and by the cycles between.
        var held: Set<Int> = []
        /// A damaged line was skipped below ``position``.
        var damaged = false
    }

    /// This replica's own log, verified line by line.
    struct OwnLog: Sendable {
        var generation: String
        var position: Int64
        /// Keys (with the replica) of changes by others this log re-published.
        var holds: Set<Int> = []
        /// Why it must be rewritten (read as input first), once found.
        var problem: SyncReport.RewriteReason?
        /// Read to the end the store recorded.
        var read = false
    }

    /// The replica the reconcile is for (a new id, after a copy was
    /// detected, starts it again).
    var replica: ReplicaID?
    /// Nil until the first slice looked at the own log; `ownLogChecked` then.
    var own: OwnLog?
    var ownLogChecked = false
    var logs: [PeerLog] = []
    var listed = false
    /// What the slices found, handed on to the final cycle's report.
    var report = SyncReport()

    /// Slices run so far.
    public private(set) var slices = 0
    /// Set by the last slice, which ran the final cycle.
    public internal(set) var isFinished = false

    public init() {}

    /// Field changes merged by the slices so far (re-merges that changed
    /// nothing count nothing).
    public var merged: Int { report.merged }

    mutating func countSlice() { slices += 1 }

    /// Whether a cycle reading `file` should tell the reconcile what it read:
    /// a log it follows, or one it has not listed (a cycle may read that one
    /// from its start, ``readWhole(_:replica:held:)``).
    func tracks(_ file: String) -> Bool {
        logs.first { $0.name == file }.map { $0.stage != .dropped } ?? true
    }

    /// A cycle of replica `me` read `file` from its start to its new cursor
    /// (it had none), holding `held`: the slices need not read it again. The
    /// whole log counts as read, as if the slices had read it, with what the
    /// cycle's report `found` in it (damage, clock skew). A reconcile not
    /// started yet is started for `me`; one for another id ignores it.
    mutating func readWhole(_ file: String, replica: ReplicaID, held: Set<Int>, by me: ReplicaID, found: SyncReport) {
        if self.replica == nil { self.replica = me }
        guard self.replica == me else { return }
        report.peers.insert(replica)
        report.fullReads[file] = "full reconcile"
        report.issues += found.issues.filter { $0.file == file }
        if let skew = found.clockSkew[file] { report.clockSkew[file] = max(report.clockSkew[file] ?? 0, skew) }
        guard let index = logs.firstIndex(where: { $0.name == file }) else {
            logs.append(PeerLog(name: file, replica: replica, stage: .read, held: held))
            return
        }
        guard logs[index].stage != .dropped else { return }
        logs[index].stage = .read
        logs[index].held = held
    }

    /// Adds keys a cycle read from `file` beyond the cursor.
    mutating func add(_ keys: Set<Int>, readFrom file: String) {
        guard let index = logs.firstIndex(where: { $0.name == file && $0.stage != .dropped }) else { return }
        logs[index].held.formUnion(keys)
    }

    /// A cycle re-read `file` from its start on its own (it went back).
    mutating func drop(_ file: String) {
        for index in logs.indices where logs[index].name == file { logs[index].stage = .dropped }
    }

    /// The logs read whole, with what they hold: for the re-publish of what
    /// a log lost (``SyncCycle`` step 2).
    var reread: [ReplicaID: (file: String, held: Set<Int>)] {
        var out: [ReplicaID: (file: String, held: Set<Int>)] = [:]
        for log in logs where log.stage == .read { out[log.replica] = (log.name, log.held) }
        return out
    }

    /// Every slice is done: what remains is the final cycle.
    var slicesDone: Bool { ownLogChecked && listed && !logs.contains { $0.stage == .reading } }
}
