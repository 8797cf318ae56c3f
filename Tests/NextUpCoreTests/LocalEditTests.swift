import Testing
@testable import NextUpCore

/// Core's local edit: the one place local versions are made.
@Suite struct LocalEditTests {
    let me = ReplicaID.make(), other = ReplicaID.make()

    func task() -> TaskItem {
        var t = TaskItem(id: TaskID.make())
        t.set(.title, to: .string("t"))
        t.versions[.title] = Version(timestamp: HybridTimestamp(millis: 5_000), replica: other)
        return t
    }

    @Test func aValueAlreadyThereIsNoChangeAndTheClockDoesNotTick() throws {
        let clock = HybridClock(last: HybridTimestamp(millis: 100))
        let t = task()
        let out = try LocalEdit.apply([(.title, .string("t")), (.urgency, .null), (.deleted, .bool(false))],
                                      to: t, clock: clock, replica: me, now: 9_000)
        #expect(out.changes.isEmpty)
        #expect(out.clock == clock)
        #expect(out.task == t)
    }

    @Test func anEditWinsOverWhatItSawWhateverTheWallClockSays() throws {
        // Our wall clock is far behind the version we saw.
        let out = try LocalEdit.apply([(.title, .string("new")), (.importance, .int(2))], to: task(),
                                      clock: HybridClock(), replica: me, now: 1_000)
        #expect(out.changes.count == 2)
        let version = try #require(out.task.versions[.title])
        #expect(version > Version(timestamp: HybridTimestamp(millis: 5_000), replica: other))
        #expect(out.task.versions[.importance] == version)
        // The clock follows what it saw only a second past its own time:
        // a version from a clock ahead moves no other task's versions.
        #expect(out.clock.last <= HybridClock.limit(now: 1_000).successor)
        #expect(out.changes.allSatisfy { $0.version == version && $0.task == out.task.id })
    }

    @Test func aFieldThatMovedOnSinceTheCallerSawItIsNotWritten() throws {
        let t = task()
        let seen = Version(timestamp: HybridTimestamp(millis: 4_000), replica: me)
        #expect(throws: StaleWrite(task: t.id, field: .title, current: .string("t"), version: t.versions[.title])) {
            try LocalEdit.apply([(.title, .string("mine")), (.notes, .string("n"))], to: t, clock: HybridClock(),
                                replica: me, now: 9_000, expecting: [.title: seen])
        }
        // Seen as it is: written.
        let ok = try LocalEdit.apply([(.title, .string("mine"))], to: t, clock: HybridClock(), replica: me, now: 9_000,
                                     expecting: [.title: t.versions[.title]])
        #expect(ok.task.title == "mine")
        // Seen as never written, but written since: refused.
        #expect(throws: StaleWrite.self) {
            try LocalEdit.apply([(.title, .string("mine"))], to: t, clock: HybridClock(), replica: me, now: 9_000,
                                expecting: [.title: Optional<Version>.none])
        }
        // A field that moved on to the very value asked for is no change, not a conflict.
        let same = try LocalEdit.apply([(.title, .string("t"))], to: t, clock: HybridClock(), replica: me, now: 9_000,
                                       expecting: [.title: seen])
        #expect(same.changes.isEmpty)
    }

    @Test func aFieldTheDecisionRestedOnThatMovedOnStopsTheEditToo() throws {
        var t = task()
        t.set(.deleted, to: .bool(true))
        t.versions[.deleted] = Version(timestamp: HybridTimestamp(millis: 6_000), replica: other)
        // The prompt opened when the task was not deleted (never written).
        let seen: [TaskField: Version?] = [.title: t.versions[.title], .deleted: nil]
        #expect(throws: StaleWrite(task: t.id, field: .deleted, current: .bool(true), version: t.versions[.deleted])) {
            try LocalEdit.apply([(.title, .string("mine"))], to: t, clock: HybridClock(), replica: me, now: 9_000, expecting: seen)
        }
        // Nothing to write: nothing to refuse.
        let none = try LocalEdit.apply([(.title, .string("t"))], to: t, clock: HybridClock(), replica: me, now: 9_000, expecting: seen)
        #expect(none.changes.isEmpty)
    }

    @Test func anImportKeepsItsRecordedTimeForANewTaskOnly() throws {
        let fresh = TaskItem(id: TaskID.make())
        let out = try LocalEdit.apply([(.title, .string("imported"))], to: fresh, clock: HybridClock(), replica: me,
                                      now: 9_000, importedAt: 2_000)
        #expect(out.task.versions[.title]?.timestamp == HybridTimestamp(millis: 2_000))
        let later = try LocalEdit.apply([(.title, .string("again"))], to: task(), clock: HybridClock(), replica: me,
                                        now: 9_000, importedAt: 2_000)
        #expect(later.task.versions[.title]!.timestamp > HybridTimestamp(millis: 5_000))
    }

    @Test func aValueTheFieldDoesNotAcceptThrows() {
        #expect(throws: TaskInputError.self) {
            try LocalEdit.apply([(.importance, .int(9))], to: task(), clock: HybridClock(), replica: me, now: 9_000)
        }
    }

    /// The in-place form is the same edit: the same task, changes and clock
    /// as the returning form; and when it refuses (a stale field, a value
    /// not accepted) the task and the clock are untouched.
    @Test func theInPlaceFormIsTheSameEditAndLeavesNothingWhenItRefuses() throws {
        let base = task()
        let clock = HybridClock(last: HybridTimestamp(millis: 100))
        let edits: [[(TaskField, FieldValue)]] = [
            [(.title, .string("new")), (.importance, .int(2)), (.tag("Work"), .bool(true))],
            [(.title, .string("t")), (.urgency, .null)],
            [(.notes, .string("n")), (.created, .int(1_234))],
        ]
        for fields in edits {
            for importedAt in [nil, Int64(2_000)] {
                let out = try LocalEdit.apply(fields, to: base, clock: clock, replica: me, now: 9_000, importedAt: importedAt)
                var t = base, c = clock
                let changes = try LocalEdit.apply(fields, to: &t, clock: &c, replica: me, now: 9_000, importedAt: importedAt)
                #expect(changes == out.changes)
                #expect(t == out.task)
                #expect(c == out.clock)
            }
        }
        var t = base, c = clock
        #expect(throws: TaskInputError.self) {
            try LocalEdit.apply([(.notes, .string("n")), (.importance, .int(9))], to: &t, clock: &c, replica: me, now: 9_000)
        }
        #expect(throws: StaleWrite.self) {
            try LocalEdit.apply([(.notes, .string("n"))], to: &t, clock: &c, replica: me, now: 9_000,
                                expecting: [.title: Version(timestamp: HybridTimestamp(millis: 4_000), replica: me)])
        }
        #expect(t == base && c == clock)
    }
}
