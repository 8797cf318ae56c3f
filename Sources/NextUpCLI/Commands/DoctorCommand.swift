import ArgumentParser
import Foundation
import NextUpBridge
import NextUpConfig
import NextUpCore
import NextUpStore
import NextUpSync
import NextUpTUI

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the store, the config, the peer folder and the vdir; exits 1 when it finds a problem."
    )

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var problems: [String] = []
        // A broken config never stops doctor: it is one of the problems, and
        // the rest is checked with the defaults.
        let configURL = NextUpConfig.defaultURL(environment: environment)
        var config = NextUpConfig()
        do { config = try CommandContext.loadConfig(environment: environment) } catch let error as TaskInputError {
            problems.append(error.message)
        }
        problems += config.unknownSettings
        problems += KeyMap.defaults.applying(config.keys).problems.map { "config file \(configURL.path): \($0)" }
        // Before the store is opened (which would fail on the same lock): a
        // store on a file system without working locks is a problem to name.
        let location = StoreLocation.resolve(option: global.store, environment: environment)
        // Doctor never makes a store: a mistyped --store is the finding.
        if let missing = CommandContext.missingStore(location) {
            print(TerminalWidth.fit("store:", to: 15) + "\(location.folder.path) (no store)")
            print(TerminalWidth.fit("config:", to: 15) + configURL.path)
            (problems + [missing]).forEach { print("problem: \($0)") }
            throw ExitCode.failure
        }
        if FileManager.default.fileExists(atPath: location.folder.path), let problem = StoreLock.lockProblem(in: location.folder) {
            print(TerminalWidth.fit("store:", to: 15) + location.folder.path)
            print("problem: \(problem)")
            throw ExitCode.failure
        }
        let context: CommandContext
        do {
            context = try CommandContext.open(global, environment: environment, config: config)
        } catch StoreError.damaged(let path) {
            print(TerminalWidth.fit("database:", to: 15) + path)
            print("problem: \(StoreError.damaged(path: path))")
            throw ExitCode.failure
        }
        let store = context.store
        if let damage = store.damage() {
            print(TerminalWidth.fit("database:", to: 15) + store.location.databaseURL.path)
            print("problem: \(damage)")
            throw ExitCode.failure
        }

        func mode(_ path: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
        }
        func octal(_ m: Int?) -> String { m.map { String($0, radix: 8) } ?? "?" }

        let folder = store.location.folder.path
        let folderMode = mode(folder)
        if let m = folderMode, m & 0o077 != 0 { problems.append("store folder \(folder) is mode \(octal(m)); others can read it (want 700)") }
        let db = store.location.databaseURL.path
        for suffix in ["", "-wal", "-shm"] {
            if let m = mode(db + suffix), m & 0o077 != 0 {
                problems.append("\(db + suffix) is mode \(octal(m)) (want 600)")
            }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
        let counts = try store.counts()
        let configState = FileManager.default.fileExists(atPath: configURL.path) ? "found" : "not found, using defaults"

        let me = try store.replicaID()
        for (replica, ahead) in try store.replicasAhead(now: SystemClock().nowMillis()) {
            let who = replica == me ? "this machine (replica \(replica.rawValue.prefix(8)))" : "replica \(replica.rawValue.prefix(8))"
            problems.append("\(who) wrote changes \(SyncReport.duration(ahead)) ahead of this machine's clock: its clock runs ahead "
                            + "(or this one's is behind); fix that clock — its changes to those tasks win over later ones until then")
        }

        var peerLine = "not set"
        if let peer = context.peerFolder {
            var isDir: ObjCBool = false
            if !FileManager.default.fileExists(atPath: peer.path, isDirectory: &isDir) {
                peerLine = "\(peer.path) (missing)"
                problems.append("peer folder \(peer.path) does not exist (is the share mounted?)")
            } else if !isDir.boolValue {
                peerLine = "\(peer.path) (not a folder)"
                problems.append("peer folder \(peer.path) is a file, not a folder")
            } else {
                let logs = ((try? FileManager.default.contentsOfDirectory(atPath: peer.path)) ?? []).filter { $0.hasPrefix("nextup-") && $0.hasSuffix(".log") }
                peerLine = "\(peer.path) (\(logs.count) replica logs)"
                let ownLog = peer.appendingPathComponent("nextup-\(try store.replicaID().rawValue).log").path
                if FileManager.default.fileExists(atPath: ownLog, isDirectory: &isDir), isDir.boolValue {
                    problems.append("\(ownLog) is a folder, not this replica's log; sync cannot write there")
                } else {
                    problems += SyncEngine(store: store, peerFolder: peer).diagnose()
                }
            }
        }

        let unborn = try store.tasksAwaitingCreation()
        if unborn > 0 {
            problems.append("this store holds changes to \(unborn) task\(unborn == 1 ? "" : "s") whose creation has not arrived yet (the log of the machine that made \(unborn == 1 ? "it" : "them") is not here yet); \(unborn == 1 ? "it shows" : "they show") once it arrives")
        }

        for severed in try store.seriesWithSeveralLiveOccurrences() {
            let ids = severed.occurrences.map { "\($0.id.short) (#\($0.occurrence!.number))" }.joined(separator: ", ")
            let title = Sanitizer.visible(severed.occurrences.last!.title)
            problems.append("the series “\(title)” has \(severed.occurrences.count) live occurrences (\(ids)); a series has one at a time: skip or delete all but one")
        }

        var vdirLine = "not set"
        if let vdir = context.vdir {
            let (summary, found) = VdirBridge(store: store, folder: vdir).diagnose()
            vdirLine = summary
            problems += found
        }

        let rows: [(String, String)] = [
            ("store", "\(folder) (mode \(octal(folderMode)))" + (store.readOnlyReason.map { "; read only: \($0)" } ?? "")),
            ("database", "\(db) (\(size / 1024) KiB)"),
            ("schema", "\(try store.schemaVersion()) (this nextup knows up to \(StoreSchema.currentVersion))"),
            ("replica", try store.replicaID().rawValue),
            ("tasks", "\(counts.open) open (\(counts.nextUp) Next Up, \(counts.tbd) TBD), \(counts.done) done, \(counts.deleted) deleted"),
            ("local changes", "\(try store.outboxCount(after: 0)) recorded for sync"),
            ("config", "\(configURL.path) (\(configState))"),
            ("peer folder", peerLine),
            ("vdir", vdirLine),
        ]
        for (k, v) in rows { print(TerminalWidth.fit(k + ":", to: 15) + v) }
        if problems.isEmpty {
            print("no problems found")
        } else {
            problems.forEach { print("problem: \($0)") }
            throw ExitCode.failure
        }
    }
}
