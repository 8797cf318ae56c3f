import NextUpCore

/// A full reconcile in bounded slices, for the background engine: the same
/// outcome as ``SyncCycle/run(full:adoptFolder:)`` with `full`, without
/// holding the store and the sync lock for the whole of it, so that a peer's
/// new lines are merged between slices instead of after the reconcile.
///
/// Contract:
/// - Each call reads at most ``SyncOptions/reconcileSliceRecords`` records
///   (whole records; a chunk of lines without records may come on top) and
///   then returns; the caller releases its locks between calls and may run
///   incremental cycles in between — through ``run(alongside:)``, so that
///   what they read counts as held by the log.
/// - Slices merge only lines *below* each peer log's stored cursor (merged
///   before; merging them again is idempotent) and never advance a cursor:
///   what is new beyond it is the incremental cycles' to read. A log whose
///   cursor went away, moved back or changed generation between slices is
///   left to those cycles, which re-read it whole themselves. A log such a
///   cycle read from its start (it had no cursor: a first sync) counts as
///   read whole, with what it holds; the slices do not read it again.
/// - When a log has been read from its start to its cursor, its cursor's
///   damage flag is set to what the reconcile saw below it (as a full read
///   would have left it); nothing else of the cursor changes.
/// - This replica's own log is verified slice by slice; what was appended
///   to it after the slices read it is verified by the last step.
/// - The last step is an incremental cycle that also does what only a full
///   cycle does: rewrite an own log found damaged (after reading what is
///   good in it), and re-publish the changes this store holds under a
///   peer's id that the peer's log, read whole, no longer holds. Its report
///   carries everything the slices found (merges, skipped lines, full
///   reads), like a full cycle's.
/// - A slice that throws leaves `progress` as it was before the failing part;
///   starting again with a fresh ``ReconcileProgress`` is always safe.
extension SyncCycle {
    /// Runs one slice of a full reconcile.
    ///
    /// - Parameter merged: called as in ``run(full:adoptFolder:merged:)``
    ///   when the last slice's incremental step merges new lines.
    /// - Returns: nil while slices remain; the whole reconcile's report from
    ///   the slice that finished it (``ReconcileProgress/isFinished`` is then set).
    public func reconcileSlice(_ progress: inout ReconcileProgress, merged: () -> Void = {}) throws -> SyncReport? {
        precondition(!progress.isFinished, "a finished reconcile has no more slices")
        try folder.checkAvailable()
        let me = try storage.replicaID()
        if progress.replica != me {
            // A first slice, or the store took a new id (a copy was found): start afresh.
            progress = ReconcileProgress()
            progress.replica = me
        }
        progress.countSlice()
        var budget = options.reconcileSliceRecords
        if !progress.listed {
            for info in try folder.list() {
                // A log a cycle already read from its start is listed as read.
                if case .log(let replica) = PeerFileName.classify(info.name), replica != me,
                   !progress.logs.contains(where: { $0.name == info.name }) {
                    progress.logs.append(ReconcileProgress.PeerLog(name: info.name, replica: replica))
                }
            }
            progress.listed = true
        }
        if !progress.ownLogChecked { try reconcileOwnLog(&progress, me: me, budget: &budget) }
        for index in progress.logs.indices where budget > 0 && progress.logs[index].stage == .reading {
            // Moved out and back rather than copied: a copy of a set would be copied whole on the next insert.
            var log = ReconcileProgress.PeerLog(name: "", replica: me)
            var report = SyncReport()
            swap(&log, &progress.logs[index])
            swap(&report, &progress.report)
            defer {
                swap(&log, &progress.logs[index])
                swap(&report, &progress.report)
            }
            try reconcilePeerLog(&log, me: me, budget: &budget, &report)
        }
        guard progress.slicesDone else { return nil }

        let whole = try run(alongside: &progress, finishing: true, merged: merged)
        progress.isFinished = true
        return whole
    }

    /// Verifies the next records of this replica's own log.
    private func reconcileOwnLog(_ progress: inout ReconcileProgress, me: ReplicaID, budget: inout Int) throws {
        let name = LogFormat.fileName(for: me)
        guard let state = try storage.ownLogState(), state.replica == me.rawValue,
              let info = try folder.info(name), info.size >= state.end else {
            // Nothing written yet, or missing or shrunk: every cycle's own
            // log check rewrites it.
            progress.own = nil
            progress.ownLogChecked = true
            return
        }
        if progress.own?.generation != state.generation {
            // First look, or rewritten since (then fresh from the store): from the header.
            switch reader.header(of: name) {
            case .success(let (header, headerEnd)) where header.replica == me && header.generation == state.generation && headerEnd <= state.end:
                progress.own = ReconcileProgress.OwnLog(generation: state.generation, position: headerEnd)
            default:
                progress.own = ReconcileProgress.OwnLog(generation: state.generation, position: 0, problem: .replaced, read: true)
                progress.ownLogChecked = true
                return
            }
        }
        var own = ReconcileProgress.OwnLog(generation: "", position: 0)
        swap(&own, &progress.own!)
        defer { swap(&own, &progress.own!) }
        var intact = true
        let read = try readLines(of: name, owner: me, from: own.position, upTo: state.end, budget: &budget) { scan in
            if !scan.issues.isEmpty { intact = false }
            for record in scan.records {
                for change in record.changes where change.version.replica != me { own.holds.insert(Self.heldKey(change, withReplica: true)) }
            }
        }
        own.position = read.end
        if !intact || read.incompleteTail != nil {
            own.problem = .damaged
            own.read = true
        } else if read.complete {
            own.read = true
        }
        progress.ownLogChecked = own.read
    }

    /// Reads the next records of one peer log below its cursor.
    private func reconcilePeerLog(_ log: inout ReconcileProgress.PeerLog, me: ReplicaID, budget: inout Int, _ report: inout SyncReport) throws {
        guard let info = try folder.info(log.name), let cursor = try storage.cursors()[log.name] else {
            // Gone, or never read: nothing merged to reconcile (a new file is
            // read whole by the next cycle).
            log.stage = .dropped
            return
        }
        if log.generation == nil {
            switch reader.header(of: log.name) {
            case .failure(let issue):
                note(issue, &report)
                // Not a log any more: what it held counts as lost (as in a full cycle).
                if case .notALog = issue.kind { log.stage = .read } else { log.stage = .dropped }
                return
            case .success(let (header, headerEnd)):
                guard header.replica == log.replica else {
                    report.issues.append(LogIssue(file: log.name, offset: nil, kind: .wrongReplica("its header names replica \(header.replica), not the one in its name")))
                    log.stage = .dropped
                    return
                }
                guard header.generation == cursor.generation, cursor.offset >= headerEnd, info.size >= cursor.offset else {
                    log.stage = .dropped
                    return
                }
                log.generation = header.generation
                log.position = headerEnd
                log.trusted = header.previousReplica == me
                report.peers.insert(log.replica)
                report.fullReads[log.name] = "full reconcile"
            }
        }
        guard cursor.generation == log.generation, cursor.offset >= log.position, info.size >= cursor.offset else {
            log.stage = .dropped
            return
        }
        let name = log.name, replica = log.replica, trusted = log.trusted
        var damaged = log.damaged
        var held: Set<Int> = []
        swap(&held, &log.held)
        defer { swap(&held, &log.held) }
        let read = try readLines(of: name, owner: replica, from: log.position, upTo: cursor.offset, budget: &budget) { scan in
            if scan.issues.contains(where: \.isLineDamage) { damaged = true }
            try mergeInBatches(scan, file: name, cursor: nil, trusted: trusted, &report)
            for record in scan.records {
                for change in record.changes where change.version.replica == replica { held.insert(Self.heldKey(change)) }
            }
        }
        log.damaged = damaged
        log.position = read.end
        if read.complete {
            log.stage = .read
            // Read from its start to the cursor: the damage flag below the
            // cursor is now known, as a full read would have left it.
            let flag: Bool? = damaged ? true : nil
            if read.end == cursor.offset, cursor.damaged != flag {
                var corrected = cursor
                corrected.damaged = flag
                try storage.saveCursor(corrected, forPeerFile: name)
            }
        }
    }

    /// The last step's part of the own log check (called by the final cycle):
    /// why the log must be rewritten, after reading what is good in it; or
    /// nil. Fills `holds` with what the log re-published for other replicas.
    func finishOwnLog(_ me: ReplicaID, _ info: PeerFileInfo?, _ own: ReconcileProgress.OwnLog?, holds: inout Set<Int>?,
                      _ report: inout SyncReport) throws -> SyncReport.RewriteReason? {
        guard let own, let info, let state = try storage.ownLogState(), state.replica == me.rawValue,
              state.generation == own.generation else {
            // Rewritten from the store since (or never written): nothing to verify.
            return nil
        }
        if let problem = own.problem {
            try readAsInput(info, me: me, from: nil, &report)
            return problem
        }
        var collected: Set<Int>? = own.holds
        // What this replica appended after the slices read the log.
        if own.position < state.end, try !linesIntact(LogFormat.fileName(for: me), owner: me, from: own.position, upTo: state.end, holds: &collected) {
            try readAsInput(info, me: me, from: nil, &report)
            return .damaged
        }
        holds = collected
        return nil
    }

    private struct SliceFull: Error {}

    /// ``LogFileReader/readLines(of:owner:from:upTo:consume:)`` stopping once
    /// `budget` records were handed to `consume` (cutting a chunk at a line
    /// boundary); `budget` is what is left of it.
    ///
    /// - Returns: where reading stopped (a line boundary), whether that is
    ///   `end`, and the torn line `end` falls inside, if any.
    private func readLines(of name: String, owner: ReplicaID, from start: Int64, upTo end: Int64, budget: inout Int,
                           consume: (LogScan) throws -> Void) throws -> (end: Int64, complete: Bool, incompleteTail: LogIssue?) {
        var left = budget
        var position = start
        defer { budget = left }
        do {
            let outcome = try reader.readLines(of: name, owner: owner, from: start, upTo: end) { scan in
                guard left > 0 else { throw SliceFull() }
                let whole = scan.records.count <= left
                let part = whole ? scan : scan.prefix(records: left)
                try consume(part)
                left -= part.records.count
                position = part.end
                if !whole { throw SliceFull() }
            }
            return (outcome.end, true, outcome.incompleteTail)
        } catch is SliceFull {
            return (position, false, nil)
        }
    }
}
