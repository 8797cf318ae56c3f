import Foundation
import Testing

/// `make install` and `make uninstall` as a person runs them, into a
/// throw-away PREFIX. The binary installed is the one the tests run
/// (`INSTALL_BIN`), so the suite does not pay for a release build; `make
/// install` without it builds the release binary the same recipe then copies.
@Suite struct InstallTests {
    let scratch = Scratch()

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func shell(_ command: String, env extra: [String: String] = [:]) throws -> NextupProcess.Result {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = scratch.url.path
        for (k, v) in extra { env[k] = v }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.environment = env
        p.currentDirectoryURL = Self.packageRoot
        return try NextupProcess.capture(p)
    }

    @Test func installPutsAWorkingBinaryManPageAndCompletionsUnderPrefix() throws {
        let prefix = scratch.path("prefix")
        let install = try shell("make --no-print-directory install PREFIX='\(prefix.path)' INSTALL_BIN='\(NextupProcess.binary.path)'")
        #expect(install.status == 0, "\(install)")
        #expect(install.stdout.contains("is not on your PATH"))

        let version = try shell("'\(prefix.path)/bin/nextup' --version")
        #expect(version.status == 0)
        #expect(version.out.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(version)")

        // The installed binary works on a store of its own.
        let store = scratch.path("store").path
        #expect(try shell("'\(prefix.path)/bin/nextup' --store '\(store)' add 'installed'").status == 0)
        #expect(try shell("'\(prefix.path)/bin/nextup' --store '\(store)' count").out == "1")

        // `man` finds our page, not the C library's nextup(3).
        let man = try shell("man -w nextup", env: ["MANPATH": prefix.path + "/share/man"])
        #expect(man.out == prefix.path + "/share/man/man1/nextup.1", "\(man)")
        let page = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/nextup.1"), encoding: .utf8)
        #expect(page.contains(".TH NEXTUP 1"))

        let bash = prefix.appendingPathComponent("share/bash-completion/completions/nextup")
        let zsh = prefix.appendingPathComponent("share/zsh/site-functions/_nextup")
        let fish = prefix.appendingPathComponent("share/fish/vendor_completions.d/nextup.fish")
        #expect(try String(contentsOf: bash, encoding: .utf8).contains("complete -o filenames -F _nextup nextup"))
        #expect(try shell("bash -n '\(bash.path)'").status == 0)
        #expect(try String(contentsOf: zsh, encoding: .utf8).hasPrefix("#compdef nextup"))
        #expect(try String(contentsOf: fish, encoding: .utf8).contains("complete -c 'nextup'"))
        // Completion offers the real subcommands.
        #expect(try String(contentsOf: bash, encoding: .utf8).contains("sync"))

        let uninstall = try shell("make --no-print-directory uninstall PREFIX='\(prefix.path)'")
        #expect(uninstall.status == 0, "\(uninstall)")
        for file in ["bin/nextup", "share/man/man1/nextup.1"] {
            #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) left behind")
        }
        #expect(!FileManager.default.fileExists(atPath: bash.path))
        #expect(!FileManager.default.fileExists(atPath: zsh.path))
        #expect(!FileManager.default.fileExists(atPath: fish.path))
    }
}
