import Foundation
import GRDB
import NextUpCore

extension TaskStore {
    /// Repairs a store that took in a version beyond the sane future
    /// (``HybridClock/isBeyondSaneFuture(_:now:)``) before such versions were
    /// refused — e.g. one log line dated `7fffffffffffffff`, after which every
    /// local write trapped in the clock. Runs when the store opens; costs one
    /// read of the saved clock when nothing is wrong.
    ///
    /// Contract, in one transaction:
    /// - every register whose version is beyond the sane future and was
    ///   written by another replica keeps its value at the lowest version
    ///   (timestamp zero, same replica): any real write replaces it, and the
    ///   full reconcile below brings back the value the logs hold;
    /// - such a register written by this replica (a local edit made with the
    ///   poisoned clock) is re-stamped with a fresh, sane local version and
    ///   recorded as a local change, so it is published again and wins;
    /// - local changes not yet uploaded that carry such versions are dropped
    ///   (their re-stamped successors replace them);
    /// - the saved clock moves back to the newest sane version;
    /// - every sync cursor and the own-log state are forgotten (all
    ///   sync-state keys but ``peerFolderKey``), so the next sync reads every
    ///   log again and rewrites this replica's own log.
    ///
    /// Checks the saved clock in a read and repairs (a write) only when needed:
    /// opening a sane store writes nothing.
    static func repairFarFutureVersionsIfNeeded(_ queue: DatabaseQueue, now: Int64) throws {
        guard try queue.read({ db in try needsFarFutureRepair(db, now: now) }) else { return }
        try queue.write { db in _ = try repairFarFutureVersions(db, now: now) }
    }

    /// Whether the saved clock is beyond the sane future (the check
    /// ``repairFarFutureVersionsIfNeeded(_:now:)`` makes before it writes).
    static func needsFarFutureRepair(_ db: Database, now: Int64) throws -> Bool {
        let saved = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'clock'").flatMap { Int64($0) } ?? 0
        return saved > HybridClock.saneFutureLimit(now: now).rawValue
    }

    /// - Returns: the number of registers repaired (0: the store was sane).
    @discardableResult
    static func repairFarFutureVersions(_ db: Database, now: Int64) throws -> Int {
        let limit = HybridClock.saneFutureLimit(now: now)
        let saved = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'clock'").flatMap { Int64($0) } ?? 0
        guard saved > limit.rawValue else { return 0 }
        let me = try replicaID(db)
        let affected = try TaskRow.fetchAll(db, where: "modified > ?", arguments: [limit.rawValue])
        var newest = HybridTimestamp(rawValue: try Int64.fetchOne(db, sql: "SELECT max(modified) FROM task WHERE modified <= ?", arguments: [limit.rawValue]) ?? 0)
        for task in affected {
            for version in task.versions.values where version.timestamp <= limit { newest = max(newest, version.timestamp) }
        }
        var clock = HybridClock(last: newest)
        let written = try TaskRow.nextWritten(db)
        var repaired = 0
        for var task in affected {
            var restamped: [FieldChange] = []
            let version = Version(timestamp: clock.tick(now: now), replica: me)
            for (field, old) in task.versions where old.timestamp > limit {
                repaired += 1
                if old.replica == me {
                    task.versions[field] = version
                    restamped.append(FieldChange(task: task.id, field: field, value: task.value(of: field), version: version))
                } else {
                    task.versions[field] = Version(timestamp: .zero, replica: old.replica)
                }
            }
            try TaskRow.save(task, db, written: written)
            try Outbox.append(restamped, task: task.id, db)
        }
        for seq in try outboxEntries(db, namingVersionsAfter: limit) {
            try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [seq])
        }
        try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'clock'", arguments: [String(clock.last.rawValue)])
        try db.execute(sql: "DELETE FROM meta WHERE key >= ? AND key < ? AND key != ?",
                       arguments: [syncKeyPrefix, syncKeyPrefix + "\u{10FFFF}", peerFolderKey])
        return repaired
    }
}
