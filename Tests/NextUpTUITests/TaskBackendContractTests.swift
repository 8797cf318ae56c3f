import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpTUI

/// One contract for the UI's backends: the in-memory fake the runtime tests
/// use must behave as the real store does. Each test runs against both.
@Suite struct TaskBackendContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, store
        var testDescription: String { rawValue }
    }

    /// A backend of `kind`, kept with what keeps it alive.
    final class Subject {
        let backend: TaskBackend
        private let folder: URL?
        init(_ kind: Kind) throws {
            switch kind {
            case .memory:
                backend = MemoryBackend()
                folder = nil
            case .store:
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString)")
                backend = StoreBackend(store: try TaskStore.open(StoreLocation(folder: url)))
                folder = url
            }
        }
        deinit { if let folder { try? FileManager.default.removeItem(at: folder) } }

        func row(_ id: TaskID) throws -> TaskItem { try #require(try backend.rows([id]).first) }

        /// Both lists as titles.
        func lists(_ query: ListQuery = ListQuery()) throws -> [[String]] {
            let (n, b) = try backend.listIDs(query, nowMillis: 1_800_000_000_000)
            let rows = Dictionary(uniqueKeysWithValues: try backend.rows(n + b).map { ($0.id, $0.title) })
            return [n.map { rows[$0]! }, b.map { rows[$0]! }]
        }
    }

    @Test(arguments: Kind.allCases) func aWriteOfTheValueAlreadyThereChangesNothing(kind: Kind) throws {
        let s = try Subject(kind)
        let id = try s.backend.perform(.add(title: "t", toNextUp: false))
        _ = try s.backend.perform(.setUrgency(id, .urgent))
        let before = try s.row(id)
        _ = try s.backend.perform(.setUrgency(id, .urgent))
        _ = try s.backend.perform(.setTitle(id, "t"))
        _ = try s.backend.perform(.reopen(id))
        _ = try s.backend.perform(.restore(id))
        let after = try s.row(id)
        #expect(after == before)
        #expect(after.versions[.urgency] != nil)
    }

    @Test(arguments: Kind.allCases) func everyWriteLandsOnItsFieldWithANewerVersion(kind: Kind) throws {
        let s = try Subject(kind)
        let id = try s.backend.perform(.add(title: "t", toNextUp: false))
        let writes: [(Write, TaskField, FieldValue)] = [
            (.setTitle(id, "renamed"), .title, .string("renamed")),
            (.setUrgency(id, .notUrgent), .urgency, .string("not-urgent")),
            (.setImportance(id, .high), .importance, .int(3)),
            (.setDuration(id, try TaskDuration(minutes: 45)), .duration, .int(45)),
            (.setCategory(id, "Admin"), .category, .string("Admin")),
            (.setCategory(id, nil), .category, .null),
            (.setDue(id, try DueDate.parse("2026-12-24")), .due, .string("2026-12-24")),
            (.setDue(id, nil), .due, .null),
            (.setNotes(id, "line one\nline two"), .notes, .string("line one\nline two")),
            (.setNotes(id, ""), .notes, .string("")),
            (.delete(id), .deleted, .bool(true)),
            (.restore(id), .deleted, .bool(false)),
        ]
        for (write, field, value) in writes {
            let before = try s.row(id)
            #expect(try s.backend.perform(write) == id)
            let after = try s.row(id)
            #expect(after.value(of: field) == value, "\(write)")
            #expect(after.versions[field]! > before.versions.values.max()!, "\(write)")
        }
    }

    @Test(arguments: Kind.allCases) func theSameScriptGivesTheSameLists(kind: Kind) throws {
        let s = try Subject(kind)
        var ids: [String: TaskID] = [:]
        for (title, next) in [("a", false), ("b", true), ("c", true), ("d", false), ("e", true)] {
            ids[title] = try s.backend.perform(.add(title: title, toNextUp: next))
        }
        _ = try s.backend.perform(.setImportance(ids["d"]!, .high))
        _ = try s.backend.perform(.setUrgency(ids["a"]!, .urgent))
        _ = try s.backend.perform(.placeInNextUp(ids["e"]!, .before(ids["b"]!)))
        _ = try s.backend.perform(.removeFromNextUp(ids["c"]!))
        _ = try s.backend.perform(.setCategory(ids["c"]!, "Études"))
        _ = try s.backend.perform(.complete(ids["d"]!))
        #expect(try s.lists() == [["e", "b"], ["a", "c"]])
        #expect(try s.lists(ListQuery(keepDone: [ids["d"]!])) == [["e", "b"], ["a", "d", "c"]])
        #expect(try s.lists(ListQuery(filter: try! ListFilter.parse("cat:ÉTUDES"))) == [[], ["c"]])
        #expect(try s.lists(ListQuery(filter: try! ListFilter.parse("is:tbd"))) == [["e", "b"], ["a", "c"]])
        _ = try s.backend.perform(.delete(ids["b"]!))
        #expect(try s.lists() == [["e"], ["a", "c"]])
    }

    @Test(arguments: Kind.allCases) func placingAroundATaskNotInNextUpIsRefusedAndWritesNothing(kind: Kind) throws {
        let s = try Subject(kind)
        let a = try s.backend.perform(.add(title: "a", toNextUp: true))
        let b = try s.backend.perform(.add(title: "b", toNextUp: false))
        let before = try s.row(a)
        #expect(throws: (any Error).self) { try s.backend.perform(.placeInNextUp(a, .before(b))) }
        #expect(try s.row(a) == before)
    }
}
