import Foundation
import NextUpCore
@testable import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpBridge

/// Schema v9 moves the bridge's memory from JSON in `meta` into
/// `bridge_item`, under the path it was kept for; the first cycle gives it
/// to the vdir's identity.
@Suite struct BridgeMemoryMigrationTests {
    let tmp = TemporaryFolder()

    @Test func aMemoryKeptInMetaMovesToTheTableAndToTheVdirsIdentity() throws {
        let vdir = tmp.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let file = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:u1\r\nSUMMARY:Kept\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try Data(file.utf8).write(to: vdir.appendingPathComponent("u1.ics"))
        let location = StoreLocation(folder: tmp.path("store"))
        try FileManager.default.createDirectory(at: location.folder, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("NextUpStoreTests/Fixtures/schema-v8.sqlite")
        try FileManager.default.copyItem(at: fixture, to: location.databaseURL)
        let hash = SHA1.hex(Array(file.utf8))
        let memory = #"{"complete":true,"file":"u1.ics","gone":false,"hash":"\#(hash)","sequence":0,"stamp":{"changed":5,"device":1,"inode":2,"modified":4,"size":3},"view":{"uid":"u1","title":"Kept"}}"#
        let sql = """
            INSERT INTO meta VALUES ('sync.vdir.folder', '\(vdir.standardizedFileURL.path)');
            INSERT INTO meta VALUES ('sync.vdir.item.u1', '\(memory)');
            INSERT INTO meta VALUES ('sync.vdir.item.broken', 'not json');
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [location.databaseURL.path, sql]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)

        let store = try TaskStore.open(location)
        let moved = try store.bridgeItems(vdir: "path:" + vdir.standardizedFileURL.path)
        #expect(moved.keys.sorted() == ["u1"])
        #expect(moved["u1"] == BridgeItem(uid: "u1", file: "u1.ics", hash: hash,
                                          stamp: BridgeItem.Stamp(device: 1, inode: 2, size: 3, modified: 4, changed: 5)))
        #expect(try store.syncState(prefix: "sync.vdir.").isEmpty)

        _ = try VdirBridge(store: store, folder: vdir).cycle()
        let key = try #require(VdirFolder(url: vdir).identity())
        let taken = try #require(try store.bridgeItems(vdir: "id:" + key)["u1"])
        #expect(taken.base == Array(file.utf8))
        #expect(try store.bridgeItems(vdir: "path:" + vdir.standardizedFileURL.path).isEmpty)
    }
}
