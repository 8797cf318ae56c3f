import Foundation
import Testing

/// Every bad input gets one clear line on stderr, a non-zero exit, no crash
/// or backtrace, and an untouched store.
@Suite struct BadInputTests {
    let scratch = Scratch()
    var storeFolder: URL { scratch.path("store") }
    var nextup: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": storeFolder.path]) }

    /// Runs `args` against a store holding two tasks with ids sharing a
    /// prefix, and checks the failure and that the store is byte-for-byte the same.
    func expectFailure(_ args: [String], stdin: String? = nil, says expected: String, prefix: [String] = []) throws {
        let seed = """
            [{"id": "abcd0000-0000-4000-8000-000000000001", "title": "one"},
             {"id": "abcd0000-0000-4000-8000-000000000002", "title": "two"}]
            """
        if !FileManager.default.fileExists(atPath: storeFolder.path) {
            #expect(try nextup.run(["import", "-"], stdin: seed).status == 0)
        }
        let db = storeFolder.appendingPathComponent("nextup.sqlite")
        let before = try Data(contentsOf: db)
        let result = try nextup.run(args, stdin: stdin, prefix: prefix)
        #expect(result.status != 0, "\(args) should fail: \(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(args): one line on stderr, got: \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(args): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump") && !result.stderr.contains("backtrace"))
        #expect(try Data(contentsOf: db) == before, "\(args) must not touch the store")
    }

    @Test func contradictoryNextFlagsAreAUsageError() throws {
        try expectFailure(["edit", "abcd0000-0000-4000-8000-000000000001", "--next", "--no-next"], says: "--no-next")
        try expectFailure(["list", "--filter", "prio:H"], says: "unknown filter 'prio:'")
    }

    @Test(arguments: [
        (["add", ""], "title must not be empty"),
        (["add", "   "], "title must not be empty"),
        (["add", "x", "--importance", "7"], "importance must be 1, 2 or 3"),
        (["add", "x", "--duration", "abc"], "duration must look like"),
        (["add", "x", "--duration", "0"], "between 1 minute and 7 days"),
        (["add", "x", "--duration", "99999"], "between 1 minute and 7 days"),
        (["add", "x", "--due", "2026-13-45"], "is not a real date"),
        (["add", "x", "--urgency", "soon"], "urgency must be"),
        (["add", "x", "--category", " "], "category must not be empty"),
        (["show", "ffffffff-0000-4000-8000-000000000000"], "no task matches"),
        (["done", "9999"], "no task matches"),
        (["show", "abcd"], "matches 2 tasks"),
        (["show", "ab"], "at least 4"),
        (["edit", "abcd0000-0000-4000-8000-000000000001", "--title", " "], "title must not be empty"),
        (["edit", "abcd0000-0000-4000-8000-000000000001"], "say what to change"),
        (["list", "--bogus"], "Unknown option"),
        (["frobnicate"], "nextup"),
        (["import", "/no/such/file.json"], "cannot read"),
    ] as [([String], String)])
    func commandLineMistakes(args: [String], says: String) throws {
        try expectFailure(args, says: says)
    }

    @Test(arguments: [
        ("[{\"title\": \"a\",", "not valid JSON"),
        ("{\"title\": \"a\"}", "expected an array"),
        ("[{\"title\": \"a\", \"importance\": \"high\"}]", "item 1: 'importance' has the wrong type"),
        ("[{\"title\": 5}]", "item 1: 'title' has the wrong type"),
        ("[{\"notes\": \"no title\"}]", "item 1: 'title' is missing"),
        ("[{\"title\": \"ok\"}, {\"title\": \"x\", \"importance\": 7}]", "item 2: importance must be 1, 2 or 3"),
        ("[{\"title\": \"x\", \"due\": \"2026-02-30\"}]", "item 1: due date"),
        ("[{\"title\": \"x\", \"id\": \"not-a-uuid\"}]", "item 1: 'id' must be a UUID"),
        ("[{\"title\": \"x\", \"created\": \"last week\"}]", "item 1: 'created' must be an RFC 3339 time"),
        ("\u{FF}\u{FE}garbage", "not valid JSON"),
    ])
    func malformedImports(json: String, says: String) throws {
        try expectFailure(["import", "-"], stdin: json, says: says)
    }

    /// A first import (no store yet) of a rejected file — here a repeated
    /// id far into it — leaves no store, and the next command finds an
    /// empty store.
    @Test func aRejectedFirstImportLeavesNoStore() throws {
        let records = (0..<6_000).map { i in
            #"{"id": "6301bbfc-a0c5-454e-8ff9-\#(String(format: "%012x", i == 5_500 ? 17 : i))", "title": "task \#(i)"}"#
        }
        let file = scratch.path("repeated.json")
        try ("[" + records.joined(separator: ",\n") + "]").write(to: file, atomically: false, encoding: .utf8)
        let result = try nextup.run(["import", file.path])
        #expect(result.status == 1)
        #expect(result.stderr == "nextup: item 5501: id 6301bbfc-a0c5-454e-8ff9-000000000011 appears twice in the file\n", "\(result)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: storeFolder.path)) ?? []
        #expect(left.allSatisfy { !$0.hasPrefix("nextup.sqlite") }, "\(left)")
        #expect(try nextup.run("count").out == "0" || nextup.run("count").stderr.contains("no nextup store at"))
    }

    /// A bad record in a large file names its place in the whole file;
    /// with two, the first is named; and a file that is not JSON further on
    /// is reported as such, not for a bad record before the break.
    @Test(arguments: [
        ([4_500: #""importance": 7"#], "", "item 4501: importance must be 1, 2 or 3"),
        ([700: #""due": "2026-02-30""#, 5_200: #""importance": 7"#], "", "item 701: due date"),
        ([700: #""importance": 7"#], #", {"title": "#, "not valid JSON"),
    ] as [([Int: String], String, String)])
    func badRecordsInALargeFileAreNamedByTheirPlace(bad: [Int: String], tail: String, says: String) throws {
        let records = (0..<6_000).map { i in
            #"{"id": "6301bbfc-a0c5-454e-8ff9-\#(String(format: "%012x", i))", "title": "task \#(i)", "notes": "\#(String(repeating: "n", count: 40))""#
                + (bad[i].map { ", " + $0 } ?? "") + "}"
        }
        let file = scratch.path("bad-\(bad.keys.sorted()).json")
        try ("[" + records.joined(separator: ",\n") + tail + "]").write(to: file, atomically: false, encoding: .utf8)
        let result = try nextup.run(["import", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("nextup: ") && result.stderr.contains(says), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try nextup.run("count").out == "0" || nextup.run("count").stderr.contains("no nextup store at"))
    }

    func expectStoreFileRefused(_ bytes: Data, says expected: String) throws {
        let folder = scratch.path("weird")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let db = folder.appendingPathComponent("nextup.sqlite")
        try bytes.write(to: db)
        for args in [["count"], ["add", "x"], ["list"], ["doctor"]] {
            let result = try nextup.run(["--store", folder.path] + args)
            #expect(result.status == 1)
            #expect(result.stderr.contains(expected), "\(result)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try Data(contentsOf: db) == bytes)
        #expect(!FileManager.default.fileExists(atPath: db.path + "-wal"))
    }

    @Test func aStoreFileOfRandomBytesIsRefusedAndLeftAlone() throws {
        var rng = SystemRandomNumberGenerator()
        try expectStoreFileRefused(Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &rng) }), says: "is not a nextup database")
    }

    @Test func aStoreFromANewerSchemaIsRefusedAndLeftAlone() throws {
        _ = try nextup.run("add", "x")
        var bytes = try Data(contentsOf: storeFolder.appendingPathComponent("nextup.sqlite"))
        bytes[63] = 42  // PRAGMA user_version lives at offset 60, big-endian
        try expectStoreFileRefused(bytes, says: "written by a newer nextup (schema 42")
    }

    @Test func anUnwritableStoreFolderIsAClearError() throws {
        let locked = scratch.path("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        var prefix: [String] = []
        if getuid() == 0 {
            // root ignores permission bits: run as nobody against a root-owned folder.
            prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
        }
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path) }
        let result = try nextup.run(["--store", locked.appendingPathComponent("store").path, "add", "x"], prefix: prefix)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("cannot write the store"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        _ = try nextup.run("add", "seed")
        let plain = try nextup.run(["--store", storeFolder.appendingPathComponent("nextup.sqlite/inside").path, "count"])
        #expect(plain.status == 1)
    }

    @Test func exportToAnUnwritablePlaceIsAClearError() throws {
        _ = try nextup.run("add", "x")
        let result = try nextup.run("export", "/no/such/dir/tasks.json")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write /no/such/dir/tasks.json"))
    }
}
