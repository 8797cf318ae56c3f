import NextUpTestSupport
import Foundation
import NextUpCore
import NextUpStore
import Testing
@testable import NextUpSync

/// The convergence property under the damage issue 10 found (its "Done
/// means"): besides random edits, syncs and late, partial propagation,
/// replicas are restored from backups (store and/or own log rolled back, the
/// rolled-back log reaching the others or not), their logs are overwritten
/// in place, edits try values too big for the log, and strangers' logs carry
/// versions far in the future. After everyone syncs, every replica holds the
/// same tasks, every field at its highest surviving version (a change is lost
/// for good only when a restore took away the only store and log that held
/// it); a far-future version is never merged; no line a replica wrote is
/// ever too long for another to read.
///
/// Issue 37's faults too: logs reach machines in any order (a change before
/// its task's creation), clocks run more than a year behind (what they
/// refuse is taken once they are right) or months ahead, and silent logs
/// are retired (from what the logs say) while schedules go on — and still
/// every replica ends equal. `NEXTUP_SCHEDULES` sets how many schedules run
/// (half of it each), `NEXTUP_SEED` runs only that seed.
@Suite struct ConvergenceUnderDamageTests {
    static var scheduleCount: Int {
        max(20, (ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"].flatMap(Int.init) ?? 500) / 2)
    }

    @Test func restoresCorruptionOversizedValuesAndFarFutureVersionsOverOneSharedFolder() throws {
        try runSchedules(firstSeed: 0xDA3A_0000, shared: true)
    }

    @Test func restoresCorruptionOversizedValuesAndFarFutureVersionsWithLatePropagation() throws {
        try runSchedules(firstSeed: 0xBAC0_0000, shared: false)
    }

    private func runSchedules(firstSeed: UInt64, shared: Bool) throws {
        let only = ProcessInfo.processInfo.environment["NEXTUP_SEED"].flatMap(UInt64.init)
        var failures: [String] = []
        for seed in firstSeed..<(firstSeed + UInt64(Self.scheduleCount)) where only == nil || only == seed {
            let problems = try runSchedule(seed: seed, shared: shared)
            if !problems.isEmpty { failures.append("seed \(seed): " + problems.prefix(4).joined(separator: "; ")) }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// One schedule; returns what went wrong (empty: all good). With
    /// `shared`, every replica uses one folder; otherwise each has its own
    /// copy, and logs travel between copies late, whole or cut.
    private func runSchedule(seed: UInt64, shared: Bool) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let count = Int.random(in: 3...4, using: &rng)
        let one = InMemoryPeerFolder()
        let folders = (0..<count).map { _ in shared ? one : InMemoryPeerFolder() }
        let distinctFolders = shared ? [one] : folders
        let offsets: [Int64] = [0, -oneDay, oneDay, 30_000, -400 * oneDay, 200 * oneDay]
        let clocks = (0..<count).map { _ in TestClock(offset: offsets.randomElement(using: &rng)!) }
        // Some schedules retire logs silent for a minute (clocks move up to 2 s a step).
        let options = SyncOptions(compactionMinimumBytes: 1_200, compactionFactor: 2,
                                  retireLogsAfterMillis: rng.chance(0.3) ? 60_000 : 0)
        let replicas = (0..<count).map { FakeReplica(folder: folders[$0], clock: clocks[$0], options: options) }
        var ids = SeededRandom(seed: seed ^ 0x1D5)
        for replica in replicas {
            replica.makeTaskID = {
                let hex = (0..<32).map { _ in String(Int.random(in: 0..<16, using: &ids), radix: 16) }.joined()
                let chars = Array(hex)
                return TaskID("\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-8\(String(chars[17..<20]))-\(String(chars[20..<32]))")!
            }
        }
        var backups: [Int: (store: InMemorySyncStorage.Backup, logName: String, log: [UInt8]?)] = [:]
        var made: [FieldChange] = []
        var refused: [FieldChange] = []
        var log: [String] = []
        var problems: [String] = []

        // Every log a replica ever wrote (it takes a new id when it finds
        // its changes written elsewhere): a file-sync tool copies them all.
        var written: [Int: Set<String>] = [:]
        func ownLogName(_ index: Int) throws -> String { LogFormat.fileName(for: try replicas[index].storage.replicaID()) }
        func sync(_ index: Int, full: Bool = false) throws {
            written[index, default: []].insert(try ownLogName(index))
            let report = try replicas[index].sync(full: full)
            written[index, default: []].insert(try ownLogName(index))
            for issue in report.issues {
                if case .lineTooLong = issue.kind { problems.append("replica \(index) met a line too long: \(issue)") }
            }
        }
        func propagate(from source: Int, to target: Int, cut: Bool) throws {
            guard !shared else { return }
            written[source, default: []].insert(try ownLogName(source))
            for name in written[source]!.sorted() {
                guard let bytes = folders[source].contents(of: name) else { continue }
                folders[target].put(name, Array(bytes.prefix(cut ? Int.random(in: 0...bytes.count, using: &rng) : bytes.count)))
            }
        }
        /// Every change some store, outbox or log still holds.
        func surviving(countingBackups: Bool = true) throws -> Set<FieldChange> {
            var known: Set<FieldChange> = []
            for replica in replicas {
                for task in replica.storage.tasks.values { known.formUnion(task.allChanges) }
                known.formUnion(try replica.storage.pendingLocalChanges(limit: .max).changes)
            }
            // A backup can be restored later: what it holds is not lost yet.
            for backup in backups.values where countingBackups {
                known.formUnion(backup.store.changes)
                if let bytes = backup.log, case .success(let (header, headerEnd)) = LogDecoder.header(in: bytes.prefix(LogFormat.maxHeaderLength), file: backup.logName) {
                    let scan = LogDecoder(file: backup.logName, owner: header.replica).scan(bytes[Int(headerEnd)...], at: headerEnd)
                    for record in scan.records { known.formUnion(record.changes) }
                }
            }
            for folder in distinctFolders {
                for info in try folder.list() {
                    guard case .success(let (header, headerEnd)) = LogFileReader(folder: folder).header(of: info.name) else { continue }
                    _ = try LogFileReader(folder: folder).readLines(of: info.name, owner: header.replica, from: headerEnd, upTo: info.size) { scan in
                        for record in scan.records { known.formUnion(record.changes) }
                    }
                }
            }
            return known
        }

        for _ in 0..<Int.random(in: 30...70, using: &rng) {
            let index = Int.random(in: 0..<count, using: &rng)
            let roll = Double.random(in: 0..<1, using: &rng)
            if roll < 0.38 {
                let operation = TaskOperation.random(known: try replicas[index].tasks().count, using: &rng)
                log.append("r\(index) \(operation)")
                made += try replicas[index].apply(operation)
            } else if roll < 0.58 {
                let full = rng.chance(0.1)
                log.append("r\(index) sync\(full ? " --full" : "")")
                try sync(index, full: full)
            } else if roll < 0.70 && !shared {
                let target = (index + Int.random(in: 1..<count, using: &rng)) % count
                let cut = rng.chance(0.3)
                log.append("r\(index) → r\(target)\(cut ? " (cut)" : "")")
                try propagate(from: index, to: target, cut: cut)
                // A copy replaced there may have been the last one of a lost log.
                let known = try surviving()
                made = made.filter(known.contains)
            } else if roll < 0.77 {
                log.append("r\(index) backup")
                let name = try ownLogName(index)
                backups[index] = (replicas[index].storage.backup(), name, folders[index].contents(of: name))
                // It replaces the previous backup, which may have been the last holder of something.
                let known = try surviving()
                made = made.filter(known.contains)
            } else if roll < 0.84, let backup = backups[index] {
                let what = ["store", "log", "store and log"].randomElement(using: &rng)!
                log.append("r\(index) restore \(what)")
                if what != "log" { replicas[index].storage.restore(backup.store) }
                if what != "store" {
                    if let bytes = backup.log { folders[index].put(backup.logName, bytes) } else { folders[index].remove(backup.logName) }
                }
                let known = try surviving()
                made = made.filter(known.contains)
            } else if roll < 0.90 {
                // Bytes of a replica's own log overwritten in place, on its machine.
                let name = try ownLogName(index)
                if let bytes = folders[index].contents(of: name), !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    let junk = (0..<Int.random(in: 1...20, using: &rng)).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
                    log.append("r\(index) log overwritten at \(at)")
                    folders[index].overwrite(name, at: at, with: junk)
                    // What only that line held (a restored store's lost
                    // edits) is gone with it.
                    let known = try surviving()
                    made = made.filter(known.contains)
                }
            } else if roll < 0.95 {
                // A stranger's log: one change dated far beyond the sane
                // future (refused), one 200 days ahead (merged, with a warning).
                guard let id = try replicas[index].taskID(Int.random(in: 0..<10, using: &rng)) else { continue }
                let stranger = ReplicaID.make()
                // Dated from true time: a clock behind would make "far" near.
                let now = clocks[index].nowMillis() - clocks[index].offset
                let far = FieldChange(task: id, field: .title, value: .string("from the far future"),
                                      version: Version(timestamp: [HybridTimestamp.greatest, HybridTimestamp(millis: now + 2 * HybridClock.maxAhead)].randomElement(using: &rng)!, replica: stranger))
                let near = FieldChange(task: id, field: .category, value: .string("Admin"),
                                       version: Version(timestamp: HybridTimestamp(millis: now + 200 * oneDay), replica: stranger))
                log.append("stranger \(stranger.rawValue.prefix(8)) → \(id.short)")
                var bytes = LogHeader(replica: stranger, created: now).encodedLine()
                bytes += LogRecord(task: id, changes: [far]).encodedLine(owner: stranger)
                bytes += LogRecord(task: id, changes: [near]).encodedLine(owner: stranger)
                for folder in distinctFolders { folder.put(LogFormat.fileName(for: stranger), bytes) }
                made.append(near)
                refused.append(far)
            } else {
                // A value too big for a log line is refused where it enters.
                guard let id = try replicas[index].taskID(Int.random(in: 0..<10, using: &rng)) else { continue }
                let huge = String(repeating: "e" + String(repeating: "\u{301}", count: 40), count: 20_000)
                log.append("r\(index) oversized notes")
                if !replicas[index].set(id, [(.notes, .string(huge))]).isEmpty { problems.append("an oversized value was accepted") }
            }
            for clock in clocks { clock.advance(Int64.random(in: 0...2_000, using: &rng)) }
        }
        func propagateAll() throws {
            for source in 0..<count { for target in 0..<count where target != source { try propagate(from: source, to: target, cut: false) } }
        }
        // Every clock is right again: what a clock behind refused is taken now.
        for clock in clocks { clock.offset = 0 }
        // What only a backup holds now is lost: no restore is coming.
        let known = try surviving(countingBackups: false)
        made = made.filter(known.contains)
        // Everyone syncs; once with a full reconcile (as every start of the
        // TUI or `sync --watch` does): a replica holding what only a damaged
        // line of a retired log had re-publishes it then.
        for full in [false, false, true, false, false] {
            for index in 0..<count { try sync(index, full: full) }
            try propagateAll()
        }
        let expected = expectedState(made)
        for (index, replica) in replicas.enumerated() {
            let tasks = try replica.tasks()
            let diff = differences(tasks, expected)
            if !diff.isEmpty {
                problems.append("replica \(index) differs: \(diff.prefix(3)) after \(log.suffix(10))")
            }
            for change in refused where tasks[change.task]?.versions[change.field] == change.version {
                problems.append("replica \(index) merged a far-future version")
            }
        }
        return problems
    }
}
