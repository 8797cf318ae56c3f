import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpCore

@Suite struct MergeTests {
    static let replicas = (1...3).map { ReplicaID("00000000-0000-4000-8000-00000000000\($0)")! }
    static let tasks = (1...3).map { TaskID("10000000-0000-4000-8000-00000000000\($0)")! }

    static func randomValue(_ field: TaskField, _ rng: inout SeededRandom) -> FieldValue {
        let pick = Int(rng.next() % 4)
        switch field {
        case .title: return .string(["a", "b", "c", "d"][pick])
        case .importance: return pick == 0 ? .null : .int(Int64(pick))
        case .urgency: return [.null, .string("urgent"), .string("not-urgent"), .null][pick]
        case .deleted: return .bool(pick % 2 == 0)
        default: return pick == 0 ? .null : .string("x\(pick)")
        }
    }

    /// Random changes from three replicas, each with its own clock.
    static func randomChanges(_ rng: inout SeededRandom, count: Int) -> [FieldChange] {
        let fields: [TaskField] = [.title, .importance, .urgency, .deleted, .category]
        var clocks = replicas.map { _ in HybridClock() }
        return (0..<count).map { _ in
            let r = Int(rng.next() % 3)
            let now = Int64(rng.next() % 50)  // tiny clock range: many equal timestamps
            let field = fields[Int(rng.next() % UInt64(fields.count))]
            let version = Version(timestamp: clocks[r].tick(now: now), replica: replicas[r])
            return FieldChange(task: tasks[Int(rng.next() % 3)], field: field, value: randomValue(field, &rng), version: version)
        }
    }

    @Test func anyOrderAnyRepetitionGivesTheSameTasks() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            let changes = Self.randomChanges(&rng, count: 40)
            var reference: [TaskID: TaskItem] = [:]
            Merge.apply(changes, to: &reference)

            var shuffled = changes + changes.prefix(10)
            shuffled.shuffle(using: &rng)
            var other: [TaskID: TaskItem] = [:]
            Merge.apply(shuffled, to: &other)
            #expect(other == reference)

            // The invariant itself: each register holds the greatest version's value.
            for (key, group) in Dictionary(grouping: changes, by: { "\($0.task)/\($0.field)" }) {
                let winner = group.max { $0.version < $1.version }!
                let task = reference[winner.task]!
                #expect(task.value(of: winner.field) == winner.value, "register \(key)")
                #expect(task.versions[winner.field] == winner.version)
            }
        }
    }

    /// The batch merge applies a run of one task's changes to one copy; it
    /// must give what applying each change in turn gives — tasks and tally —
    /// with runs long and short, tasks known before or not, and changes
    /// that lose or are rejected.
    @Test func theBatchMergeIsChangeByChange() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SeededRandom(seed: UInt64(seed))
            var changes = Self.randomChanges(&rng, count: 60)
            // Runs of one task, as log records carry them (and a run split in two).
            if rng.next() % 2 == 0 { changes.sort { $0.task < $1.task } }
            if rng.next() % 3 == 0 {
                let t = changes[0].task
                changes.insert(FieldChange(task: t, field: .importance, value: .int(9), version: changes[0].version), at: 1)
            }
            var start: [TaskID: TaskItem] = [:]
            if rng.next() % 2 == 0 { Merge.apply(Self.randomChanges(&rng, count: 10), to: &start) }
            let local = Self.replicas[Int(rng.next() % 3)]

            var batch = start
            let tally = Merge.apply(changes, to: &batch, localReplica: local)

            var one = start
            var expected = Merge.Tally()
            var changed: Set<TaskID> = []
            for change in changes {
                if change.version.timestamp > expected.newestTimestamp { expected.newestTimestamp = change.version.timestamp }
                var task = one[change.task] ?? TaskItem(id: change.task)
                switch Merge.apply(change, to: &task) {
                case .applied:
                    expected.applied += 1
                    if change.version.replica == local { expected.foreignChangesUnderOwnID += 1 }
                    if changed.insert(change.task).inserted { expected.changedTasks.append(change.task) }
                    one[change.task] = task
                case .superseded: expected.superseded += 1
                case .rejected: expected.rejected += 1
                }
            }
            #expect(batch == one)
            #expect(tally == expected)
        }
    }

    @Test func concurrentEditsOfDifferentFieldsBothSurvive() {
        let id = Self.tasks[0]
        let t = HybridTimestamp(millis: 100)
        let urgency = FieldChange(task: id, field: .urgency, value: .string("urgent"), version: Version(timestamp: t, replica: Self.replicas[0]))
        let category = FieldChange(task: id, field: .category, value: .string("Admin"), version: Version(timestamp: t, replica: Self.replicas[1]))
        var a: [TaskID: TaskItem] = [:], b: [TaskID: TaskItem] = [:]
        Merge.apply([urgency, category], to: &a)
        Merge.apply([category, urgency], to: &b)
        #expect(a == b)
        #expect(a[id]?.urgency == .urgent && a[id]?.category == "Admin")
    }

    @Test func aStaleEmptyValueNeverOverwritesANewerSetOne() {
        let id = Self.tasks[0]
        var task = TaskItem(id: id)
        let newer = FieldChange(task: id, field: .urgency, value: .string("urgent"), version: Version(timestamp: HybridTimestamp(millis: 200), replica: Self.replicas[0]))
        let stale = FieldChange(task: id, field: .urgency, value: .null, version: Version(timestamp: HybridTimestamp(millis: 100), replica: Self.replicas[1]))
        #expect(Merge.apply(newer, to: &task) == .applied)
        #expect(Merge.apply(stale, to: &task) == .superseded)
        #expect(task.urgency == .urgent)
        #expect(Merge.apply(newer, to: &task) == .superseded)
    }

    @Test func malformedValuesAreRejected() {
        let id = Self.tasks[0]
        var task = TaskItem(id: id)
        let bad = FieldChange(task: id, field: .importance, value: .int(9), version: Version(timestamp: HybridTimestamp(millis: 1), replica: Self.replicas[0]))
        #expect(Merge.apply(bad, to: &task) == .rejected)
        #expect(task.versions.isEmpty)
    }
}

/// Two different writes under one version (a restored store can make them):
/// every replica keeps the same one, whatever the order it sees them in.
@Suite struct MergeTieTests {
    @Test func aTieBetweenDifferentValuesUnderOneVersionIsBrokenTheSameWayInEveryOrder() {
        let id = TaskID.make()
        let version = Version(timestamp: HybridTimestamp(millis: 5), replica: ReplicaID.make())
        let v = FieldChange(task: id, field: .title, value: .string("V"), version: version)
        let w = FieldChange(task: id, field: .title, value: .string("W"), version: version)
        var first: [TaskID: TaskItem] = [:], second: [TaskID: TaskItem] = [:]
        Merge.apply([v, w], to: &first)
        Merge.apply([w, v], to: &second)
        #expect(first == second)
        #expect(first[id]?.title == "W")
        var task = first[id]!
        #expect(Merge.apply(v, to: &task) == .superseded)
        #expect(Merge.apply(w, to: &task) == .superseded)
    }
}
