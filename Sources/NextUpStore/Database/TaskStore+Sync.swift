import Foundation
import GRDB
import NextUpCore

/// The store-side transactions of peer-folder sync (DESIGN.md §5).
///
/// Sync state — each peer log's cursor, this replica's own-log state — lives
/// in the `meta` table under keys starting with ``syncKeyPrefix``, in the same
/// SQLite file as the tasks, and is changed in the same transaction as the
/// changes it covers. A fresh (or deleted and recreated) store therefore has
/// no cursor and reads everything.
extension TaskStore {
    /// Every sync-state key in `meta` starts with this.
    public static let syncKeyPrefix = "sync."

    /// What merging a batch of remote changes did (Core's batch merge tally).
    public typealias RemoteMergeResult = Merge.Tally

    /// Merges remote changes field by field and applies sync-state updates, in
    /// one IMMEDIATE transaction.
    ///
    /// Contract: each (task, field) ends holding the change with the greatest
    /// version among the one it held and those given (``Merge``); every
    /// change given is recorded in the history (``HistoryTable``); nothing is
    /// recorded in the outbox (remote changes are not local changes); the
    /// hybrid clock moves past every timestamp seen, so a later local edit
    /// wins over them; `state` entries are set (nil: removed) in the same
    /// transaction, so a cursor never runs ahead of, or behind, what it covers.
    ///
    /// - Parameter state: sync-state updates; every key must start with
    ///   ``syncKeyPrefix``.
    public func mergeRemote(_ changes: [FieldChange], state: [String: String?] = [:]) throws -> RemoteMergeResult {
        precondition(state.keys.allSatisfy { $0.hasPrefix(Self.syncKeyPrefix) }, "sync state keys start with \(Self.syncKeyPrefix)")
        return try syncTransaction(records: changes.count) { db in
            try Self.mergeRemote(changes, state: state, now: clock.nowMillis(), written: try TaskRow.nextWritten(db), db)
        }
    }

    /// Runs `body` in one IMMEDIATE transaction, handing it a `merge` that
    /// does what ``mergeRemote(_:state:)`` does (same contract, batch by
    /// batch), inside that transaction: for a whole log read at once (a
    /// first sync), so that a crash or an error leaves none of it, and what
    /// was merged is written once instead of once per batch.
    ///
    /// When the store holds no task as the transaction starts, the task
    /// table's secondary indexes are dropped and built again once at its
    /// end, in the same transaction (what a large import does,
    /// ``dropTaskIndexes(_:)``): a log written in id order then only appends
    /// to the table, instead of inserting every row at a random place of
    /// five indexes. No reader ever sees the table without its indexes.
    public func mergeRemoteAtOnce<T>(_ body: (_ merge: (_ changes: [FieldChange], _ state: [String: String?]) throws -> RemoteMergeResult) throws -> T) throws -> T {
        try syncTransaction(records: Self.largeWriteRecords + 1) { db in
            let empty = try Row.fetchOne(db, sql: "SELECT 1 FROM task LIMIT 1") == nil
            let written = try TaskRow.nextWritten(db)
            let dropped = empty ? try Self.dropTaskIndexes(db) : []
            // Appending only, SQLite's default cache does (as in an import).
            if !dropped.isEmpty { try db.execute(sql: "PRAGMA cache_size = -2000") }
            let result = try body { changes, state in
                precondition(state.keys.allSatisfy { $0.hasPrefix(Self.syncKeyPrefix) }, "sync state keys start with \(Self.syncKeyPrefix)")
                return try Self.mergeRemote(changes, state: state, now: clock.nowMillis(), written: written, db)
            }
            try Self.buildTaskIndexes(db, dropped)
            return result
        }
    }

    /// ``mergeRemote(_:state:)``'s work, in the caller's transaction.
    private static func mergeRemote(_ changes: [FieldChange], state: [String: String?], now: Int64, written: Int64,
                                    _ db: Database) throws -> RemoteMergeResult {
        let replica = try Self.replicaID(db)
        // Load the tasks the changes touch, merge in Core, save what changed.
        // Rows are read and written in id order: a large merge (a first
        // download) then walks the table's B-tree once, front to back,
        // instead of touching a random page per task.
        // A log's changes come in runs of one task: the ids are gathered
        // run by run and made unique once sorted (no set of strings).
        var touched: [TaskID] = []
        for change in changes where change.task != touched.last { touched.append(change.task) }
        var ids: [TaskID] = []
        ids.reserveCapacity(touched.count)
        for id in Self.inRowOrder(touched) where id != ids.last { ids.append(id) }
        // No row lies past the table's greatest id: those ids are not looked
        // up (a log in id order into an empty store: none is).
        let greatest = try String.fetchOne(db, sql: "SELECT max(id) FROM task")
        let present = greatest.map { last in ids.prefix { !last.utf8.lexicographicallyPrecedes($0.rawValue.utf8) } } ?? []
        var tasks: [TaskID: TaskItem] = [:]
        tasks.reserveCapacity(ids.count)
        for task in try TaskRow.fetchAll(db, ids: present) { tasks[task.id] = task }
        let before = tasks
        let result = Merge.apply(changes, to: &tasks, localReplica: replica)
        for id in Self.inRowOrder(result.changedTasks) { try TaskRow.save(tasks[id]!, db, written: written) }
        // Every change met, superseded ones too: the history of a task is the same on every replica.
        var machines = try HistoryTable.Machines.load(db)
        try HistoryTable.recordMerge(changes, before: before, after: tasks, received: now, &machines, db)
        if result.newestTimestamp > .zero {
            let last = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'clock'").flatMap { Int64($0) } ?? 0
            // As far as this machine's clock allows (HybridClock.observe(_:now:)).
            let seen = min(result.newestTimestamp, HybridClock.limit(now: now))
            if seen.rawValue > last {
                try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'clock'", arguments: [String(seen.rawValue)])
            }
        }
        try Self.applySyncState(state, db)
        return result
    }

    /// The sync-state entries whose keys start with `prefix` (itself starting
    /// with ``syncKeyPrefix``).
    public func syncState(prefix: String = TaskStore.syncKeyPrefix) throws -> [String: String] {
        precondition(prefix.hasPrefix(Self.syncKeyPrefix))
        return try database.read { db in
            var out: [String: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT key, value FROM meta WHERE key >= ? AND key < ?",
                                           arguments: [prefix, prefix + "\u{10FFFF}"])
            while let row = try rows.next() { out[row[0]] = row[1] }
            return out
        }
    }

    /// Saves sync-state entries (nil: removes them), in one transaction,
    /// without touching tasks or the outbox: how sync records where it stands
    /// (a peer log's cursor, this replica's own-log state) when it merged or
    /// uploaded nothing.
    public func saveSyncState(_ state: [String: String?]) throws {
        precondition(state.keys.allSatisfy { $0.hasPrefix(Self.syncKeyPrefix) }, "sync state keys start with \(Self.syncKeyPrefix)")
        try syncTransaction { db in try Self.applySyncState(state, db) }
    }

    /// Forgets the outbox up to and including `seq` and saves `state` (nil
    /// values remove entries), in one transaction: how an upload records that
    /// its changes are safe in this replica's log.
    public func forgetUploadedChanges(through seq: Int64, savingSyncState state: [String: String?]) throws {
        precondition(state.keys.allSatisfy { $0.hasPrefix(Self.syncKeyPrefix) }, "sync state keys start with \(Self.syncKeyPrefix)")
        try syncTransaction { db in
            try db.execute(sql: "DELETE FROM outbox WHERE seq <= ?", arguments: [seq])
            try Self.applySyncState(state, db)
        }
    }

    /// The sync-state key of the peer folder's identity (DESIGN.md §5).
    static let peerFolderKey = syncKeyPrefix + "peer-folder"

    /// The id of the peer folder this store syncs through, as its marker file
    /// named it when this store first used it; nil before the first sync (or
    /// for a store from before markers existed).
    public func rememberedPeerFolderID() throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [Self.peerFolderKey])
        }
    }

    /// Remembers the id of the peer folder's marker: from now on a folder
    /// without this marker is refused as unmounted or replaced.
    public func rememberPeerFolderID(_ id: String) throws {
        try syncTransaction { db in try Self.applySyncState([Self.peerFolderKey: id], db) }
    }

    /// The newest outbox sequence number (0 when the outbox is empty).
    public func newestOutboxSeq() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM outbox") ?? 0 }
    }

    /// Gives this store a new replica id, because another store turned out to
    /// write with the same one (the store was copied). Existing versions are
    /// kept as they are (nothing is lost); every later local write uses the
    /// new id. Removes the sync-state entries starting with `forgetting` in the
    /// same transaction.
    public func adoptNewReplicaID(forgetting prefix: String) throws -> ReplicaID {
        precondition(prefix.hasPrefix(Self.syncKeyPrefix))
        return try syncTransaction { db in
            let fresh = ReplicaID.make()
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'replica_id'", arguments: [fresh.rawValue])
            try db.execute(sql: "DELETE FROM meta WHERE key >= ? AND key < ?", arguments: [prefix, prefix + "\u{10FFFF}"])
            return fresh
        }
    }

    /// Hands every task (deleted ones included), `batchSize` at a time in id
    /// order, to `body`. Each batch is its own short read, so a long snapshot
    /// never holds the connection between batches; a task changed meanwhile
    /// is seen either before or after the change (both are safe to publish:
    /// versions only grow).
    public func forEachTaskBatch(size batchSize: Int = 1_000, _ body: ([TaskItem]) throws -> Void) throws {
        var after = ""
        while true {
            let batch = try database.read { db in
                try TaskRow.fetchAll(db, where: "id > ?", arguments: [after], order: "id LIMIT \(batchSize)")
            }
            if batch.isEmpty { return }
            try body(batch)
            after = batch.last!.id.rawValue
            if batch.count < batchSize { return }
        }
    }

    /// The field versions held for these tasks (unknown ids are left out).
    public func versions(of ids: [TaskID]) throws -> [TaskID: [TaskField: Version]] {
        try database.read { db in
            var out: [TaskID: [TaskField: Version]] = [:]
            for task in try TaskRow.fetchAll(db, ids: ids) { out[task.id] = task.versions }
            return out
        }
    }

    /// The number of tasks this store holds changes of but whose creation
    /// has not arrived yet (a peer's change came before its creator's log):
    /// not shown, counted or exported until it does.
    public func tasksAwaitingCreation() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM task WHERE NOT \(ListSQL.born)") ?? 0 }
    }

    /// The number of tasks, deleted ones included.
    public func taskCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM task") ?? 0 }
    }

    // MARK: -

    /// One IMMEDIATE transaction; a large merge (`records` changes) keeps a
    /// large page cache for this transaction only.
    private func syncTransaction<T>(records: Int = 1, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.writeWithoutTransaction { db in
                try withPageCache(forRecords: records, db) {
                    var result: T?
                    try db.inTransaction(.immediate) {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error, path: location.databaseURL.path, folder: location.folder.path)
        }
    }

    /// Sets sync-state entries, skipping those already holding the value: a
    /// cycle that learns nothing new writes nothing (no WAL frame, so no
    /// watcher wakes up for it).
    static func applySyncState(_ state: [String: String?], _ db: Database) throws {
        for (key, value) in state {
            let current = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
            if current == value { continue }
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            }
        }
    }
}
