import Foundation
import NextUpCore
import NextUpStore
import Testing

/// One store used by this process and other `nextup` processes at once.
@Suite struct SharedStoreTests {
    let scratch = Scratch()

    /// Closing any descriptor of a file drops every fcntl lock the process
    /// holds on it, SQLite's included. Opening the store a second time in a
    /// process must not do that, or another process that exits believes it is
    /// the last user, checkpoints and deletes the WAL, and later writes of this
    /// process are lost.
    @Test func aSecondOpenInOneProcessKeepsTheFirstOnesWritesSafe() throws {
        let folder = scratch.path("store")
        let nextup = NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": folder.path])
        let first = try TaskStore.open(StoreLocation(folder: folder))
        _ = try first.add(TaskDraft(title: "one"))
        do {
            let second = try TaskStore.open(StoreLocation(folder: folder))
            #expect(try second.openCount() == 1)
        }
        #expect(try nextup.run("add", "from another process").status == 0)
        _ = try first.add(TaskDraft(title: "two"))
        #expect(try nextup.run("count").out == "3")
        #expect(try first.openCount() == 3)
    }
}
