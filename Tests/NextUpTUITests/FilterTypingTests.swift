import NextUpTestSupport
import Foundation
import Testing
import NextUpCore
import NextUpStore
@testable import NextUpTUI

/// The TUI's filter while it is typed (``TitleNarrowing``: the words matched
/// in memory against the folded titles of a listing read without them)
/// lists exactly what `list --filter` lists — Core's ``ListFilter/matches(_:today:)``
/// in ``TaskOrdering`` — key after key, whatever is written in between.
@Suite struct FilterTypingTests {
    /// Random stores; random typing (a letter at the end, Backspace, a new
    /// word, Ctrl-U, a `cat:`/`is:` term) with random writes in between: by
    /// this UI's backend, through the same store object (as the sync engine
    /// writes), and by another store object on the same file (another
    /// process). After every key, the backend's lists equal Core's.
    @Test(arguments: [3, 5, 8] as [UInt64])
    func typedFiltersListWhatCoreLists(seed: UInt64) throws {
        let folder = StoreListingTests.Folder()
        let store = try StoreListingTests().randomStore(folder, count: 250, seed: seed)
        let other = try TaskStore.open(StoreLocation(folder: folder.url))
        let backend = StoreBackend(store: store)
        var rng = SeededRandom(seed: seed &* 31)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        let letters = Array("abcdeilkmoprstuwyzBMRSTÜß日本語 123")
        let terms = ["cat:admin ", "is:tbd ", "is:urgent ", "cat:\"deep work\" ", "due:week ", "cat:ADMIN ", "cat:d "]
        let today = DueDate(epochDay: Fixture.now / 86_400_000)
        var text = ""
        var keys = 0
        for step in 0..<300 {
            switch rng.next() % 20 {
            case 0: text = ""
            case 1, 2, 3: if !text.isEmpty { text.removeLast() }
            case 4: text = pick(terms) + text
            case 5: text += " "
            case 6:
                let id = pick(try store.allTasks()).id
                _ = try? backend.perform(.setTitle(id, pick(["Buy MILK", "straße \(step)", "日本 report", "zzz"])), expecting: [:])
            case 7:
                let id = pick(try store.allTasks()).id
                _ = try? other.edit(id, set: [(.title, .string(pick(["Über milk \(step)", "REPORT straße", "yyy"])))])
            case 8:
                _ = try? store.add(TaskDraft(title: pick(["Milk \(step)", "Straße", "Report über"])))
            case 9:
                let id = pick(try store.allTasks()).id
                _ = try? other.edit(id, set: [(.category, .string(pick(["Admin", "ADMIN", "Deep Work"])))])
            default: text.append(pick(letters))
            }
            guard let filter = try? ListFilter.parse(text) else { continue }
            keys += 1
            let query = ListQuery(sort: pick(BacklogSort.allCases), filter: filter, today: today)
            // As the runtime does while the prompt is open, now and then.
            if rng.next() % 3 == 0 { backend.prepareToNarrow(query, nowMillis: Fixture.now) }
            let got = try backend.listIDs(query, nowMillis: Fixture.now)
            let want = try MemoryBackend(tasks: try store.allTasks()).listIDs(query, nowMillis: Fixture.now)
            #expect(got.nextUp == want.nextUp, "\(text) (step \(step))")
            #expect(got.backlog == want.backlog, "\(text) (step \(step))")
            let sql = try store.listIDs(sort: query.sort, narrowing: TaskStore.ListNarrowing(filter, today: today), nowMillis: Fixture.now)
            #expect(sql.nextUp == want.nextUp && sql.backlog == want.backlog, "SQL: \(text) (step \(step))")
        }
        #expect(keys > 200)
    }

    /// Narrowing is decided from the filters alone: a letter typed at the end,
    /// a word added, or the same words narrow; a letter removed, another
    /// term, or a changed word do not.
    @Test func whatNarrows() throws {
        func f(_ s: String) -> ListFilter { try! ListFilter.parse(s) }
        #expect(f("repo").narrows(f("rep")))
        #expect(f("REPO").narrows(f("rep")))
        #expect(f("rep milk").narrows(f("rep")))
        #expect(f("strasse").narrows(f("STRAß")), "folded: straß is strass")
        #expect(f("cat:admin rep").narrows(f("cat:ADMIN")), "categories compare folded")
        #expect(f("cat:admin rep").narrows(f("rep")), "a category added narrows")
        #expect(!f("cat:home rep").narrows(f("cat:admin rep")))
        #expect(!f("rep").narrows(f("cat:admin rep")))
        #expect(!f("rep").narrows(f("repo")))
        #expect(!f("rep is:tbd").narrows(f("rep")))
        #expect(!f("rap").narrows(f("rep")))
    }

    /// Keys typed in the filter's prompt and handled together (a paste, fast
    /// typing) read the lists once, for the last text; a key after the
    /// prompt closed sees the filtered lists.
    @Test func aBurstOfFilterKeysReadsTheListsOnce() throws {
        let memory = MemoryBackend()
        for title in ["Buy milk", "Milk the cow", "Write report", "Call mum"] { memory.add(title) }
        let backend = CountingBackend(memory)
        let rt = AppRuntime(state: AppState(), backend: backend, screen: FakeScreen())
        rt.start()
        backend.lists = 0
        rt.handle(keys: [.char("/")] + "milk".map { .char($0) })
        #expect(backend.lists == 1)
        #expect(backend.prepared.last?.filter.text == "milk", "the backend is asked to prepare while the prompt is open")
        #expect(rt.state.filter.text == "milk" && rt.state.backlog.count == 2)
        rt.handle(keys: [.backspace])
        #expect(backend.lists == 2, "one key, one read")
        rt.handle(keys: [.char("k"), .char(" "), .char("c"), .char("o"), .enter, .char("j")])
        #expect(backend.lists == 3)
        #expect(rt.state.prompt == nil && rt.state.backlog.count == 1)
        #expect(rt.state.backlog.selected == rt.state.backlog.ids.first)
        let prepared = backend.prepared.count
        rt.handle(keys: [.char("k")])
        #expect(backend.prepared.count == prepared, "no preparing once the prompt is closed")
    }
}

/// A backend that counts list reads.
final class CountingBackend: TaskBackend {
    let inner: TaskBackend
    var lists = 0
    var prepared: [ListQuery] = []
    init(_ inner: TaskBackend) { self.inner = inner }
    func prepareToNarrow(_ query: ListQuery, nowMillis: Int64) { prepared.append(query) }
    func listIDs(_ query: ListQuery, nowMillis: Int64) throws -> (nextUp: [TaskID], backlog: [TaskID]) {
        lists += 1
        return try inner.listIDs(query, nowMillis: nowMillis)
    }
    func historyIDs(limit: Int) throws -> [TaskID] { try inner.historyIDs(limit: limit) }
    func rows(_ ids: [TaskID]) throws -> [TaskItem] { try inner.rows(ids) }
    func perform(_ write: Write, expecting: [TaskField: Version?]) throws -> (task: TaskItem, changed: Bool) {
        try inner.perform(write, expecting: expecting)
    }
    func replica() -> ReplicaID? { inner.replica() }
    func changeToken() throws -> Int? { try inner.changeToken() }
}
