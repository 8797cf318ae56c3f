import Synchronization
import NextUpCore
import NextUpStore

/// One sync cycle between a store and a peer folder (DESIGN.md §5), with no
/// threads and no locks of its own: ``SyncEngine`` adds those.
///
/// A cycle, in order:
/// 0. **Folder identity.** The folder's marker must be the one this store
///    remembers (``FolderIdentity``); a folder that lost it (an unmounted
///    share, a replaced folder) is refused before anything is written.
/// 1. **Own log check.** Cheap when nothing is odd (one `stat`). A missing own
///    log, one replaced by another generation or shrunk, is read as input and
///    then rewritten from the store; bytes beyond what this replica wrote are
///    read as input (a torn tail is cut away). On a full cycle, or when the
///    file was written since this replica's last write although its size and
///    inode are unchanged (an in-place overwrite), every line's checksum is
///    verified; a damaged log is rewritten from the store.
/// 2. **Download.** For every other replica's log, the bytes after this
///    replica's cursor for it, merged chunk by chunk, each chunk in one store
///    transaction that also advances the cursor (a one-shot sync merges a
///    file read from its start in one transaction:
///    ``SyncOptions/wholeLogInOneTransaction``). A file is read from its
///    start when there is no cursor, the generation changed, the file shrank,
///    the cursor is otherwise invalid, or `full` is asked; not at all when
///    nothing but the same torn last line stands after the cursor. A line
///    dated beyond the sane future of this machine's clock is not taken and
///    the cursor stops before it, so that it is read again at every sync
///    until the clock allows it (``PeerCursor/heldBack``). Conflict copies
///    are read whole. Damage is skipped and reported.
///    When a peer's log was re-read because it shrank, started a new
///    generation or no longer ends with the line this replica read last
///    (its writer was restored from a backup), the changes this store holds
///    under that peer's id and the log no longer holds are collected.
/// 3. **Copy detection.** A remote change that wins although it carries this
///    replica's own id was made by another store with the same id: this store
///    takes a new id (keeping everything) and starts a new log.
/// 4. **Upload.** Local changes since the last upload, appended in one write
///    plus fsync; then the changes learnt from conflict copies are published
///    the same way and the copies renamed aside, and the changes a peer's log
///    lost (step 2) are re-published with their original versions (of a
///    conflict copy, only the changes that won here); then the logs of peers
///    silent for ``SyncOptions/retireLogsAfterMillis`` — by what the logs
///    say, never by modification times (``logsToRetire(_:me:)``) — and
///    merged to their end are retired (what this store holds under their ids
///    re-published, the logs set aside); then compaction when the log has
///    grown well past its last snapshot.
///
/// Every step is idempotent, so a cycle cut short at any point (a crash, a
/// kill) is completed by the next one, and nothing is lost. A cycle with
/// nothing new writes nothing.
///
/// A full cycle can also be run in slices with incremental cycles between
/// them, ending in the same state (``reconcileSlice(_:merged:)``, in
/// `SyncCycle+Reconcile.swift`): what the background engine does at start-up.
public final class SyncCycle: Sendable {
    public let storage: any SyncStorage
    public let folder: any PeerFolder
    public let clock: any PhysicalClock
    public let options: SyncOptions
    /// The marker file last read, and what it held: a cycle re-reads it only
    /// when the file changed.
    let markerSeen = Mutex<(info: PeerFileInfo, marker: FolderIdentity.Marker)?>(nil)

    public init(storage: any SyncStorage, folder: any PeerFolder, clock: any PhysicalClock = SystemClock(), options: SyncOptions = SyncOptions()) {
        self.storage = storage
        self.folder = folder
        self.clock = clock
        self.options = options
    }

    /// Reads peer files, refusing versions beyond the sane future
    /// (``HybridClock/maxAhead`` past this machine's clock) as damaged.
    var reader: LogFileReader {
        LogFileReader(folder: folder, notAfter: HybridClock.saneFutureLimit(now: clock.nowMillis()))
    }

    /// Runs a whole cycle.
    ///
    /// - Parameter merged: called once, on this thread, when the download has
    ///   merged remote changes and committed them, before the upload and the
    ///   housekeeping (so a screen can show them without waiting for those).
    /// - Throws: ``PeerFolderError`` when the folder is missing or unusable,
    ///   ``StoreError`` when the store fails. Damaged peer files never throw.
    public func run(full: Bool = false, adoptFolder: Bool = false, merged: () -> Void = {}) throws -> SyncReport {
        var none: ReconcileProgress?
        return try perform(download: true, full: full, adoptFolder: adoptFolder, alongside: &none, merged: merged)
    }

    /// Runs an incremental cycle while a reconcile is in progress
    /// (``reconcileSlice(_:merged:)``): what it reads of the logs the reconcile
    /// follows is added to `progress`, so that the reconcile's re-publish of
    /// what a log lost knows every change the log holds.
    /// `merged` as in ``run(full:adoptFolder:merged:)``.
    public func run(alongside progress: inout ReconcileProgress, merged: () -> Void = {}) throws -> SyncReport {
        try run(alongside: &progress, finishing: false, merged: merged)
    }

    /// With `finishing`: the reconcile's last step (``reconcileSlice(_:merged:)``).
    func run(alongside progress: inout ReconcileProgress, finishing: Bool, merged: () -> Void = {}) throws -> SyncReport {
        // Moved, not copied: a copy would make the next insert copy every set of keys.
        var tracked: ReconcileProgress? = ReconcileProgress()
        swap(&tracked!, &progress)
        defer { swap(&tracked!, &progress) }
        return try perform(download: true, full: false, adoptFolder: false, alongside: &tracked, finishing: finishing, merged: merged)
    }

    /// Publishes local changes to this replica's log without reading the
    /// other logs: what a command calls after it changed tasks.
    public func publish() throws -> SyncReport {
        var none: ReconcileProgress?
        return try perform(download: false, full: false, adoptFolder: false, alongside: &none)
    }

    /// - Parameters:
    ///   - progress: a reconcile in progress, told what this cycle reads.
    ///   - finishing: this cycle is the reconcile's last step (its slices are
    ///     done): it does what only a full cycle does, with what the slices
    ///     found, and its report is the whole reconcile's.
    ///   - merged: called when the download merged anything, before the upload.
    private func perform(download: Bool, full: Bool, adoptFolder: Bool, alongside progress: inout ReconcileProgress?,
                         finishing wanted: Bool = false, merged: () -> Void = {}) throws -> SyncReport {
        try folder.checkAvailable()
        let finishing = wanted && progress?.slicesDone == true
        var report = finishing ? progress!.report : SyncReport()
        let mergedBefore = report.merged
        var me = try storage.replicaID()
        let listing = try folder.list()
        let byName = Dictionary(listing.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

        switch try folderIdentity(me, listing, adopt: adoptFolder).verdict(now: clock.nowMillis()) {
        case .same:
            break
        case .refuse(let why):
            throw PeerFolderError.unmountedOrReplaced(path: folder.location, why: why)
        case .accept(let write, let remember):
            var id = remember
            if let write {
                let remembered = try storage.peerFolderID()
                if adoptFolder || remembered != nil {
                    // Taken over on request, or written again under the id this store remembers.
                    try folder.replace(PeerFolderMarker.fileName) { try $0(write.encodedLine()) }
                } else if try !folder.create(PeerFolderMarker.fileName, bytes: write.encodedLine()) {
                    // Another process (another replica on this folder) made the
                    // folder's marker at the same moment: join that one.
                    markerSeen.withLock { $0 = nil }
                    guard case .intact(let there) = try readMarker(present: true) else {
                        throw PeerFolderError.unmountedOrReplaced(path: folder.location, why: "its \(PeerFolderMarker.fileName) marker is damaged")
                    }
                    id = there.id
                }
            }
            if let id, id != (try storage.peerFolderID()) { try storage.rememberPeerFolder(id: id) }
        }
        folder.removeLeftovers(of: LogFormat.fileName(for: me))

        // On a full cycle, what this replica's own log carries for others
        // (changes it re-published): not to be re-published again.
        var ownLogHolds: Set<Int>? = full ? [] : nil
        var ownLogProblem = try checkOwnLog(me, byName[LogFormat.fileName(for: me)], verify: full, holds: &ownLogHolds, &report)
        if finishing, ownLogProblem == nil {
            ownLogProblem = try finishOwnLog(me, byName[LogFormat.fileName(for: me)], progress!.own, holds: &ownLogHolds, &report)
        }
        // When the own log already showed another store writing under this
        // id, leave that file to it: step 3 moves this store to a new id.
        if let reason = ownLogProblem, report.foreignChangesUnderOwnID == 0 {
            try rewriteOwnLog(me, reason: reason, previous: nil, &report)
        }

        var republish: [FieldChange] = []
        var conflictCopies: [String] = []
        var reread: [ReplicaID: (file: String, held: Set<Int>)] = [:]
        if download {
            let cursors = try storage.cursors()
            for info in listing {
                do {
                    switch PeerFileName.classify(info.name) {
                    case .log(let replica) where replica == me:
                        continue
                    case .log(let replica):
                        var keys: (held: Set<Int>, fromStart: Bool)? = progress?.tracks(info.name) == true ? ([], false) : nil
                        if let held = try readPeerLog(info, replica: replica, cursor: cursors[info.name], full: full, me: me, keys: &keys, &report) {
                            reread[replica] = (info.name, held)
                            progress?.drop(info.name)
                        } else if let keys, keys.fromStart {
                            progress?.readWhole(info.name, replica: replica, held: keys.held, by: me, found: report)
                        } else if let keys {
                            progress?.add(keys.held, readFrom: info.name)
                        }
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

        if report.merged > mergedBefore { merged() }

        if finishing {
            // The logs the reconcile read whole, unless re-read above.
            for (replica, entry) in progress!.reread where reread[replica] == nil { reread[replica] = entry }
        }

        if report.foreignChangesUnderOwnID > 0 {
            let previous = me
            me = try storage.adoptNewReplicaID()
            report.newReplicaID = me
            try rewriteOwnLog(me, reason: .copiedStore, previous: previous, &report)
        }

        // A log rewritten from the store in this cycle holds everything already.
        let lost = report.ownLogRewritten == nil ? try changesLost(from: reread, exceptHeldBy: ownLogHolds ?? []) : []
        let retiring = download ? try logsToRetire(listing, me: me) : []

        try upload(me, &report)
        if download { try publishDelivery(me, &report) }

        if !lost.isEmpty {
            try appendToOwnLog(me, LogRecord.grouping(lost), &report)
            for change in lost {
                if let file = reread[change.version.replica]?.file { report.republished[file, default: 0] += 1 }
            }
        }

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

        if !retiring.isEmpty { try retire(retiring, me: me, &report) }

        if let state = try storage.ownLogState(),
           state.end > max(options.compactionMinimumBytes, options.compactionFactor * state.snapshotSize) {
            try rewriteOwnLog(me, reason: .compaction, previous: state.previousReplica.flatMap(ReplicaID.init), &report)
        }
        return report
    }

    /// Peers' logs silent for ``SyncOptions/retireLogsAfterMillis`` that
    /// this cycle has merged to their end, undamaged: safe to retire.
    ///
    /// Silent is what the logs say, never a file's modification time: this
    /// machine has not seen the file change for that long (``PeerCursor/seen``,
    /// by its own clock) *and* the newest change its writer made in it is
    /// that old (``PeerCursor/newest``, by the writer's clock). A log that
    /// changed since this machine last read it is never retired; a torn last
    /// line that has not moved since does not keep a log alive.
    private func logsToRetire(_ listing: [PeerFileInfo], me: ReplicaID) throws -> [(replica: ReplicaID, info: PeerFileInfo, silent: Int64)] {
        guard options.retireLogsAfterMillis > 0 else { return [] }
        var out: [(ReplicaID, PeerFileInfo, Int64)] = []
        let cursors = try storage.cursors()
        let now = clock.nowMillis()
        for info in listing {
            guard case .log(let replica) = PeerFileName.classify(info.name), replica != me,
                  let cursor = cursors[info.name], cursor.identity == info.identity, cursor.damaged != true, cursor.heldBack != true,
                  cursor.offset == info.size || cursor.size == info.size,
                  let seen = cursor.seen, let newest = cursor.newest else { continue }
            let silent = now - max(seen, newest)
            if silent > options.retireLogsAfterMillis { out.append((replica, info, silent)) }
        }
        return out
    }

    /// Re-publishes, in this replica's own log, every change this store still
    /// holds under the retiring replicas' ids (their versions kept), then sets
    /// their logs aside like merged conflict copies (removed once old). Every
    /// replica that reads this log gets what those logs held that still
    /// counts; a retired replica that comes back rewrites its log.
    private func retire(_ logs: [(replica: ReplicaID, info: PeerFileInfo, silent: Int64)], me: ReplicaID, _ report: inout SyncReport) throws {
        let ids = Set(logs.map(\.replica))
        var held: [FieldChange] = []
        try storage.forEachTaskBatch { tasks in
            for task in tasks {
                for (field, version) in task.versions where ids.contains(version.replica) {
                    held.append(FieldChange(task: task.id, field: field, value: task.value(of: field), version: version))
                }
            }
        }
        if !held.isEmpty { try appendToOwnLog(me, LogRecord.grouping(held), &report) }
        for log in logs {
            do {
                try folder.rename(log.info.name, to: log.info.name + PeerFileName.mergedSuffix)
            } catch {
                // Another replica retired it first.
                if (try? folder.info(log.info.name)) != nil { throw error }
            }
            report.retiredLogs[log.info.name] = SyncReport.Retirement(silent: log.silent, republished: held.filter { $0.version.replica == log.replica }.count)
        }
    }

    /// What a sync would run into, in plain words, without writing anything
    /// (for `doctor`): a peer folder that is missing, unusable, or looks
    /// unmounted or replaced; this replica's log damaged or not a file.
    public func diagnose() -> [String] {
        do {
            if let problem = try folderProblem() { return [problem] }
            let me = try storage.replicaID()
            var held: [ReplicaID: (file: String, held: Set<Int>)] = [:]
            var republished: Set<Int> = []
            let problems = try ownLogProblems(me) + peerLogProblems(me, held: &held, republished: &republished)
            return problems + (try heldBackLines(held)) + (try lostFromPeerLogs(me, held: held, republished: republished))
        } catch {
            return [SyncError.describe(error)]
        }
    }

    /// Where this replica and another disagree: changes this store holds
    /// under another replica's id that its log no longer has (it was restored
    /// from a backup, or rewritten from an older store), and that no log here
    /// re-published. A `sync --full` publishes them again.
    private func lostFromPeerLogs(_ me: ReplicaID, held: [ReplicaID: (file: String, held: Set<Int>)], republished: Set<Int>) throws -> [String] {
        guard !held.isEmpty else { return [] }
        var ownHolds: Set<Int>? = republished
        let own = LogFormat.fileName(for: me)
        if let info = try folder.info(own), case .success(let (_, headerEnd)) = reader.header(of: own) {
            _ = try linesIntact(own, owner: me, from: headerEnd, upTo: info.size, holds: &ownHolds)
        }
        let lost = try changesLost(from: held, exceptHeldBy: ownHolds ?? [])
        let byFile = Dictionary(grouping: lost) { held[$0.version.replica]?.file ?? "?" }
        return byFile.keys.sorted().map { file in
            let n = byFile[file]!.count
            return "\(file) lacks \(n) change\(n == 1 ? "" : "s") this store holds under its replica id (restored from a backup?); `nextup sync --full` publishes \(n == 1 ? "it" : "them") again"
        }
    }

    /// The peer logs whose lines this store has not merged because they
    /// were dated ahead of this machine's clock when it last synced, and
    /// that this machine's clock now allows (those still ahead are named by
    /// ``peerLogProblems(_:)``): the next sync takes them.
    private func heldBackLines(_ readable: [ReplicaID: (file: String, held: Set<Int>)]) throws -> [String] {
        let cursors = try storage.cursors()
        var out: [String] = []
        for (replica, entry) in readable.sorted(by: { $0.value.file < $1.value.file }) {
            let file = entry.file
            guard let cursor = cursors[file], cursor.heldBack == true, let info = try folder.info(file) else { continue }
            var ahead = false
            _ = try reader.readLines(of: file, owner: replica, from: cursor.offset, upTo: info.size) { scan in
                if scan.heldBack != nil { ahead = true }
            }
            if !ahead {
                out.append("\(file): the changes from byte \(cursor.offset) on were dated ahead of this machine's clock when it last synced and are not merged yet; the next `nextup sync` takes them")
            }
        }
        return out
    }

    /// What a full read of the other replicas' logs would skip — damaged
    /// lines, files that are not logs or come from a newer nextup — in the
    /// words `sync --full` prints. Reads only; a torn last line (still being
    /// written) is not a problem.
    func peerLogProblems(_ me: ReplicaID) throws -> [String] {
        var held: [ReplicaID: (file: String, held: Set<Int>)] = [:]
        var republished: Set<Int> = []
        return try peerLogProblems(me, held: &held, republished: &republished)
    }

    /// The same, collecting for each readable log the ``heldKey(_:)`` of
    /// every change it holds by its owner, and (with the replica) of every
    /// change it re-published for another.
    private func peerLogProblems(_ me: ReplicaID, held: inout [ReplicaID: (file: String, held: Set<Int>)],
                                 republished: inout Set<Int>) throws -> [String] {
        var out: [String] = []
        for info in try folder.list() {
            switch PeerFileName.classify(info.name) {
            case .log(let replica) where replica != me:
                switch reader.header(of: info.name) {
                case .failure(let issue):
                    out.append("skipped: \(issue.description)")
                case .success(let (header, headerEnd)):
                    var keys: Set<Int> = []
                    _ = try reader.readLines(of: info.name, owner: header.replica, from: headerEnd, upTo: info.size) { scan in
                        out += scan.issues.map {
                            if case .aheadOfClock = $0.kind { "not merged: \($0.description)" } else { "skipped: \($0.description)" }
                        }
                        for record in scan.records {
                            for change in record.changes {
                                if change.version.replica == replica { keys.insert(Self.heldKey(change)) }
                                else { republished.insert(Self.heldKey(change, withReplica: true)) }
                            }
                        }
                    }
                    held[replica] = (info.name, keys)
                }
            case .unrecognisedLog:
                out.append("skipped: " + LogIssue(file: info.name, offset: nil, kind: .notALog("the name is not nextup-<replica id>.log")).description)
            default:
                continue
            }
        }
        return out
    }

    private func ownLogProblems(_ me: ReplicaID) throws -> [String] {
        do {
            let name = LogFormat.fileName(for: me)
            guard let state = try storage.ownLogState(), state.replica == me.rawValue else { return [] }
            var unused: Set<Int>? = nil
            guard let info = try folder.info(name) else {
                if try folder.list().isEmpty { return [] }
                return ["this replica's log \(name) is missing or not a regular file in \(folder.location); the next sync rewrites it, or fails if something else is in its place"]
            }
            if case .success(let (_, headerEnd)) = reader.header(of: name),
               try linesIntact(name, owner: me, from: headerEnd, upTo: min(info.size, state.end), holds: &unused) {
                return []
            }
            return ["this replica's log \(name) is damaged (checksum mismatch); `nextup sync --full` rewrites it from the store"]
        } catch {
            return [SyncError.describe(error)]
        }
    }

    // MARK: - Own log

    /// Checks this replica's own log against what the store says it wrote.
    /// Returns why it must be rewritten, or nil when it can be appended to.
    func checkOwnLog(_ me: ReplicaID, _ info: PeerFileInfo?, verify: Bool, holds: inout Set<Int>?, _ report: inout SyncReport) throws -> SyncReport.RewriteReason? {
        let name = LogFormat.fileName(for: me)
        guard var state = try storage.ownLogState(), state.replica == me.rawValue else {
            // Never written by this store. A file under this name holds
            // somebody's changes: read them before the file is replaced.
            if let info { try readAsInput(info, me: me, from: nil, &report) }
            return info == nil ? .firstSync : .replaced
        }
        guard let info else {
            return (try? folder.info(name + PeerFileName.mergedSuffix)) != nil ? .retired : .missing
        }
        // Written in place, or replaced by another file of the same size: the
        // content may not be what this replica wrote.
        let writtenSince = state.modified.map { $0 != info.modified } ?? false || info.identity != state.identity
        if info.size == state.end && !writtenSince && !verify { return nil }

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
        if (verify || writtenSince), try !linesIntact(name, owner: me, from: headerEnd, upTo: state.end, holds: &holds) {
            // Read what is still good (a copy may have written there), then rewrite.
            try readAsInput(info, me: me, from: nil, &report)
            return .damaged
        }
        if info.size > state.end {
            // Lines beyond this replica's last write: its own lines from a
            // write cut short before the store recorded it, a torn tail, or
            // (if they are not this store's) a copy's lines.
            // A torn tail here is this replica's own write cut short (a full
            // disk, a kill): cut away below, not damage to report.
            let end = try readAsInput(info, me: me, from: state.end, reportingTornTail: false, &report)
            if end < info.size {
                try folder.append([], to: name, truncatingTo: end)
            }
            state.end = end
        }
        let now = try folder.info(name) ?? info
        state.identity = now.identity
        state.modified = now.modified
        try storage.saveOwnLogState(state)
        return nil
    }

    /// Whether every line of this replica's own log between `start` and
    /// `end` is intact (checksum, UTF-8, shape): the writer's own check.
    /// With `holds`, also collects the ``heldKey(_:)`` of every change in
    /// those lines written by another replica (what this one re-published).
    func linesIntact(_ name: String, owner: ReplicaID, from start: Int64, upTo end: Int64, holds: inout Set<Int>?) throws -> Bool {
        var intact = true
        var collected = holds
        let outcome = try reader.readLines(of: name, owner: owner, from: start, upTo: end) { scan in
            if !scan.issues.isEmpty { intact = false }
            if collected != nil {
                for record in scan.records { for change in record.changes where change.version.replica != owner { collected!.insert(Self.heldKey(change, withReplica: true)) } }
            }
        }
        holds = collected
        return intact && outcome.incompleteTail == nil
    }

    /// Reads a file as plain input (no cursor): its header, then its lines
    /// from `start` (nil: just after the header). Returns where reading stopped.
    @discardableResult
    func readAsInput(_ info: PeerFileInfo, me: ReplicaID, from start: Int64?, reportingTornTail: Bool = true, _ report: inout SyncReport) throws -> Int64 {
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
            if reportingTornTail, let tail = outcome.incompleteTail { report.issues.append(tail) }
            return outcome.end
        }
    }

    /// Replaces this replica's log with a snapshot of the store.
    func rewriteOwnLog(_ me: ReplicaID, reason: SyncReport.RewriteReason, previous: ReplicaID?, _ report: inout SyncReport) throws {
        let seq = try storage.newestLocalChangeSeq()
        // The snapshot carries the pending local changes: count them as uploaded.
        let pending = reason == .compaction ? 0 : try storage.pendingLocalChanges(limit: .max).changes.count
        var header = LogHeader(replica: me, created: clock.nowMillis(), previousReplica: previous)
        header.machine = try storage.machineName()
        let storage = self.storage
        let size = try LogWriter(folder: folder, owner: me).rewrite(header: header) { emit in
            try storage.forEachTaskBatch { tasks in
                try emit(try storage.snapshot(of: tasks).map { LogRecord(task: $0[0].task, changes: $0) })
            }
        }
        let written = try folder.info(LogFormat.fileName(for: me))
        var state = OwnLogState(replica: me.rawValue, generation: header.generation, end: size, identity: written?.identity ?? 0,
                                snapshotSize: size, previousReplica: previous?.rawValue, modified: written?.modified)
        state.machine = header.machine
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

    /// Says in this replica's log how far it merged every other log (a
    /// ``LogRecord/Delivery`` mark), when that moved since the log last said
    /// it: on a line re-publishing this replica's own registers of one task
    /// as they stand (``SyncStorage/carrierTask()``), which its log already
    /// holds, so the line changes nothing for any reader, old ones included.
    /// A replica that holds no change of its own says no mark.
    private func publishDelivery(_ me: ReplicaID, _ report: inout SyncReport) throws {
        var merged: [ReplicaID: Int64] = [:]
        for (file, cursor) in try storage.cursors() {
            if case .log(let replica) = PeerFileName.classify(file), replica != me, let newest = cursor.newest { merged[replica] = newest }
        }
        guard !merged.isEmpty, let state = try storage.ownLogState(), state.replica == me.rawValue,
              state.merged != Dictionary(uniqueKeysWithValues: merged.map { ($0.key.rawValue, $0.value) }),
              let carrier = try storage.carrierTask(),
              let changes = try storage.snapshot(of: [carrier]).first?.filter({ $0.version.replica == me }), !changes.isEmpty else { return }
        var record = LogRecord(task: carrier.id, changes: changes)
        record.delivery = LogRecord.Delivery(merged: merged, at: clock.nowMillis())
        try appendToOwnLog(me, [record], &report)
    }

    /// Appends records to this replica's log (one write, fsync) and records
    /// the new end, with the outbox pruned through `seq`, in one transaction.
    private func appendToOwnLog(_ me: ReplicaID, _ records: [LogRecord], through seq: Int64? = nil, _ report: inout SyncReport) throws {
        guard var state = try storage.ownLogState(), state.replica == me.rawValue else {
            preconditionFailure("the own log is checked or rewritten before anything is appended")
        }
        let name = LogFormat.fileName(for: me)
        if !records.isEmpty {
            var records = records
            // The machine's name, on the first line after it changed (or was never said).
            let machine = try storage.machineName()
            if let machine, machine != state.machine {
                records[0].machine = machine
                state.machine = machine
            }
            if let delivery = records.lazy.compactMap(\.delivery).last {
                state.merged = Dictionary(uniqueKeysWithValues: delivery.merged.map { ($0.key.rawValue, $0.value) })
            }
            let header = LogHeader(replica: me, generation: state.generation, created: clock.nowMillis(),
                                   previousReplica: state.previousReplica.flatMap(ReplicaID.init))
            let before = state.end
            state.end = try LogWriter(folder: folder, owner: me).append(records, header: header)
            let written = try folder.info(name)
            state.identity = written?.identity ?? state.identity
            state.modified = written?.modified
            report.bytesWritten += max(0, state.end - before)
        }
        if let seq { try storage.recordUpload(through: seq, ownLog: state) } else { try storage.saveOwnLogState(state) }
    }

    // MARK: - Other logs

    /// Reads a peer's log from this replica's cursor (from its start when
    /// there is none, on a full cycle, or when the file is not the one the
    /// cursor was made in). Returns, when the file was read from its start
    /// on a full cycle or because its writer went back (it shrank, started a
    /// new generation, or no longer ends with the line read last), the keys
    /// (``heldKey(_:)``) of the changes under that writer's id the file
    /// holds (none when its header is damaged); nil otherwise.
    ///
    /// With `keys`, also collects there the keys of the changes under the
    /// writer's id in the lines it read, and whether it read the file from
    /// its start (for a reconcile in progress).
    private func readPeerLog(_ info: PeerFileInfo, replica: ReplicaID, cursor: PeerCursor?, full: Bool, me: ReplicaID,
                             keys: inout (held: Set<Int>, fromStart: Bool)?, _ report: inout SyncReport) throws -> Set<Int>? {
        // Nothing new since the cursor was stored (a torn last line that has
        // not moved included): not read, and its torn line not reported again.
        if !full, let cursor, cursor.identity == info.identity,
           try cursor.offset == info.size || onlyATornLineStandsAfter(cursor, in: info) {
            report.peers.insert(replica)
            return nil
        }
        let header: LogHeader
        let headerEnd: Int64
        switch reader.header(of: info.name) {
        case .failure(let issue):
            note(issue, &report)
            if full, case .notALog = issue.kind { return [] }
            return nil
        case .success(let found):
            (header, headerEnd) = found
        }
        guard header.replica == replica else {
            report.issues.append(LogIssue(file: info.name, offset: nil, kind: .wrongReplica("its header names replica \(header.replica), not the one in its name")))
            return nil
        }
        report.peers.insert(replica)

        var start = headerEnd
        var wentBack: String?
        var reread: String?
        if let cursor {
            if cursor.generation != header.generation { wentBack = "its writer started a new generation" }
            else if info.size < cursor.offset { wentBack = "the file shrank" }
            else if cursor.offset < headerEnd { wentBack = "the stored position was invalid" }
            else if let tail = cursor.tail, try tailMark(of: info.name, at: cursor.offset) != tail {
                wentBack = "it no longer holds the line read last (rewritten or restored from a backup)"
            } else if cursor.damaged == true && info.identity != cursor.identity {
                // The damaged lines skipped before may be whole in this copy.
                reread = "it had damaged lines and was replaced since"
            } else if !full { start = cursor.offset }
        }
        if let reason = wentBack ?? reread { report.fullReads[info.name] = reason } else if full { report.fullReads[info.name] = "full reconcile" }

        let trusted = header.previousReplica == me
        // When this machine saw the file change, and the newest of its
        // writer's versions (for retirement: ``logsToRetire(_:me:)``).
        let changed = cursor.map { $0.generation != header.generation || $0.identity != info.identity || $0.size != info.size } ?? true
        let seen = changed ? clock.nowMillis() : cursor?.seen ?? clock.nowMillis()
        // The header's time counts too: a log that never held a change of its writer's.
        var newest = max(wentBack == nil ? cursor?.newest ?? 0 : 0, header.created)
        // The writer's machine name: the last its log said.
        var machine = (start > headerEnd ? cursor?.machine : nil) ?? header.machine
        // What the writer's delivery marks said of this replica's log.
        var mergedMine = cursor?.mergedMine ?? []
        var mergedAll = start > headerEnd ? cursor?.merged : nil
        var consumed = false
        var held: Set<Int> = []
        // Whether lines skipped as damaged lie before the cursor being made.
        var damaged = start > headerEnd && cursor?.damaged == true
        var localReport = report
        let name = info.name
        func read(_ merge: SyncStorageMerge?) throws -> LogFileReader.Outcome {
            try reader.readLines(of: name, owner: replica, from: start, upTo: info.size) { scan in
                if scan.issues.contains(where: \.isLineDamage) { damaged = true }
                for record in scan.records {
                    for change in record.changes where change.version.replica == replica {
                        newest = max(newest, change.version.timestamp.millis)
                    }
                    if let said = record.machine { machine = said }
                    if let delivery = record.delivery { mergedAll = Dictionary(uniqueKeysWithValues: delivery.merged.map { ($0.key.rawValue, $0.value) }) }
                    if let delivery = record.delivery, let through = delivery.merged[me], through > (mergedMine.last?.first ?? .min) {
                        mergedMine.append([through, delivery.at])
                        if mergedMine.count > 8 { mergedMine.removeFirst(mergedMine.count - 8) }
                    }
                }
                try mergeInBatches(scan, file: name, cursor: { offset in
                    PeerCursor(generation: header.generation, offset: offset, identity: info.identity,
                               tail: try self.tailMark(of: name, at: offset), damaged: damaged ? true : nil,
                               heldBack: scan.heldBack != nil ? true : nil, size: info.size, seen: seen, newest: newest, machine: machine,
                               mergedMine: mergedMine.isEmpty ? nil : mergedMine, merged: mergedAll)
                }, trusted: trusted, merge: merge, &localReport)
                if wentBack != nil || full || keys != nil {
                    for record in scan.records { for change in record.changes where change.version.replica == replica { held.insert(Self.heldKey(change)) } }
                }
                consumed = true
            }
        }
        var outcome = LogFileReader.Outcome(end: start)
        if options.wholeLogInOneTransaction && start == headerEnd && start < info.size {
            try storage.mergeAtOnce { merge in try withoutActuallyEscaping(merge) { outcome = try read($0) } }
        } else {
            outcome = try read(nil)
        }
        report = localReport
        if keys != nil { keys = (held, start == headerEnd) }
        // A torn last line is reported when it appears, not at every read of a file that stands still.
        if let tail = outcome.incompleteTail, changed { report.issues.append(tail) }
        let final = PeerCursor(generation: header.generation, offset: outcome.cursorEnd, identity: info.identity,
                               tail: try tailMark(of: name, at: outcome.cursorEnd), damaged: damaged ? true : nil,
                               heldBack: outcome.heldBack != nil ? true : nil, size: info.size, seen: seen, newest: newest, machine: machine,
                               mergedMine: mergedMine.isEmpty ? nil : mergedMine, merged: mergedAll)
        if !consumed && final != cursor {
            try storage.saveCursor(final, forPeerFile: name)
        }
        return wentBack == nil && !full ? nil : held
    }

    /// Whether all that `info`'s file holds past `cursor` is the same torn
    /// last line as when the cursor was stored (no newline: nothing to read).
    /// A tail of more than 64 KiB is read as usual instead of looked through.
    private func onlyATornLineStandsAfter(_ cursor: PeerCursor, in info: PeerFileInfo) throws -> Bool {
        guard cursor.size == info.size, cursor.heldBack != true, info.size > cursor.offset,
              info.size - cursor.offset <= 64 * 1024 else { return false }
        return try !folder.read(info.name, at: cursor.offset, count: Int(info.size - cursor.offset)).contains(0x0A)
    }

    /// The checksum of the line that ends at `offset` (its 8 hex digits),
    /// read from the file: what a cursor remembers, so that a file rewritten
    /// under the same generation is noticed. Nil when there is no such line.
    func tailMark(of name: String, at offset: Int64) throws -> String? {
        let length = 8 + 3  // `xxxxxxxx"}` and the newline
        guard offset >= Int64(length) else { return nil }
        let bytes = try folder.read(name, at: offset - Int64(length), count: length)
        guard bytes.count == length, bytes.suffix(3) == [UInt8(ascii: "\""), UInt8(ascii: "}"), 0x0A] else { return nil }
        return String(decoding: bytes.prefix(8), as: UTF8.self)
    }

    /// Identifies one change (task, field, timestamp, value) in a set: of
    /// changes by one replica, or (`withReplica`) by several. The value
    /// counts: after a restore, two writes may share a version.
    static func heldKey(_ change: FieldChange, withReplica: Bool = false) -> Int {
        var hasher = Hasher()
        hasher.combine(change.task)
        hasher.combine(change.field)
        hasher.combine(change.version.timestamp.rawValue)
        hasher.combine(change.value)
        if withReplica { hasher.combine(change.version.replica) }
        return hasher.finalize()
    }

    /// The changes this store holds under the id of a peer whose log was
    /// re-read because it went back, and which that log no longer holds
    /// (DESIGN.md §5, re-publish). One pass over the store.
    private func changesLost(from reread: [ReplicaID: (file: String, held: Set<Int>)], exceptHeldBy ownLog: Set<Int>) throws -> [FieldChange] {
        guard !reread.isEmpty else { return [] }
        var lost: [FieldChange] = []
        try storage.forEachTaskBatch { tasks in
            for task in tasks {
                for (field, version) in task.versions {
                    guard let entry = reread[version.replica] else { continue }
                    let change = FieldChange(task: task.id, field: field, value: task.value(of: field), version: version)
                    if !entry.held.contains(Self.heldKey(change)) && !ownLog.contains(Self.heldKey(change, withReplica: true)) { lost.append(change) }
                }
            }
        }
        return lost
    }

    /// Reads a conflict copy whole; returns the changes this store did not
    /// hold yet that won (to publish before the copy is renamed aside: what
    /// it held already came from a log, or is this replica's own), or nil
    /// when it is not readable or holds a line dated ahead of this machine's
    /// clock (merged, but kept where it is to be read again).
    private func readConflictCopy(_ info: PeerFileInfo, me: ReplicaID, _ report: inout SyncReport) throws -> [FieldChange]? {
        guard case .success(let (header, headerEnd)) = reader.header(of: info.name) else {
            if case .failure(let issue) = reader.header(of: info.name) { note(issue, &report) }
            return nil
        }
        let trusted = header.previousReplica == me
        var changes: [FieldChange] = []
        var localReport = report
        let outcome = try reader.readLines(of: info.name, owner: header.replica, from: headerEnd, upTo: info.size) { scan in
            let held = try storage.versions(of: Array(Set(scan.records.map(\.task))))
            for record in scan.records {
                let versions = held[record.task]
                changes += record.changes.filter { Merge.wins($0.version, over: versions?[$0.field]) }
            }
            try mergeInBatches(scan, file: info.name, cursor: nil, trusted: trusted, &localReport)
        }
        report = localReport
        if let tail = outcome.incompleteTail { report.issues.append(tail) }
        return outcome.heldBack == nil ? changes : nil
    }

    /// Merges one chunk's records, ``SyncOptions/mergeBatch`` records per
    /// transaction; with `cursor`, each transaction also stores the cursor
    /// just past its last record (the chunk's end for the last one).
    ///
    /// - Parameter merge: the merge to use (``SyncStorage/mergeAtOnce(_:)``'s);
    ///   nil: ``SyncStorage/merge(_:cursor:)``, a transaction each.
    func mergeInBatches(_ scan: LogScan, file: String, cursor: ((Int64) throws -> PeerCursor)?, trusted: Bool,
                        merge: SyncStorageMerge? = nil, _ report: inout SyncReport) throws {
        var start = 0
        repeat {
            let end = min(scan.records.count, start + options.mergeBatch)
            let last = end == scan.records.count
            let offset = min(last ? scan.end : scan.recordEnds[end - 1], scan.heldBack ?? .max)
            let changes = scan.records[start..<end].flatMap(\.changes)
            let position = try cursor.map { (file, try $0(offset)) }
            let result = try merge.map { try $0(changes, position) } ?? storage.merge(changes, cursor: position)
            tally(result, last ? scan.issues : [], file: file, trusted: trusted, &report)
            start = end
        } while start < scan.records.count
    }

    /// Reports an issue — except a failed read of a file that is gone since
    /// the listing (renamed aside, replaced, deleted): nothing to report.
    func note(_ issue: LogIssue, _ report: inout SyncReport) {
        if case .unreadable = issue.kind, (try? folder.info(issue.file)) == nil { return }
        report.issues.append(issue)
    }

    private func tally(_ result: TaskStore.RemoteMergeResult, _ issues: [LogIssue], file: String, trusted: Bool, _ report: inout SyncReport) {
        report.merged += result.applied
        // The first merge's tasks sized at once (they are distinct); later ones added.
        if report.changedTasks.isEmpty { report.changedTasks = Set(result.changedTasks) } else { report.changedTasks.formUnion(result.changedTasks) }
        report.issues += issues
        if !trusted { report.foreignChangesUnderOwnID += result.foreignChangesUnderOwnID }
        if result.newestTimestamp > .zero, let ahead = HybridClock.skew(of: result.newestTimestamp, now: clock.nowMillis()) {
            report.clockSkew[file] = max(report.clockSkew[file] ?? 0, ahead)
        }
    }
}
