import Foundation
import Testing

/// `nextup undo` as a shell user meets it: the last change taken back, newest
/// first, several changes of one field walked back in turn, and never over a
/// change made since by another command or another machine.
@Suite struct UndoCommandTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }

    func field(_ id: String, _ name: String, _ extra: [String] = []) throws -> Any? {
        let r = try cli.run(extra + ["show", id, "--json"])
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?[name]
    }

    @Test func undoWalksBackNewestFirstAndSaysWhatItDid() throws {
        let id = try cli.run("add", "Buy mlk", "--importance", "1").out
        #expect(try cli.run("edit", id, "--importance", "3").status == 0)
        #expect(try cli.run("edit", id, "--importance", "2", "--title", "Buy milk").status == 0)

        let first = try cli.run("undo")
        #expect(first.status == 0)
        #expect(first.out == "undid: \(id.prefix(8)) Buy mlk: title “Buy milk” → “Buy mlk”, importance 2 → 3")
        let second = try cli.run("undo")
        #expect(second.out == "undid: \(id.prefix(8)) Buy mlk: importance 3 → 1")
        #expect(try field(id, "importance") as? Int == 1)
        let third = try cli.run("undo")
        #expect(third.out == "undid add: \(id.prefix(8)) Buy mlk is deleted (nextup restore \(id.prefix(8)) brings it back)")
        #expect(try field(id, "deleted") as? Bool == true)
        let none = try cli.run("undo")
        #expect(none.status == 1)
        #expect(none.stderr == "nextup: nothing to undo: no change made on this store is left to take back\n")
    }

    @Test func aChangeMadeSinceIsNeverUndoneOver() throws {
        let id = try cli.run("add", "Plan", "--importance", "1").out
        #expect(try cli.run("edit", id, "--urgency", "urgent").status == 0)
        #expect(try cli.run("edit", id, "--importance", "2").status == 0)
        // The newest change (importance) is undone; then urgency's, untouched since.
        #expect(try cli.run("undo").out.contains("importance 2 → 1"))
        #expect(try cli.run("undo").out.contains("urgency “urgent” → unset"))

        // Through the peer folder: another machine changes the title after ours.
        let peer = scratch.path("peer")
        try FileManager.default.createDirectory(at: peer, withIntermediateDirectories: true)
        let laptop = ["--store", scratch.path("laptop").path, "--peer", peer.path]
        #expect(try cli.run("edit", id, "--title", "Plan the week").status == 0)
        #expect(try cli.run("--peer", peer.path, "sync").status == 0)
        #expect(try cli.run(laptop + ["sync"]).status == 0)
        #expect(try cli.run(laptop + ["edit", id, "--title", "Plan the month"]).status == 0)
        #expect(try cli.run(laptop + ["sync"]).status == 0)
        #expect(try cli.run("--peer", peer.path, "sync").status == 0)
        let refused = try cli.run("undo")
        #expect(refused.status == 1)
        #expect(refused.stderr == "nextup: cannot undo the last change to \(id.prefix(8)) Plan the month: title is now “Plan the month”, changed since on another machine; nothing changed\n")
        #expect(try field(id, "title") as? String == "Plan the month")
    }
}
