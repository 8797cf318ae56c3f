import Foundation
import Testing

/// Issue 33, items 3, 6 and 7 in a real terminal: the status line says what
/// each write did; a category or tag typed in another case takes the
/// spelling in use, with Tab completing names in use; `+` adds and removes
/// tags, and a change of that tag elsewhere while the prompt is open asks.
@Suite(.serialized) struct TUINamesTests {
    let scratch = Scratch()
    var cli: NextupProcess { NextupProcess(home: scratch.url, extra: ["NEXTUP_HOME": scratch.path("store").path]) }
    var bin: String { NextupProcess.binary.path }

    func add(_ args: String...) throws -> String {
        let r = try cli.run(["add"] + args)
        #expect(r.status == 0, "\(r)")
        return r.out
    }

    func field(_ id: String, _ name: String) throws -> Any? {
        let r = try cli.run("show", id, "--json")
        return ((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any])?[name]
    }

    /// Types text that starts with `-` (which `send-keys` would read as an option).
    func typeDashed(_ tmux: TUITmux, _ text: String) throws { _ = try tmux.tmux(["send-keys", "-t", "main", "-l", "--", text]) }

    func open() throws -> TUITmux {
        let tmux = try TUITmux(environment: cli.environment, width: 100, height: 30)
        try tmux.run("\"\(bin)\"; echo \"exit=$?\"")
        #expect(try tmux.waitFor("Backlog ·"), "the TUI should open")
        return tmux
    }

    @Test func theStatusLineSaysWhatEachWriteDid() throws {
        _ = try add("Plan the offsite")
        let tmux = try open()
        try tmux.expectToSee("Plan the offsite")
        try tmux.keys("u")
        try tmux.expectToSee("urgency: urgent")
        try tmux.keys("d"); try tmux.type("1h"); try tmux.keys("Enter")
        try tmux.expectToSee("duration: 1h")
        #expect(!(try tmux.screen().joined().contains("urgency: urgent")), "the previous action's words are gone")
        try tmux.keys("/"); try tmux.type("offsite"); try tmux.keys("Enter")
        try tmux.keys("a"); try tmux.type("Buy milk"); try tmux.keys("Enter")
        try tmux.expectToSee("added: “Buy milk” (hidden by the filter)")
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }

    @Test func aCategoryInAnotherCaseTakesTheSpellingInUseAndTabCompletes() throws {
        _ = try add("Weekly sync", "--category", "Réunions équipe")
        let id = try add("Retro")
        let tmux = try open()
        try tmux.expectToSee("Retro")
        // Select "Retro" (the newer task, below).
        try tmux.keys("G")
        try tmux.keys("C"); try tmux.type("réunions ÉQUIPE"); try tmux.keys("Enter")
        try tmux.expectToSee("category: Réunions équipe")
        #expect(try eventually { try field(id, "category") as? String == "Réunions équipe" })
        let cats = try cli.run("list", "--category", "réunions équipe")
        #expect(cats.stdout.contains("Weekly sync") && cats.stdout.contains("Retro"), "\(cats)")

        // Tab completes a name in use from a prefix, accents aside.
        try tmux.keys("C", "C-u"); try tmux.type("reu"); try tmux.keys("Tab")
        try tmux.expectToSee("Tab: Réunions équipe")
        try tmux.keys("C-u"); try tmux.type("dee"); try tmux.keys("Tab")
        try tmux.expectToSee("Category (Tab completes; empty = unset): Deep Work")
        try tmux.keys("Enter")
        try tmux.expectToSee("category: Deep Work")
        #expect(try eventually { try field(id, "category") as? String == "Deep Work" })
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }

    @Test func plusAddsAndRemovesTagsWithCompletionAndOneSpellingPerName() throws {
        _ = try add("Fix the sink", "--tag", "Home")
        let id = try add("Paint the fence")
        let tmux = try open()
        try tmux.expectToSee("Paint the fence")
        try tmux.keys("G")
        // Tab completes a tag in use; typed in another case it is the same tag.
        try tmux.keys("+"); try tmux.type("ho"); try tmux.keys("Tab")
        try tmux.expectToSee("Tab: Home")
        try tmux.keys("Enter")
        try tmux.expectToSee("tagged +Home")
        try tmux.expectToSee("Paint the fence  +Home")
        try tmux.keys("+"); try tmux.type("home"); try tmux.keys("Enter")
        try tmux.expectToSee("already tagged +Home")
        try tmux.keys("+"); try tmux.type("garden"); try tmux.keys("Enter")
        try tmux.expectToSee("tagged +garden")
        #expect(try eventually { (try field(id, "tags") as? [String]) == ["garden", "Home"] })
        // Enter shows the tags in the detail view.
        try tmux.keys("Enter")
        try tmux.expectToSee("+garden +Home")
        try tmux.keys("Escape")
        // -name removes; Tab completes the task's own tags.
        try tmux.keys("+"); try typeDashed(tmux, "-g"); try tmux.keys("Tab")
        try tmux.expectToSee("Tag (name adds, -name removes, Tab completes): -garden")
        try tmux.keys("Enter")
        try tmux.expectToSee("untagged garden")
        #expect(try eventually { (try field(id, "tags") as? [String]) == ["Home"] })
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }

    @Test func aTagChangedElsewhereWhileThePromptIsOpenAsksAndOtherTagsMerge() throws {
        let id = try add("Call the plumber", "--tag", "home")
        let tmux = try open()
        try tmux.expectToSee("Call the plumber  +home")

        // Another tag added meanwhile merges: both stay, nothing asked.
        try tmux.keys("+"); try tmux.type("urgent-ish")
        #expect(try cli.run("edit", id, "--tag", "errand").status == 0)
        try tmux.keys("Enter")
        try tmux.expectToSee("tagged +urgent-ish")
        #expect(try eventually { (try field(id, "tags") as? [String]) == ["errand", "home", "urgent-ish"] })

        // The same tag removed meanwhile: the prompt asks before writing.
        try tmux.keys("+"); try typeDashed(tmux, "-home")
        #expect(try cli.run("edit", id, "--untag", "home").status == 0)
        #expect(try cli.run("edit", id, "--tag", "home").status == 0)
        try tmux.keys("Enter")
        try tmux.expectToSee("changed on this machine")
        try tmux.expectToSee("k keep theirs")
        try tmux.keys("k")
        try tmux.expectToSee("kept the other change; nothing written")
        #expect((try field(id, "tags") as? [String]) == ["errand", "home", "urgent-ish"])
        try tmux.keys("q")
        try tmux.expectToSee("exit=0")
    }
}
