import Foundation
import Glibc
import NextUpConfig
import NextUpCore
import NextUpStore
import NextUpSync

/// The terminal UI's entry point: `nextup` with no subcommand.
public enum TerminalApp {
    /// Opens the UI on `store` until the person quits (q, Ctrl-C, SIGTERM,
    /// a closed terminal). The terminal is always restored before this returns
    /// or throws. With a peer folder, the sync engine runs in the background;
    /// with a `companion` (the phone bridge on a vdir) too, the engine watches
    /// its folder and runs it after every cycle, and without a peer folder the
    /// companion runs alone on changes (``CompanionSync``).
    ///
    /// - Returns: the exit status: 0 after `q`, 128 + the signal's number
    ///   after Ctrl-C (130) or SIGTERM (143).
    /// - Throws: ``TerminalAppError`` when there is no usable terminal.
    @discardableResult
    public static func run(store: TaskStore, peerFolder: URL?, companion: (any SyncCompanion)? = nil, otherNames: [ReplicaID: String] = [:], config: NextUpConfig) throws -> Int32 {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw TerminalAppError("the task screen needs a terminal; use 'nextup list' or 'nextup --help' in scripts")
        }
        let environment = ProcessInfo.processInfo.environment
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" {
            throw TerminalAppError("TERM=\(term.isEmpty ? "(unset)" : Sanitizer.visible(term)) cannot show the task screen (it cannot move the cursor); nextup list and the other commands work")
        }
        let (keyMap, problems) = KeyMap.defaults.applying(config.keys)
        var state = AppState(keyMap: keyMap, categories: config.categories)
        state.sync = SyncDisplay(enabled: peerFolder != nil || companion != nil)

        let inbox = try LoopInbox()
        let signals = try WakePipe()
        // Config problems are shown whole only when short; doctor lists them all.
        let configProblems = config.unknownSettings + problems
        var startProblems = configProblems.count == 1 && configProblems[0].count <= 80 ? configProblems
            : configProblems.isEmpty ? [] : ["the config file has \(configProblems.count == 1 ? "a problem" : "\(configProblems.count) problems"): nextup doctor says what"]
        // One watcher per folder in this process: with sync, the engine's
        // (it watches the store folder and the peer folder, and posts "store
        // changed" too); without, one of our own on the store folder.
        let sync = makeSync(store: store, peerFolder: peerFolder, companion: companion, problems: &startProblems)
        var watcher: ChangeWatcher?
        if let sync {
            do { try sync.start(post: inbox.post) } catch {
                startProblems.append("sync could not start: \(error)")
                inbox.post(.watchProblem("sync could not start"))
            }
        } else {
            let own = ChangeWatcher(watching: [store.location.folder],
                                    ignoring: { SyncEngine.isIgnorableName($0) },
                                    onProblem: { inbox.post(.watchProblem($0)) },
                                    onChange: { _ in inbox.post(.storeChanged) })
            do { try own.start(); watcher = own } catch {
                inbox.post(.watchProblem("cannot watch the store for outside changes (\(error))"))
            }
        }
        defer {
            sync?.stop()
            watcher?.stop()
        }

        SignalTrap.install(pipe: signals)
        defer { SignalTrap.uninstall() }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let screen = try NcursesScreen.start(color: !noColor)
        defer { screen.stop() }

        // The UI reads and writes on a connection of its own, so that a long
        // sync cycle on the engine's connection never freezes the screen, and
        // so that the engine's commits move this connection's change token
        // (`PRAGMA data_version` sees other connections' commits only). Both
        // stay open for the whole session.
        let uiStore = sync == nil ? store : ((try? TaskStore.open(store.location)) ?? store)
        uiStore.write(as: .tui)
        let editor = ExternalEditor(environment: environment, suspend: { screen.suspend() }, resume: { screen.resume() })
        let runtime = AppRuntime(state: state, backend: StoreBackend(store: uiStore, otherNames: otherNames), screen: screen, sync: sync, editor: editor)
        runtime.startProblems = startProblems
        return EventLoop(runtime: runtime, screen: screen, inbox: inbox, signals: signals).run()
    }

    static func makeSync(store: TaskStore, peerFolder: URL?, companion: (any SyncCompanion)? = nil, problems: inout [String]) -> SyncSource? {
        guard let peerFolder else { return companion.map { CompanionSync(store: store, companion: $0) } }
        return EngineSync(store: store, peerFolder: peerFolder, companion: companion)
    }
}
