import Foundation
import Testing
import NextUpCore
import NextUpStore
@testable import NextUpTUI

/// The command line's `list --category` and the TUI's `cat:` filter find the
/// same tasks: one rule, case and accents ignored (`TextMatch`).
@Suite struct CategoryMatchTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-cat-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func listCategoryAndTheTUIFilterAgree() throws {
        let folder = Folder()
        let store = try TaskStore.open(StoreLocation(folder: folder.url))
        for (title, category) in [("read Proust", "Études"), ("exam", "ÉTUDES"), ("plain", "Etudes"), ("other", "Admin"),
                                  ("street", "STRASSE"), ("none", nil)] as [(String, String?)] {
            var draft = try TaskDraft(title: title)
            draft.category = category
            _ = try store.add(draft)
        }
        for query in ["études", "ÉTUDES", "etudes", "straße", "admin"] {
            let cli = try store.tasks(TaskFilter(scope: .open, category: query), nowMillis: Fixture.now).map(\.id)
            let tui = try StoreBackend(store: store).listIDs(ListQuery(filter: try! ListFilter.parse("cat:\(query)")), nowMillis: Fixture.now)
            #expect(cli == tui.nextUp + tui.backlog, "\(query)")
            let memory = try MemoryBackend(tasks: store.allTasks()).listIDs(ListQuery(filter: try! ListFilter.parse("cat:\(query)")), nowMillis: Fixture.now)
            #expect(cli == memory.nextUp + memory.backlog, "\(query), in memory")
        }
        let etudes = try store.tasks(TaskFilter(scope: .open, category: "études")).map(\.title)
        #expect(Set(etudes) == ["read Proust", "exam", "plain"], "matching ignores case and accents")
        #expect(try store.tasks(TaskFilter(scope: .open, category: "straße")).map(\.title) == ["street"])
    }
}
