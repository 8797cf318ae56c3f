import NextUpCore
import Testing

@Suite struct TildeTests {
    @Test func onlyALeadingTildeIsHome() {
        #expect("~".expandingTilde(home: "/home/ann") == "/home/ann")
        #expect("~/Sync/nextup".expandingTilde(home: "/home/ann") == "/home/ann/Sync/nextup")
        #expect("~bob/x".expandingTilde(home: "/home/ann") == "~bob/x")
        #expect("/srv/~/x".expandingTilde(home: "/home/ann") == "/srv/~/x")
        #expect("rel".expandingTilde(home: "/home/ann") == "rel")
    }
}
