import Foundation
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// Imports of more than 1,000 records look up which ids exist with one query
/// instead of one per record; the outcome must be what record-by-record
/// lookups (imports of up to 1,000) give.
@Suite struct StoreBulkImportTests {
    let tmp = TemporaryFolder()

    static func records(count: Int, retitled: Set<Int> = []) -> [TaskJSON] {
        (0..<count).map { i in
            var t = TaskJSON(title: retitled.contains(i) ? "changed \(i)" : "task \(i) 🧪")
            t.id = String(format: "6301bbfc-a0c5-454e-8ff9-%012x", i)
            t.importance = i % 4 == 0 ? nil : i % 3 + 1
            t.done = i % 5 == 0
            if i % 5 == 0 { t.completedAt = "2025-04-01T10:00:00.000Z" }
            t.created = "2025-03-28T18:49:29.927Z"
            return t
        }
    }

    func tasks(_ store: TaskStore) throws -> [TaskJSON] {
        try store.allTasks().map { var t = TaskJSON($0); t.modified = nil; return t }.sorted { $0.id! < $1.id! }
    }

    @Test func bulkImportMatchesRecordByRecordImport() throws {
        let bulk = try TaskStore.open(StoreLocation(folder: tmp.path("bulk")))
        let small = try TaskStore.open(StoreLocation(folder: tmp.path("small")))
        let before = Self.records(count: 300)
        let after = Self.records(count: 1_500, retitled: Set(stride(from: 0, to: 300, by: 3)))
        for store in [bulk, small] { _ = try store.importTasks(before) }

        let summary = try bulk.importTasks(after)  // > 1,000: one id query
        var total = TaskStore.ImportSummary()
        for start in stride(from: 0, to: after.count, by: 500) {  // ≤ 1,000: a lookup per record
            let part = try small.importTasks(Array(after[start..<min(start + 500, after.count)]))
            total.created += part.created; total.updated += part.updated; total.unchanged += part.unchanged
        }
        #expect(summary == total)
        #expect(summary.created == 1_200 && summary.updated == 100 && summary.unchanged == 200)
        #expect(try tasks(bulk) == tasks(small))
        #expect(try bulk.outboxCount(after: 0) == small.outboxCount(after: 0))
        // Idempotent: the same bulk import again changes nothing.
        let again = try bulk.importTasks(after)
        #expect(again.unchanged == 1_500 && again.created == 0 && again.updated == 0)
    }
}
