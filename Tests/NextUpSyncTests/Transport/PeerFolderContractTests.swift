import Foundation
import Testing
@testable import NextUpSync

/// The ``PeerFolder`` contract, run against the real folder and the fake alike.
@Suite struct PeerFolderContractTests {
    @Test(arguments: PeerFolderKind.allCases)
    func appendCreatesExtendsAndReportsSize(_ kind: PeerFolderKind) throws {
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            #expect(try folder.info("a.log") == nil)
            #expect(try folder.append(Array("hello\n".utf8), to: "a.log", truncatingTo: nil) == 6)
            #expect(try folder.append(Array("world\n".utf8), to: "a.log", truncatingTo: nil) == 12)
            #expect(try folder.read("a.log", at: 0, count: 100) == Array("hello\nworld\n".utf8))
            #expect(try folder.info("a.log")?.size == 12)
            #expect(try folder.list().map(\.name) == ["a.log"])
        }
    }

    @Test(arguments: PeerFolderKind.allCases)
    func createWritesOnlyWhenTheNameIsFree(_ kind: PeerFolderKind) throws {
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            #expect(try folder.create("m.id", bytes: Array("first\n".utf8)))
            #expect(try !folder.create("m.id", bytes: Array("second\n".utf8)))
            #expect(try folder.read("m.id", at: 0, count: 100) == Array("first\n".utf8))
            #expect(try folder.list().map(\.name) == ["m.id"])
        }
    }

    @Test(arguments: PeerFolderKind.allCases)
    func readsAtOffsetsAndStopsAtTheEnd(_ kind: PeerFolderKind) throws {
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            try folder.append(Array("0123456789".utf8), to: "f", truncatingTo: nil)
            #expect(try folder.read("f", at: 3, count: 4) == Array("3456".utf8))
            #expect(try folder.read("f", at: 8, count: 10) == Array("89".utf8))
            #expect(try folder.read("f", at: 10, count: 10) == [])
            #expect(try folder.read("f", at: 50, count: 10) == [])
            #expect(throws: PeerFolderError.self) { try folder.read("missing", at: 0, count: 1) }
        }
    }

    @Test(arguments: PeerFolderKind.allCases)
    func appendCutsALongerFileBackFirst(_ kind: PeerFolderKind) throws {
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            try folder.append(Array("line1\nline2\ntorn".utf8), to: "f", truncatingTo: nil)
            #expect(try folder.append(Array("line3\n".utf8), to: "f", truncatingTo: 12) == 18)
            #expect(try folder.read("f", at: 0, count: 100) == Array("line1\nline2\nline3\n".utf8))
            // A length beyond the end cuts nothing.
            #expect(try folder.append(Array("x".utf8), to: "f", truncatingTo: 1_000) == 19)
        }
    }

    @Test(arguments: PeerFolderKind.allCases)
    func replaceSwapsTheWholeFileAndChangesItsIdentity(_ kind: PeerFolderKind) throws {
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            try folder.append(Array("old content that is long\n".utf8), to: "f", truncatingTo: nil)
            let before = try #require(try folder.info("f"))
            let size = try folder.replace("f") { write in
                try write(Array("new ".utf8))
                try write(Array("file\n".utf8))
            }
            #expect(size == 9)
            #expect(try folder.read("f", at: 0, count: 100) == Array("new file\n".utf8))
            let after = try #require(try folder.info("f"))
            #expect(after.identity != before.identity)
            // No temporary file is left or listed.
            #expect(try folder.list().map(\.name) == ["f"])
        }
    }

    @Test(arguments: PeerFolderKind.allCases)
    func aFailedReplaceLeavesTheOldFile(_ kind: PeerFolderKind) throws {
        struct Boom: Error {}
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            try folder.append(Array("keep me\n".utf8), to: "f", truncatingTo: nil)
            #expect(throws: Boom.self) {
                try folder.replace("f") { write in
                    try write(Array("partial".utf8))
                    throw Boom()
                }
            }
            #expect(try folder.read("f", at: 0, count: 100) == Array("keep me\n".utf8))
            #expect(try folder.list().map(\.name) == ["f"])
        }
    }

    @Test(arguments: PeerFolderKind.allCases)
    func renameMovesAFileAndFailsWhenItIsGone(_ kind: PeerFolderKind) throws {
        try withPeerFolder(kind) { (folder: any PeerFolder) throws in
            try folder.append(Array("x\n".utf8), to: "a", truncatingTo: nil)
            try folder.rename("a", to: "b")
            #expect(try folder.list().map(\.name) == ["b"])
            #expect(throws: PeerFolderError.self) { try folder.rename("a", to: "c") }
        }
    }

    @Test func aMissingFolderIsAnErrorAndIsNeverCreated() throws {
        let temp = try TemporaryFolder("peer")
        let missing = temp.path("not-mounted")
        let folder = LocalPeerFolder(url: missing)
        #expect(throws: PeerFolderError.missing(missing.path)) { try folder.checkAvailable() }
        #expect(throws: PeerFolderError.self) { try folder.list() }
        #expect(throws: PeerFolderError.self) { try folder.append([1], to: "f", truncatingTo: nil) }
        #expect(throws: PeerFolderError.self) { try folder.replace("f") { _ in } }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        let fake = InMemoryPeerFolder()
        fake.setAvailable(false)
        #expect(throws: PeerFolderError.self) { try fake.list() }
        #expect(throws: PeerFolderError.self) { try fake.append([1], to: "f", truncatingTo: nil) }
    }

    @Test func aFileInsteadOfAFolderIsAnError() throws {
        let temp = try TemporaryFolder("peer")
        let file = temp.path("plain-file")
        try Data("x".utf8).write(to: file)
        let folder = LocalPeerFolder(url: file)
        #expect(throws: PeerFolderError.notAFolder(file.path)) { try folder.checkAvailable() }
        #expect(PeerFolderError.notAFolder(file.path).description.contains("is not a folder"))
        #expect(PeerFolderError.missing("/mnt/x").description.contains("does not exist"))
    }

    @Test func localFilesArePrivateAndOnlyRegularFilesAreListed() throws {
        let temp = try TemporaryFolder("peer")
        let folder = LocalPeerFolder(url: temp.url)
        _ = try folder.append([0x41], to: "f", truncatingTo: nil)
        try FileManager.default.createDirectory(at: temp.path("sub"), withIntermediateDirectories: false)
        let attributes = try FileManager.default.attributesOfItem(atPath: temp.path("f").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try folder.list().map(\.name) == ["f"])
    }
}

@Suite struct LocalPeerFolderTests {
    @Test func staleTemporaryFilesOfAKilledWriterAreRemovedFreshOnesKept() throws {
        let temp = try TemporaryFolder("peer")
        let folder = LocalPeerFolder(url: temp.url)
        let stale = temp.path(".nextup-0000.tmp"), fresh = temp.path(".nextup-1111.tmp")
        try Data("half a snapshot".utf8).write(to: stale)
        try Data("being written".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7_200)], ofItemAtPath: stale.path)
        #expect(try folder.list().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
    }

    /// Kept a week from when it was set aside (its change time), however old
    /// the modification time its writer's machine gave it (issue 37).
    @Test func conflictCopiesRenamedAsideAreKeptForAWeekFromTheirRenaming() throws {
        let temp = try TemporaryFolder("peer")
        let folder = LocalPeerFolder(url: temp.url)
        let id = Fixtures.replicaB.rawValue
        let old = temp.path("nextup-\(id).sync-conflict-20240101-101010-AAAAAAA.log")
        try Data("merged".utf8).write(to: old)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -8 * 86_400)], ofItemAtPath: old.path)
        try folder.rename(old.lastPathComponent, to: old.lastPathComponent + PeerFileName.mergedSuffix)
        #expect(try folder.list().map(\.name) == [old.lastPathComponent + PeerFileName.mergedSuffix])
    }
}
