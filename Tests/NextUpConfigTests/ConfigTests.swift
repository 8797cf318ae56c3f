import Foundation
import NextUpCore
import Testing
import NextUpConfig
import NextUpTestSupport

@Suite struct ConfigTests {
    let tmp = TemporaryFolder()

    @Test func aMissingFileMeansTheDefaults() throws {
        #expect(try NextUpConfig.load(from: tmp.path("none.toml")) == NextUpConfig())
        #expect(NextUpConfig().categories.first == "Essentials")
    }

    @Test func theFileSetsPeerCategoriesAndKeys() throws {
        let url = tmp.path("c.toml")
        try Data("""
            peer = "~/Sync/nextup"
            vdir = "~/tasks-vdir"
            categories = ["Home", "Work"]
            [keys]
            quit = "Q"
            """.utf8).write(to: url)
        let c = try NextUpConfig.load(from: url, environment: ["HOME": "/h"])
        #expect(c.peerFolder == "/h/Sync/nextup")
        #expect(c.vdir == "/h/tasks-vdir")
        #expect(c.categories == ["Home", "Work"])
        #expect(c.keys == ["quit": "Q"])
    }

    @Test func historyKeepIsForeverOrDays() throws {
        let url = tmp.path("h.toml")
        #expect(try NextUpConfig.load(from: url).historyKeepDays == nil)
        try Data("[history]\nkeep = \"forever\"\n".utf8).write(to: url)
        #expect(try NextUpConfig.load(from: url).historyKeepDays == nil)
        try Data("[history]\nkeep = \"90d\"\n".utf8).write(to: url)
        #expect(try NextUpConfig.load(from: url).historyKeepDays == 90)
    }

    @Test(arguments: ["peer = ", "vdir = 3", "[history]\nkeep = \"0d\"", "[history]\nkeep = 90", "history = 3", "categories = []", "categories = [\"\"]", "categories = 3", "[keys]\nquit = 5"])
    func aBadFileIsAnErrorNamingIt(text: String) throws {
        let url = tmp.path("bad.toml")
        try Data(text.utf8).write(to: url)
        #expect { try NextUpConfig.load(from: url) } throws: { ($0 as? TaskInputError)?.message.contains(url.path) ?? false }
    }
}
