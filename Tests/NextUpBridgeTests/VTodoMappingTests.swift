import Foundation
import Testing
@testable import NextUpBridge
import NextUpCore

/// The mapping between a task and a VTODO, and the diff that makes a foreign
/// file's changes into edits (DESIGN.md §5b).
struct VTodoMappingTests {
    static func task(_ build: (inout TaskItem) -> Void = { _ in }) -> TaskItem {
        var t = TaskItem(id: TaskID("0b7f1c9e-2d3a-4e5f-8a6b-7c8d9e0f1a2b")!)
        t.title = "Write the report"
        t.created = 1_795_000_000_000
        t.versions[.title] = Version(timestamp: HybridTimestamp(millis: 1_795_000_100_000), replica: ReplicaID("11111111-1111-4111-8111-111111111111")!)
        build(&t)
        return t
    }

    static func view(of text: String) throws -> VTodoView {
        let roots = try ICalComponent.parse(Array(text.utf8))
        return try VTodoView(vtodo: try #require(roots.first?.components.first { $0.name == "VTODO" }))
    }

    @Test func aWrittenFileReadsBackAsTheTask() throws {
        let full = Self.task {
            $0.notes = "line one\nline, two; three \\ four"
            $0.urgency = .urgent
            $0.importance = .high
            $0.duration = try? TaskDuration(minutes: 90)
            $0.category = "Deep Work"
            $0.due = try? DueDate(year: 2026, month: 12, day: 24)
            $0.completedAt = 1_795_000_200_123
            $0.nextUpPosition = "m"
            $0.extra[.tag("alpha")] = .bool(true)
            $0.extra[.tag("beta")] = .bool(true)
            $0.extra[.tag("gone")] = .bool(false)
        }
        for task in [full, Self.task()] {
            let text = ICalComponent.vtodoCalendar(for: task, sequence: 3).serialized()
            #expect(try Self.view(of: text) == VTodoView(task: task))
            #expect(text.contains("UID:\(task.id.rawValue)\r\n"))
        }
        let text = ICalComponent.vtodoCalendar(for: full, sequence: 3).serialized()
        for line in ["PRIORITY:1", "DUE;VALUE=DATE:20261224", "STATUS:COMPLETED", "COMPLETED:20261118T111000Z",
                     "CATEGORIES:Deep Work,alpha,beta", "X-NEXTUP-URGENCY:urgent", "X-NEXTUP-DURATION:90",
                     "X-NEXTUP-CATEGORY:Deep Work", "X-NEXTUP-NEXT-UP:m", "SEQUENCE:3", "CREATED:20261118T110640Z",
                     "DTSTAMP:20261118T110820Z", "LAST-MODIFIED:20261118T110820Z", "DESCRIPTION:line one\\nline\\, two\\; three \\\\ four"] {
            #expect(text.contains(line + "\r\n"), "\(line)")
        }
        var deleted = full
        deleted.deleted = true
        #expect(ICalComponent.vtodoCalendar(for: deleted, sequence: 0).serialized().contains("STATUS:CANCELLED\r\n"))
    }

    @Test func priorityMapsToImportanceByRanges() throws {
        for (priority, importance) in [("1", 3), ("4", 3), ("5", 2), ("6", 1), ("9", 1), ("0", nil), ("x", nil)] as [(String, Int?)] {
            let v = try Self.view(of: "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:u\nSUMMARY:s\nPRIORITY:\(priority)\nEND:VTODO\nEND:VCALENDAR\n")
            #expect(v.importance == importance, "\(priority)")
        }
        for importance in Importance.allCases {
            let t = Self.task { $0.importance = importance }
            #expect(try Self.view(of: ICalComponent.vtodoCalendar(for: t, sequence: 0).serialized()).importance == importance.rawValue)
        }
    }

    @Test func foreignUIDsMapToNameBasedIdsAndOurOwnToThemselves() {
        // Checked against Python's uuid.uuid5 with the same namespace.
        #expect(TaskID.forVTodoUID("abc").rawValue == "7a40b1f2-a0de-5018-a44b-cd05a8c6e3fb")
        #expect(TaskID.forVTodoUID("tasks.org-1234@example").rawValue == "700cc680-687b-5eec-9f80-3a555a653bfb")
        let own = "0b7f1c9e-2d3a-4e5f-8a6b-7c8d9e0f1a2b"
        #expect(TaskID.forVTodoUID(own).rawValue == own)
        #expect(TaskID.forVTodoUID(own.uppercased()).rawValue != own)
        var foreign = Self.task()
        foreign.source = TaskID.vtodoSource
        foreign.externalID = "abc"
        #expect(foreign.vtodoUID == "abc")
        #expect(Self.task().vtodoUID == own)
    }

    @Test func aClientDroppingExtensionsAsksForNothing() throws {
        let task = Self.task { $0.urgency = .urgent; $0.duration = try? TaskDuration(minutes: 30); $0.category = "Admin"; $0.nextUpPosition = "m" }
        let written = VTodoView(task: task)
        var dropped = written
        dropped.extensions = [:]
        #expect(dropped.changes(since: written, task: task, now: 0).isEmpty)
        #expect(written.changes(since: written, task: task, now: 0).isEmpty)
        var renamed = dropped
        renamed.title = "Renamed"
        let changes = renamed.changes(since: written, task: task, now: 0)
        #expect(changes.map(\.0) == [.title])
    }

    @Test func categoriesAreASet() throws {
        let task = Self.task { $0.category = "Deep Work"; $0.extra[.tag("alpha")] = .bool(true) }
        let written = VTodoView(task: task)
        var file = written
        file.extensions = [:]
        file.categories = ["alpha", "beta"]  // category taken out, a tag added
        let changes = file.changes(since: written, task: task, now: 0)
        #expect(changes.contains { $0.0 == .category && $0.1 == .null })
        #expect(changes.contains { $0.0 == .tag("beta") && $0.1 == .bool(true) })
        #expect(!changes.contains { $0.0 == .tag("alpha") })
        file.categories = ["Deep Work"]  // a tag taken out
        #expect(file.changes(since: written, task: task, now: 0).map(\.0) == [.tag("alpha")])
    }

    @Test func aCompletionWithoutATimeCompletesNow() throws {
        let v = try Self.view(of: "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:u\nSUMMARY:s\nSTATUS:COMPLETED\nEND:VTODO\nEND:VCALENDAR\n")
        var open = v
        open.completedAt = nil
        #expect(v.changes(since: open, task: nil, now: 42).contains { $0.0 == .done && $0.1 == .int(42) })
    }

    @Test func unmanagedPropertiesAndAClientsDueTimeAreKept() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\nEND:VTIMEZONE\r\nBEGIN:VTODO\r\nUID:u\r\nSUMMARY:s\r\nDUE;TZID=Europe/Paris:20261224T170000\r\nX-APPLE-SORT-ORDER:7\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let previous = try ICalComponent.parse(Array(text.utf8))[0]
        let task = Self.task { $0.due = try? DueDate(year: 2026, month: 12, day: 24) }
        let out = ICalComponent.vtodoCalendar(for: task, sequence: 1, previous: previous).serialized()
        #expect(out.contains("DUE;TZID=Europe/Paris:20261224T170000\r\n"))
        #expect(out.contains("X-APPLE-SORT-ORDER:7\r\n"))
        #expect(out.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nEND:VALARM\r\n"))
        #expect(out.contains("BEGIN:VTIMEZONE\r\n"))
        #expect(out.contains("PRODID:-//nextup//nextup phone bridge//EN\r\n"))
        let moved = Self.task { $0.due = try? DueDate(year: 2026, month: 12, day: 25) }
        #expect(ICalComponent.vtodoCalendar(for: moved, sequence: 1, previous: previous).serialized().contains("DUE;VALUE=DATE:20261225\r\n"))
    }
}
