import NextUpTestSupport
import Foundation
import NextUpCore
import NextUpStore
import Synchronization
import Testing
@testable import NextUpSync

/// The convergence property (issue 3, "Done means"): replicas making random
/// operations, syncing at random (some syncs cut short mid-write), reading the
/// peer folder in random order, with clocks up to a day apart — after everyone
/// syncs twice, every store holds, field by field, the greatest version of
/// every change ever made. `NEXTUP_SCHEDULES` sets how many schedules run.
@Suite struct ConvergenceTests {
    static var scheduleCount: Int {
        ProcessInfo.processInfo.environment["NEXTUP_SCHEDULES"].flatMap(Int.init) ?? 500
    }

    @Test func randomSchedulesOverTheFakesConverge() throws {
        let count = Self.scheduleCount
        var failures: [String] = []
        for n in 0..<count {
            let seed = 0x5EED_0000 + UInt64(n)
            // Small compaction thresholds: logs get rewritten mid-schedule.
            let problems = try runSchedule(seed: seed, steps: 20...50, tornWrites: true) { folder, clock, _ in
                FakeReplica(folder: folder, clock: clock, options: SyncOptions(compactionMinimumBytes: 1_200, compactionFactor: 2))
            }
            if !problems.isEmpty { failures.append("seed \(seed): " + problems.prefix(5).joined(separator: "; ")) }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func randomSchedulesOverRealStoresAndARealFolderConverge() throws {
        let count = max(8, Self.scheduleCount / 40)
        var failures: [String] = []
        for n in 0..<count {
            let seed = 0x0DB0_0000 + UInt64(n)
            let peer = try TemporaryFolder("peer")
            let problems = try runSchedule(seed: seed, steps: 15...30, tornWrites: false, folder: LocalPeerFolder(url: peer.url)) { _, clock, _ in
                try StoreReplica(peer: peer.url, clock: clock)
            }
            if !problems.isEmpty { failures.append("seed \(seed): " + problems.prefix(5).joined(separator: "; ")) }
            if failures.count >= 2 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func randomSchedulesWithLaggingPartialPropagationConverge() throws {
        let count = Self.scheduleCount
        var failures: [String] = []
        for n in 0..<count {
            let seed = 0x1A66_0000 + UInt64(n)
            let problems = try runPropagationSchedule(seed: seed)
            if !problems.isEmpty { failures.append("seed \(seed): " + problems.prefix(5).joined(separator: "; ")) }
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Each replica has its own copy of the peer folder, as with Syncthing or
    /// Dropbox: a log reaches another machine late, whole or cut anywhere
    /// (a network file system read mid-append), newer or older than the copy
    /// there before. Then everything propagates and everyone syncs.
    private func runPropagationSchedule(seed: UInt64) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let replicaCount = Int.random(in: 3...4, using: &rng)
        let folders = (0..<replicaCount).map { _ in InMemoryPeerFolder() }
        let offsets: [Int64] = [0, -oneDay, oneDay, 30_000]
        let clocks = (0..<replicaCount).map { _ in TestClock(offset: offsets.randomElement(using: &rng)!) }
        let replicas = (0..<replicaCount).map { FakeReplica(folder: folders[$0], clock: clocks[$0], options: SyncOptions(compactionMinimumBytes: 1_200, compactionFactor: 2)) }
        var made: [FieldChange] = []
        var log: [String] = []
        var problems: [String] = []

        func propagate(from source: Int, to target: Int, prefix: Bool) throws {
            let name = LogFormat.fileName(for: try replicas[source].storage.replicaID())
            guard let bytes = folders[source].contents(of: name) else { return }
            let cut = prefix ? Int.random(in: 0...bytes.count, using: &rng) : bytes.count
            folders[target].put(name, Array(bytes.prefix(cut)))
        }
        func sync(_ index: Int, full: Bool = false) throws {
            let report = try replicas[index].sync(full: full)
            if report.newReplicaID != nil { problems.append("replica \(index) wrongly took a new id after \(log.suffix(3))") }
        }

        for _ in 0..<Int.random(in: 25...60, using: &rng) {
            let index = Int.random(in: 0..<replicaCount, using: &rng)
            let roll = Double.random(in: 0..<1, using: &rng)
            if roll < 0.5 {
                let operation = TaskOperation.random(known: try replicas[index].tasks().count, using: &rng)
                log.append("r\(index) \(operation)")
                made += try replicas[index].apply(operation)
            } else if roll < 0.75 {
                log.append("r\(index) sync")
                try sync(index, full: rng.chance(0.1))
            } else {
                let target = (index + Int.random(in: 1..<replicaCount, using: &rng)) % replicaCount
                let prefix = rng.chance(0.3)
                log.append("r\(index) → r\(target)\(prefix ? " (cut)" : "")")
                try propagate(from: index, to: target, prefix: prefix)
            }
            for clock in clocks { clock.advance(Int64.random(in: 0...2_000, using: &rng)) }
        }
        func propagateAll() throws {
            for source in 0..<replicaCount { for target in 0..<replicaCount where target != source { try propagate(from: source, to: target, prefix: false) } }
        }
        for _ in 0..<2 {
            for index in 0..<replicaCount { try sync(index) }
            try propagateAll()
        }
        for index in 0..<replicaCount { try sync(index) }
        let expected = expectedState(made)
        for (index, replica) in replicas.enumerated() {
            let diff = differences(try replica.tasks(), expected)
            if !diff.isEmpty { problems.append("replica \(index) differs: \(diff.prefix(3)) after \(log.suffix(8))") }
        }
        return problems
    }

    /// Runs one random schedule; returns what went wrong (empty: all good).
    private func runSchedule<R: ReplicaUnderTest>(
        seed: UInt64, steps: ClosedRange<Int>, tornWrites: Bool, folder given: (any PeerFolder)? = nil,
        make: (any PeerFolder, TestClock, Int) throws -> R
    ) throws -> [String] {
        var rng = SeededRandom(seed: seed)
        let memory = InMemoryPeerFolder()
        let folder: any PeerFolder = given ?? memory
        let listingRandom = Mutex(SeededRandom(seed: seed ^ 0xABCDEF))
        memory.reorderListings { listing in listingRandom.withLock { listing.shuffled(using: &$0) } }

        let replicaCount = Int.random(in: 3...4, using: &rng)
        let offsets: [Int64] = [0, -oneDay, oneDay, -5_000, 90_000]
        var clocks: [TestClock] = []
        var replicas: [R] = []
        for index in 0..<replicaCount {
            let clock = TestClock(offset: index == 0 ? 0 : offsets.randomElement(using: &rng)!)
            clocks.append(clock)
            replicas.append(try make(folder, clock, index))
        }
        var made: [FieldChange] = []
        var log: [String] = []
        var problems: [String] = []

        func sync(_ index: Int, full: Bool = false) throws {
            let report = try replicas[index].sync(full: full)
            if report.newReplicaID != nil { problems.append("replica \(index) wrongly took a new id after \(log.suffix(3))") }
        }

        for _ in 0..<Int.random(in: steps, using: &rng) {
            let index = Int.random(in: 0..<replicaCount, using: &rng)
            let roll = Double.random(in: 0..<1, using: &rng)
            if roll < 0.6 {
                let known = try replicas[index].tasks().count
                let operation = TaskOperation.random(known: known, using: &rng)
                log.append("r\(index) \(operation)")
                made += try replicas[index].apply(operation)
            } else if roll < 0.9 || !tornWrites {
                let full = rng.chance(0.1)
                log.append("r\(index) sync\(full ? " --full" : "")")
                try sync(index, full: full)
            } else {
                log.append("r\(index) sync, torn")
                memory.tearNextAppend(after: Int.random(in: 0...300, using: &rng))
                do { try sync(index) } catch is InMemoryPeerFolder.SimulatedCrash {}
                memory.tearNextAppend(after: nil)
            }
            for clock in clocks { clock.advance(Int64.random(in: 0...2_000, using: &rng)) }
        }
        for _ in 0..<2 {
            for index in (0..<replicaCount).shuffled(using: &rng) { try sync(index) }
        }
        let expected = expectedState(made)
        for (index, replica) in replicas.enumerated() {
            let diff = differences(try replica.tasks(), expected)
            if !diff.isEmpty { problems.append("replica \(index) differs: \(diff.prefix(3)) after \(log.suffix(6))") }
        }
        // Quiet once converged: another round writes no byte and changes nothing.
        for (index, replica) in replicas.enumerated() {
            let report = try replica.sync()
            if report.bytesWritten != 0 || report.merged != 0 { problems.append("replica \(index) was not quiet: wrote \(report.bytesWritten) bytes, merged \(report.merged)") }
        }
        return problems
    }
}
