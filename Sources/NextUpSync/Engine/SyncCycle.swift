import NextUpCore
import NextUpStore

/// One sync cycle between a store and a peer folder (DESIGN.md §5), with no
/// threads and no locks of its own: ``SyncEngine`` adds those.
///
/// A cycle, in order:
/// 1. **Own log check.** Cheap when nothing is odd (one `stat`). A missing own
///    log, one replaced by another generation or shrunk, is read as input and
///    then rewritten from the store; bytes beyond what this replica wrote are
///    read as input (a torn tail is cut away).
/// 2. **Download.** For every other replica's log, the bytes after this
///    replica's cursor for it, merged chunk by chunk, each chunk in one store
///    transaction that also advances the cursor. A file is read from its
///    start when there is no cursor, the generation changed, the file shrank,
///    the cursor is otherwise invalid, or `full` is asked. Conflict copies
///    are read whole. Damage is skipped and reported.
/// 3. **Copy detection.** A remote change that wins although it carries this
///    replica's own id was made by another store with the same id: this store
///    takes a new id (keeping everything) and starts a new log.
/// 4. **Upload.** Local changes since the last upload, appended in one write
///    plus fsync; then the changes learnt from conflict copies are published
///    the same way and the copies renamed aside; then compaction when the log
///    has grown well past its last snapshot.
///
/// Every step is idempotent, so a cycle cut short at any point (a crash, a
/// kill) is completed by the next one, and nothing is lost. A cycle with
/// nothing new writes nothing.
public final class SyncCycle: Sendable {
    public let storage: any SyncStorage
    public let folder: any PeerFolder
    public let clock: any PhysicalClock
    public let options: SyncOptions

    public init(storage: any SyncStorage, folder: any PeerFolder, clock: any PhysicalClock = SystemClock(), options: SyncOptions = SyncOptions()) {
        self.storage = storage
        self.folder = folder
        self.clock = clock
        self.options = options
    }

    private var reader: LogFileReader { LogFileReader(folder: folder) }

    /// Runs a whole cycle.
    ///
    /// - Throws: ``PeerFolderError`` when the folder is missing or unusable,
    ///   ``StoreError`` when the store fails. Damaged peer files never throw.
    public func run(full: Bool = false) throws -> SyncReport {
        try perform(download: true, full: full)
    }

    /// Publishes local changes to this replica's log without reading the
    /// other logs: what a command calls after it changed tasks.
    public func publish() throws -> SyncReport {
        try perform(download: false, full: false)
    }

    private func perform(download: Bool, full: Bool) throws -> SyncReport {
        try folder.checkAvailable()
        var report = SyncReport()
        var me = try storage.replicaID()
        let listing = try folder.list()
        let byName = Dictionary(listing.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

        let ownLogProblem = try checkOwnLog(me, byName[LogFormat.fileName(for: me)], &report)
        // When the own log already showed another store writing under this
        // id, leave that file to it: step 3 moves this store to a new id.
        if let reason = ownLogProblem, report.foreignChangesUnderOwnID == 0 {
            try rewriteOwnLog(me, reason: reason, previous: nil, &report)
        }

        var republish: [FieldChange] = []
        var conflictCopies: [String] = []
        if download {
            let cursors = try storage.cursors()
            for info in listing {
                do {
                    switch PeerFileName.classify(info.name) {
                    case .log(let replica) where replica == me:
                        continue
                    case .log(let replica):
                        try readPeerLog(info, replica: replica, cursor: full ? nil : cursors[info.name], full: full, me: me, &report)
                    case .conflictCopy:
                        if let changes = try readConflictCopy(info, me: me, &report) {
                            republish += changes
                            conflictCopies.append(info.name)
                        }
                    case .unrecognisedLog:
                        report.issues.append(LogIssue(file: info.name, offset: nil, kind: .notALog("the name is not nextup-<replica id>.log")))
                    case .ignored:
                        continue
                    }
                } catch let error as PeerFolderError {
                    // One unreadable file (gone since the listing, an I/O
                    // error) skips that file only; a vanished folder stops all.
                    try folder.checkAvailable()
                    if (try? folder.info(info.name)) != nil {
                        report.issues.append(LogIssue(file: info.name, offset: nil, kind: .unreadable(error.description)))
                    }
                }
            }
        }

        if report.foreignChangesUnderOwnID > 0 {
            let previous = me
            me = try storage.adoptNewReplicaID()
            report.newReplicaID = me
            try rewriteOwnLog(me, reason: .copiedStore, previous: previous, &report)
        }

        try upload(me, &report)

        if !conflictCopies.isEmpty {
            try appendToOwnLog(me, LogRecord.grouping(republish), &report)
            for name in conflictCopies {
                do {
                    try folder.rename(name, to: name + PeerFileName.mergedSuffix)
                    report.conflictCopiesMerged.append(name)
                } catch {
                    // Another replica renamed it first: its content is merged all the same.
                    if (try? folder.info(name)) != nil { throw error }
                }
            }
        }

        if let state = try storage.ownLogState(),
           state.end > max(options.compactionMinimumBytes, options.compactionFactor * state.snapshotSize) {
            try rewriteOwnLog(me, reason: .compaction, previous: state.previousReplica.flatMap(ReplicaID.init), &report)
        }
        return report
    }

    // MARK: - Own log

    /// Checks this replica's own log against what the store says it wrote.
    /// Returns why it must be rewritten, or nil when it can be appended to.
    private func checkOwnLog(_ me: ReplicaID, _ info: PeerFileInfo?, _ report: inout SyncReport) throws -> SyncReport.RewriteReason? {
        let name = LogFormat.fileName(for: me)
        guard var state = try storage.ownLogState(), state.replica == me.rawValue else {
            // Never written by this store. A file under this name holds
            // somebody's changes: read them before the file is replaced.
            if let info { try readAsInput(info, me: me, from: nil, &report) }
            return info == nil ? .firstSync : .replaced
        }
        guard let info else { return .missing }
        if info.size == state.end && info.identity == state.identity { return nil }

        let header: LogHeader
        let headerEnd: Int64
        switch reader.header(of: name) {
        case .failure(let issue):
            note(issue, &report)
            return .replaced
        case .success(let found):
            (header, headerEnd) = found
        }
        if header.replica != me || header.generation != state.generation || info.size < state.end || state.end < headerEnd {
            try readAsInput(info, me: me, from: nil, &report)
            return .replaced
        }
        if info.size > state.end {
            // Lines beyond this replica's last write: its own lines from a
            // write cut short before the store recorded it, a torn tail, or
            // (if they are not this store's) a copy's lines.
            let end = try readAsInput(info, me: me, from: state.end, &report)
            if end < info.size {
                try folder.append([], to: name, truncatingTo: end)
            }
            state.end = end
        }
        state.identity = try folder.info(name)?.identity ?? info.identity
        try storage.saveOwnLogState(state)
        return nil
    }

    /// Reads a file as plain input (no cursor): its header, then its lines
    /// from `start` (nil: just after the header). Returns where reading stopped.
    @discardableResult
    private func readAsInput(_ info: PeerFileInfo, me: ReplicaID, from start: Int64?, _ report: inout SyncReport) throws -> Int64 {
        switch reader.header(of: info.name) {
        case .failure(let issue):
            note(issue, &report)
            return 0
        case .success(let (header, headerEnd)):
            let trusted = header.previousReplica == me
            var localReport = report
            let outcome = try reader.readLines(of: info.name, owner: header.replica, from: max(start ?? headerEnd, headerEnd), upTo: info.size) { scan in
                try mergeInBatches(scan, file: info.name, cursor: nil, trusted: trusted, &localReport)
            }
            report = localReport
            if let tail = outcome.incompleteTail { report.issues.append(tail) }
            return outcome.end
        }
    }

    /// Replaces this replica's log with a snapshot of the store.
    private func rewriteOwnLog(_ me: ReplicaID, reason: SyncReport.RewriteReason, previous: ReplicaID?, _ report: inout SyncReport) throws {
        let seq = try storage.newestLocalChangeSeq()
        // The snapshot carries the pending local changes: count them as uploaded.
        let pending = reason == .compaction ? 0 : try storage.pendingLocalChanges(limit: .max).changes.count
        let header = LogHeader(replica: me, created: clock.nowMillis(), previousReplica: previous)
        let storage = self.storage
        let size = try LogWriter(folder: folder, owner: me).rewrite(header: header) { emit in
            try storage.forEachTaskBatch { tasks in
                try emit(tasks.compactMap { task in
                    let changes = task.allChanges
                    return changes.isEmpty ? nil : LogRecord(task: task.id, changes: changes)
                })
            }
        }
        let identity = try folder.info(LogFormat.fileName(for: me))?.identity ?? 0
        let state = OwnLogState(replica: me.rawValue, generation: header.generation, end: size, identity: identity,
                                snapshotSize: size, previousReplica: previous?.rawValue)
        if seq > 0 { try storage.recordUpload(through: seq, ownLog: state) } else { try storage.saveOwnLogState(state) }
        report.ownLogRewritten = reason
        report.uploaded += pending
        report.bytesWritten += size
    }

    /// Appends pending local changes, a batch per write.
    private func upload(_ me: ReplicaID, _ report: inout SyncReport) throws {
        while true {
            let pending = try storage.pendingLocalChanges(limit: options.uploadBatch)
            guard let through = pending.through else { return }
            try appendToOwnLog(me, LogRecord.grouping(pending.changes), through: through, &report)
            report.uploaded += pending.changes.count
        }
    }

    /// Appends records to this replica's log (one write, fsync) and records
    /// the new end, with the outbox pruned through `seq`, in one transaction.
    private func appendToOwnLog(_ me: ReplicaID, _ records: [LogRecord], through seq: Int64? = nil, _ report: inout SyncReport) throws {
        guard var state = try storage.ownLogState(), state.replica == me.rawValue else {
            preconditionFailure("the own log is checked or rewritten before anything is appended")
        }
        let name = LogFormat.fileName(for: me)
        if !records.isEmpty {
            let header = LogHeader(replica: me, generation: state.generation, created: clock.nowMillis(),
                                   previousReplica: state.previousReplica.flatMap(ReplicaID.init))
            let before = state.end
            state.end = try LogWriter(folder: folder, owner: me).append(records, header: header)
            state.identity = try folder.info(name)?.identity ?? state.identity
            report.bytesWritten += max(0, state.end - before)
        }
        if let seq { try storage.recordUpload(through: seq, ownLog: state) } else { try storage.saveOwnLogState(state) }
    }

    // MARK: - Other logs

    private func readPeerLog(_ info: PeerFileInfo, replica: ReplicaID, cursor: PeerCursor?, full: Bool, me: ReplicaID, _ report: inout SyncReport) throws {
        if let cursor, cursor.offset == info.size, cursor.identity == info.identity {
            report.peers.insert(replica)
            return
        }
        let header: LogHeader
        let headerEnd: Int64
        switch reader.header(of: info.name) {
        case .failure(let issue):
            note(issue, &report)
            return
        case .success(let found):
            (header, headerEnd) = found
        }
        guard header.replica == replica else {
            report.issues.append(LogIssue(file: info.name, offset: nil, kind: .wrongReplica("its header names replica \(header.replica), not the one in its name")))
            return
        }
        report.peers.insert(replica)

        var start = headerEnd
        if let cursor {
            if cursor.generation != header.generation { report.fullReads[info.name] = "its writer started a new generation" }
            else if info.size < cursor.offset { report.fullReads[info.name] = "the file shrank" }
            else if cursor.offset < headerEnd { report.fullReads[info.name] = "the stored position was invalid" }
            else { start = cursor.offset }
        } else if full {
            report.fullReads[info.name] = "full reconcile"
        }

        let trusted = header.previousReplica == me
        var consumed = false
        var localReport = report
        let outcome = try reader.readLines(of: info.name, owner: replica, from: start, upTo: info.size) { scan in
            try mergeInBatches(scan, file: info.name, cursor: { PeerCursor(generation: header.generation, offset: $0, identity: info.identity) },
                               trusted: trusted, &localReport)
            consumed = true
        }
        report = localReport
        if let tail = outcome.incompleteTail { report.issues.append(tail) }
        let final = PeerCursor(generation: header.generation, offset: outcome.end, identity: info.identity)
        if !consumed && final != cursor {
            try storage.saveCursor(final, forPeerFile: info.name)
        }
    }

    /// Reads a conflict copy whole; returns its good changes (to publish
    /// before the copy is renamed aside), or nil when it is not readable.
    private func readConflictCopy(_ info: PeerFileInfo, me: ReplicaID, _ report: inout SyncReport) throws -> [FieldChange]? {
        guard case .success(let (header, headerEnd)) = reader.header(of: info.name) else {
            if case .failure(let issue) = reader.header(of: info.name) { note(issue, &report) }
            return nil
        }
        let trusted = header.previousReplica == me
        var changes: [FieldChange] = []
        var localReport = report
        let outcome = try reader.readLines(of: info.name, owner: header.replica, from: headerEnd, upTo: info.size) { scan in
            try mergeInBatches(scan, file: info.name, cursor: nil, trusted: trusted, &localReport)
            changes += scan.records.flatMap(\.changes)
        }
        report = localReport
        if let tail = outcome.incompleteTail { report.issues.append(tail) }
        return changes
    }

    /// Merges one chunk's records, ``SyncOptions/mergeBatch`` records per
    /// transaction; with `cursor`, each transaction also stores the cursor
    /// just past its last record (the chunk's end for the last one).
    private func mergeInBatches(_ scan: LogScan, file: String, cursor: ((Int64) -> PeerCursor)?, trusted: Bool, _ report: inout SyncReport) throws {
        var start = 0
        repeat {
            let end = min(scan.records.count, start + options.mergeBatch)
            let last = end == scan.records.count
            let offset = last ? scan.end : scan.recordEnds[end - 1]
            let changes = scan.records[start..<end].flatMap(\.changes)
            let result = try storage.merge(changes, cursor: cursor.map { (file, $0(offset)) })
            tally(result, last ? scan.issues : [], file: file, trusted: trusted, &report)
            start = end
        } while start < scan.records.count
    }

    /// Reports an issue — except a failed read of a file that is gone since
    /// the listing (renamed aside, replaced, deleted): nothing to report.
    private func note(_ issue: LogIssue, _ report: inout SyncReport) {
        if case .unreadable = issue.kind, (try? folder.info(issue.file)) == nil { return }
        report.issues.append(issue)
    }

    private func tally(_ result: TaskStore.RemoteMergeResult, _ issues: [LogIssue], file: String, trusted: Bool, _ report: inout SyncReport) {
        report.merged += result.applied
        report.changedTasks.formUnion(result.changedTasks)
        report.issues += issues
        if !trusted { report.foreignChangesUnderOwnID += result.foreignChangesUnderOwnID }
        if result.newestTimestamp > .zero, let ahead = HybridClock.skew(of: result.newestTimestamp, now: clock.nowMillis()) {
            report.clockSkew[file] = max(report.clockSkew[file] ?? 0, ahead)
        }
    }
}
