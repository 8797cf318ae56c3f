import NextUpCore
import NextUpStore
import Synchronization

/// A ``SyncStorage`` held in memory: the fake for tests, with the same
/// semantics as the real store — including conditional local writes with a
/// hybrid clock and an outbox, so that many replicas can be simulated fast.
public final class InMemorySyncStorage: SyncStorage {
    fileprivate struct State: Sendable {
        var replica: ReplicaID
        var clock = HybridClock()
        var tasks: [TaskID: TaskItem] = [:]
        var outbox: [(seq: Int64, change: FieldChange)] = []
        var nextSeq: Int64 = 1
        var ownLog: OwnLogState?
        var cursors: [String: PeerCursor] = [:]
        var peerFolder: String?
    }

    private let state: Mutex<State>
    /// The physical clock local writes read.
    public let clock: any PhysicalClock

    public init(replica: ReplicaID = .make(), clock: any PhysicalClock = SystemClock()) {
        state = Mutex(State(replica: replica))
        self.clock = clock
    }

    // MARK: Local writes (what the store's intent-named methods do)

    /// Sets fields of a task as a local edit: conditional (fields already
    /// holding the value are skipped), versioned from the hybrid clock, and
    /// recorded as pending. Returns the changes made.
    @discardableResult
    public func write(_ id: TaskID, _ fields: [(TaskField, FieldValue)], now: Int64? = nil) -> [FieldChange] {
        let now = now ?? clock.nowMillis()
        return state.withLock { s in
            // Core's local edit; values a field does not accept are skipped.
            let valid = fields.filter { $0.0.accepts($0.1) }
            guard let outcome = try? LocalEdit.apply(valid, to: s.tasks[id] ?? TaskItem(id: id), clock: s.clock,
                                                     replica: s.replica, now: now),
                  !outcome.changes.isEmpty else { return [] }
            s.clock = outcome.clock
            s.tasks[id] = outcome.task
            for change in outcome.changes { s.outbox.append((s.nextSeq, change)) }
            s.nextSeq += 1
            return outcome.changes
        }
    }

    /// Every task, by id.
    public var tasks: [TaskID: TaskItem] { state.withLock { $0.tasks } }

    /// The task with this id.
    public func task(_ id: TaskID) -> TaskItem? { state.withLock { $0.tasks[id] } }

    /// A copy of the whole store, as a backup takes it.
    public struct Backup: Sendable {
        fileprivate let state: State
        /// The changes the backup holds: every register and pending local change.
        public var changes: [FieldChange] {
            state.tasks.values.flatMap(\.allChanges) + state.outbox.map(\.change)
        }
    }

    /// Takes a backup (tests).
    public func backup() -> Backup { state.withLock { Backup(state: $0) } }

    /// Puts a backup back, losing everything since (tests).
    public func restore(_ backup: Backup) { state.withLock { $0 = backup.state } }

    /// Loses everything (a deleted store); a new store gets a new replica id.
    public func reset(replica: ReplicaID = .make()) { state.withLock { $0 = State(replica: replica) } }

    // MARK: SyncStorage

    public func replicaID() throws -> ReplicaID { state.withLock { $0.replica } }

    public func pendingLocalChanges(limit: Int) throws -> PendingLocalChanges {
        state.withLock { s in
            var changes: [FieldChange] = []
            var through: Int64?
            var records = 0
            for entry in s.outbox {
                if entry.seq != through {
                    if records == limit { break }
                    records += 1
                }
                changes.append(entry.change)
                through = entry.seq
            }
            return PendingLocalChanges(changes: changes, through: through)
        }
    }

    public func pendingLocalChangeCount() throws -> Int {
        state.withLock { Set($0.outbox.map(\.seq)).count }
    }

    public func newestLocalChangeSeq() throws -> Int64 { state.withLock { $0.outbox.last?.seq ?? 0 } }

    public func recordUpload(through seq: Int64, ownLog: OwnLogState) throws {
        state.withLock { s in
            s.outbox.removeAll { $0.seq <= seq }
            s.ownLog = ownLog
        }
    }

    public func saveOwnLogState(_ ownLog: OwnLogState) throws {
        state.withLock { $0.ownLog = ownLog }
    }

    public func saveCursor(_ cursor: PeerCursor, forPeerFile file: String) throws {
        state.withLock { $0.cursors[file] = cursor }
    }

    public func ownLogState() throws -> OwnLogState? { state.withLock { $0.ownLog } }

    public func cursors() throws -> [String: PeerCursor] { state.withLock { $0.cursors } }

    public func merge(_ changes: [FieldChange], cursor: (file: String, cursor: PeerCursor)?) throws -> TaskStore.RemoteMergeResult {
        let now = clock.nowMillis()
        return state.withLock { s in
            let result = Merge.apply(changes, to: &s.tasks, localReplica: s.replica)
            s.clock.observe(result.newestTimestamp, now: now)
            if let cursor { s.cursors[cursor.file] = cursor.cursor }
            return result
        }
    }

    public func forEachTaskBatch(_ body: ([TaskItem]) throws -> Void) throws {
        let all = state.withLock { $0.tasks.values.sorted { $0.id < $1.id } }
        var index = 0
        while index < all.count {
            try body(Array(all[index..<min(all.count, index + 1_000)]))
            index += 1_000
        }
    }

    public func versions(of tasks: [TaskID]) throws -> [TaskID: [TaskField: Version]] {
        state.withLock { state in
            var out: [TaskID: [TaskField: Version]] = [:]
            for id in tasks { if let task = state.tasks[id] { out[id] = task.versions } }
            return out
        }
    }

    public func peerFolderID() throws -> String? { state.withLock { $0.peerFolder } }

    public func rememberPeerFolder(id: String) throws { state.withLock { $0.peerFolder = id } }

    public func adoptNewReplicaID() throws -> ReplicaID {
        state.withLock { s in
            s.replica = .make()
            s.ownLog = nil
            return s.replica
        }
    }
}
