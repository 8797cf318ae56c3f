import Foundation
@testable import NextUpCore
import NextUpStore
import NextUpSync
import Testing
@testable import NextUpCLI

/// Walks the field table (``FieldSpec/table``) through every consumer of a
/// task's fields: the store's row, JSON both ways (the byte paths and
/// JSONDecoder), the import plan, the peer-folder log and the CLI's `edit`
/// options. A field added to the table that some consumer misses fails here —
/// and so does a field without a sample below, which is the first thing to add.
@Suite struct FieldTableTests {
    /// A set, non-default value of each known field, in its wire shape, and
    /// what a person would type for it (fields with a CLI option).
    static let samples: [String: (value: FieldValue, typed: String?)] = [
        "title": (.string("Sample title"), "Sample title"),
        "notes": (.string("line one\nline two"), "some notes"),
        "urgency": (.string("urgent"), "urgent"),
        "importance": (.int(3), "3"),
        "duration": (.int(90), "1h30m"),
        "category": (.string("Deep Work"), "Deep Work"),
        "due": (.string("2026-12-24"), "2026-12-24"),
        "done": (.int(1_763_000_000_123), nil),
        "next_up": (.string("V"), nil),
        "deleted": (.bool(true), nil),
        "created": (.int(1_700_000_000_456), nil),
        "source": (.string("taskwarrior"), nil),
        "external_id": (.string("ext-1"), nil),
        "recur": (.string("FREQ=WEEKLY;BYDAY=MO"), "every monday"),
        "occurrence": (.string("6301bbfc-a0c5-454e-8ff9-bb510944fe0c#2"), nil),
        "defer": (.string("2026-12-20"), "2026-12-20"),
    ]

    static var sampleTask: TaskItem {
        var t = TaskItem(id: TaskID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!)
        for spec in FieldSpec.table {
            if let sample = samples[spec.field.rawValue] { t.set(spec.field, to: sample.value) }
        }
        t.set(.tag("Work"), to: .bool(true))
        t.set(TaskField(rawValue: "x-newer")!, to: .string("kept"))
        return t
    }

    @Test func theFieldOrderIsTheTablesOrder() {
        #expect(FieldSpec.table.map(\.field.ordinal) == Array(0..<FieldSpec.table.count))
        #expect(TaskField.known == TaskField.known.sorted())
        #expect(TaskField.title < TaskField.tag("a") && TaskField.tag("a") < TaskField(rawValue: "x-other")!)
    }

    @Test func everyFieldHasASampleAndTheSampleIsAccepted() {
        for spec in FieldSpec.table {
            let sample = Self.samples[spec.field.rawValue]
            #expect(sample != nil, "add a sample for the new field '\(spec.field)' to FieldTableTests")
            if let sample {
                #expect(spec.accepts(sample.value), "\(spec.field)")
                #expect(Self.sampleTask.value(of: spec.field) == sample.value, "\(spec.field): TaskItem.set/value")
                #expect(sample.value != TaskItem(id: TaskID.make()).value(of: spec.field), "\(spec.field): pick a non-default sample")
            }
        }
    }

    @Test func theStoreRowKeepsEveryField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fields-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TaskStore.open(StoreLocation(folder: folder))
        let task = Self.sampleTask
        var versioned = task
        let replica = ReplicaID.make()
        for field in FieldSpec.table.map(\.field) + [.tag("Work"), TaskField(rawValue: "x-newer")!] {
            versioned.versions[field] = Version(timestamp: HybridTimestamp(millis: 1_000), replica: replica)
        }
        _ = try store.mergeRemote(versioned.allChanges)
        let back = try #require(try store.task(task.id))
        for spec in FieldSpec.table {
            #expect(back.value(of: spec.field) == task.value(of: spec.field), "row loses \(spec.field) (column \(spec.column))")
        }
        #expect(back.tags == ["Work"])
        #expect(back.value(of: TaskField(rawValue: "x-newer")!) == .string("kept"))
        #expect(back.versions == versioned.versions)
    }

    @Test func jsonWritesAndReadsEveryFieldsKey() throws {
        let encoded = try JSONSerialization.jsonObject(with: Data(JSONOutput.string(Self.sampleTask).utf8)) as! [String: Any]
        for spec in FieldSpec.table {
            #expect(encoded[spec.jsonKey] != nil, "TaskJSON misses '\(spec.jsonKey)'")
        }
        // The reader gives back what the writer wrote.
        let full = JSONOutput.data([Self.sampleTask], versions: false)
        #expect(try JSONDecoder().decode([TaskJSON].self, from: full) == [TaskJSON(Self.sampleTask)])
    }

    @Test func importKeepsEveryField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fields-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try TaskStore.open(StoreLocation(folder: folder))
        var record = TaskJSON(Self.sampleTask)
        record.modified = nil
        _ = try store.importTasks([record])
        let back = try #require(try store.task(Self.sampleTask.id))
        for spec in FieldSpec.table {
            switch spec.field {
            case .nextUp: #expect(back.isNextUp, "import loses next_up")
            default: #expect(back.value(of: spec.field) == Self.sampleTask.value(of: spec.field), "import loses \(spec.field)")
            }
        }
        #expect(back.tags == ["Work"])
        #expect(back.value(of: TaskField(rawValue: "x-newer")!) == .string("kept"))
    }

    @Test func theLogCarriesEveryField() {
        let owner = ReplicaID.make()
        let version = Version(timestamp: HybridTimestamp(millis: 1_000), replica: owner)
        var task = Self.sampleTask
        for field in FieldSpec.table.map(\.field) + [.tag("Work"), TaskField(rawValue: "x-newer")!] { task.versions[field] = version }
        let record = LogRecord(task: task.id, changes: task.allChanges)
        let scan = LogDecoder(file: "f", owner: owner).scan(record.encodedLine(owner: owner), at: 0)
        #expect(scan.issues.isEmpty)
        #expect(scan.records == [record])
        for spec in FieldSpec.table {
            #expect(scan.records.first?.changes.contains { $0.field == spec.field && $0.value == task.value(of: spec.field) } == true, "the log loses \(spec.field)")
        }
    }

    @Test func editHasAnOptionForEveryTypedField() throws {
        for spec in FieldSpec.table {
            guard let option = spec.option else { continue }
            let typed = try #require(Self.samples[spec.field.rawValue]?.typed, "give '\(spec.field)' a typed sample")
            let edit = try #require(try NextUpCommand.parseAsRoot(["edit", "abcd", "--\(option)", typed]) as? EditCommand)
            let fields = try edit.requestedFields()
            #expect(fields.map(\.0) == [spec.field], "edit --\(option) does not set \(spec.field)")
            if spec.clearable {
                let cleared = try #require(try NextUpCommand.parseAsRoot(["edit", "abcd", "--\(option)", "none"]) as? EditCommand)
                #expect(try cleared.requestedFields().map(\.1) == [spec.cleared])
            }
        }
    }
}
