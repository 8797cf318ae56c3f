import Foundation
import NextUpConfig
import NextUpCore

/// Runs the reducer against real collaborators: performs the effects on the
/// backend, reloads the lists, loads the rows that come into view, and draws.
/// No polling and no threads here (that is ``EventLoop``): everything arrives
/// as a typed ``LoopEvent`` through ``handle(_:)``, so tests drive it with a
/// ``FakeScreen`` and a backend.
///
/// Contract: a backend error never escapes; it becomes a status-line message.
/// The store's change token is read when the store folder changed (or, while
/// the folder cannot be watched, on every tick), never on a plain tick.
public final class AppRuntime {
    public private(set) var state: AppState
    let backend: TaskBackend
    let screen: Screen
    let sync: SyncSource?
    let clock: PhysicalClock
    /// Where notes are edited (`$EDITOR` in the app); nil: notes cannot be edited.
    let editor: TextEditing?
    /// The local time zone's offset from UTC at a moment, in seconds.
    let utcOffset: (Int64) -> Int
    /// Problems found while starting (a bad `[keys]` table, sync that could
    /// not start), shown once the screen is up.
    public var startProblems: [String] = []
    private var lastToken: Int?
    private var needsReload = false
    /// Whether the next read of the lists follows another process's or
    /// machine's change (the rows it changed are highlighted).
    private var readingExternal = false
    /// After a store change the change token did not show yet: when to read
    /// the token next, and until when to keep reading it. A writer's first
    /// file event (opening the store, a new WAL's header) comes before its
    /// commit, which may follow after a sync to disk; the watcher signals the
    /// first event of a burst at once and the rest only after a quiet period.
    private var recheck: (at: Int64, until: Int64)?
    static let recheckMillis: Int64 = 20
    static let recheckForMillis: Int64 = 1_000
    /// Set while the store folder cannot be watched: ticks check the store.
    private var watchProblem: String?
    /// Until the first key or the first sync cycle, whichever comes first:
    /// since when "while you were away" counts — read again when that cycle
    /// changed the store (the start-up sync brings what other machines did
    /// meanwhile).
    private var awaySince: Int64?

    public init(state: AppState, backend: TaskBackend, screen: Screen, sync: SyncSource? = nil, clock: PhysicalClock = SystemClock(),
                editor: TextEditing? = nil,
                utcOffset: @escaping (Int64) -> Int = LocalTime.utcOffsetSeconds(atMillis:)) {
        self.state = state
        self.editor = editor
        self.utcOffset = utcOffset
        self.backend = backend
        self.screen = screen
        self.sync = sync
        self.clock = clock
        self.state.replica = backend.replica()
    }

    /// Reads the size, the clock, the lists and the sync state, and draws.
    public func start() {
        let (w, h) = screen.size()
        send(.resize(cols: w, rows: h))
        let now = clock.nowMillis()
        send(.tick(nowMillis: now))
        send(.timeZone(utcOffsetSeconds: utcOffset(now)))
        if !startProblems.isEmpty { send(.failed(startProblems.joined(separator: "; "))) }
        if let sync { send(.syncStatus(sync.display())) }
        reload(external: false)
        settle()
        // After the lists are drawn: what other machines changed meanwhile.
        if let away = try? backend.away(since: nil) {
            awaySince = away.since
            send(.awayLoaded(away))
        }
        settle()
    }

    /// Reads which machines have this machine's last change.
    private func loadDelivery() {
        if let delivery = try? backend.delivery() { send(.deliveryLoaded(delivery)) }
    }

    /// Applies one event and performs its effects.
    public func send(_ event: Event) {
        let effects = Reducer.reduce(&state, event)
        for effect in effects { perform(effect) }
    }

    /// Handles what woke the loop, in order, then draws once.
    public func handle(_ events: [LoopEvent]) {
        for event in events { apply(event) }
        settle()
    }

    /// Keys typed since the last call (``LoopEvent/init(key:)`` each).
    public func handle(keys: [Key]) { handle(keys.map(LoopEvent.init(key:))) }

    private func apply(_ event: LoopEvent) {
        switch event {
        case .key(let key):
            awaySince = nil
            send(.key(key))
            // The next key must see the lists as this one left them (J J, x x…).
            // Keys typed in the filter's prompt only edit its text, so a
            // burst of them (fast typing, a paste) reads the lists once, for
            // the last text, when the burst is handled (``settle()``).
            if needsReload && state.prompt?.kind != .filter { showWrittenThenReload() }
        case .resize:
            let (w, h) = screen.size()
            send(.resize(cols: w, rows: h))
            screen.redrawAll()
        case .storeChanged:
            if reloadIfTheStoreMoved() {
                recheck = nil
            } else {
                let now = clock.nowMillis()
                recheck = (recheck?.at ?? now + Self.recheckMillis, now + Self.recheckForMillis)
            }
        case .peerFolderChanged:
            if let sync { send(.syncStatus(sync.display())) }
        case .syncFinished(let changedStore):
            if let sync { send(.syncStatus(sync.display())) }
            // The engine may write through this UI's own connection, which
            // the change token does not see: trust its word.
            if changedStore { showVisibleThenReload() } else { reloadIfTheStoreMoved() }
            if let since = awaySince {
                awaySince = nil
                if changedStore, let away = try? backend.away(since: since) { send(.awayLoaded(away)) }
            }
            loadDelivery()
        case .watchProblem(let problem):
            if let problem, problem != watchProblem, sync == nil {
                send(.failed("\(problem); checking the store every second"))
            }
            watchProblem = problem
            if let sync { send(.syncStatus(sync.display())) }
        case .signal(let number):
            send(.signal(number))
        case .tick:
            let now = clock.nowMillis()
            send(.tick(nowMillis: now))
            let offset = utcOffset(now)
            if offset != state.utcOffsetSeconds { send(.timeZone(utcOffsetSeconds: offset)) }
            // The next slice of the lists, once the keys typed meanwhile are
            // handled (the loop ticks at once while reading); the last
            // slice reads what was written meanwhile, so no check is due.
            if state.readingLists {
                readLists()
                return
            }
            if let r = recheck, now >= r.at {
                recheck = reloadIfTheStoreMoved() || now >= r.until ? nil : (now + Self.recheckMillis, r.until)
            }
            if watchProblem != nil { reloadIfTheStoreMoved() }
        }
    }

    /// Reloads when the store's change token moved (or cannot be read);
    /// whether it did.
    @discardableResult
    private func reloadIfTheStoreMoved() -> Bool {
        let token = try? backend.changeToken()
        guard token == nil || token != lastToken else { return false }
        showVisibleThenReload()
        return true
    }

    /// After another process's or machine's change: the rows on screen are
    /// read again by id and, when one changed, drawn at once (highlighted);
    /// then the lists are read and ranked again, which takes longer on a
    /// large store. The lists stay as they were until then.
    func showVisibleThenReload() {
        let shown = state.visibleIDs()
        if !shown.isEmpty, let fresh = try? backend.rows(shown),
           fresh.contains(where: { state.rows[$0.id]?.versions != $0.versions }) {
            var rows = state.rows
            for row in fresh { rows[row.id] = row }
            send(.reloaded(Listing(nextUp: state.nextUp.ids, backlog: state.backlog.ids, rows: Array(rows.values),
                                   history: state.history?.ids), external: true))
            screen.draw(MainView.frame(state))
        }
        reload(external: true)
    }

    /// After events: reload if asked, load rows that came into view, draw.
    public func settle() {
        if needsReload { showWrittenThenReload() }
        loadVisibleRows()
        screen.draw(MainView.frame(state))
        // The filter's prompt is on screen: let the backend read what the
        // typed words will narrow, before the first of them arrives.
        if state.prompt?.kind == .filter { backend.prepareToNarrow(state.query, nowMillis: state.nowMillis) }
    }

    /// Milliseconds until the screen must change by itself (a highlight or a
    /// message expiring, the sync age ticking).
    public var nextDeadline: Int {
        if state.readingLists { return 0 }
        var wait: Int64 = 1_000
        let now = state.nowMillis
        for until in state.highlights.values { wait = min(wait, until - now) }
        for until in state.keepDoneUntil.values { wait = min(wait, until - now) }
        if let m = state.message { wait = min(wait, m.untilMillis - now) }
        if let r = recheck { wait = min(wait, r.at - clock.nowMillis()) }
        return Int(max(10, wait))
    }

    /// After this UI's own write: shows the written rows at once (one cheap
    /// read), then re-reads the lists, which may re-sort (slower on a big store).
    func showWrittenThenReload() {
        let written = state.ownWrites.filter { state.rows[$0] != nil }
        if !written.isEmpty, let rows = try? backend.rows(Array(written)) {
            send(.rowsLoaded(rows))
            screen.draw(MainView.frame(state))
        }
        reload(external: false)
    }

    /// Reads the lists: brought up to date, or (after a large change, while
    /// lists are on screen) one slice of reading them again, the screen
    /// keeping the last whole lists until the last slice
    /// (``TaskBackend/listIDsInSlices(_:nowMillis:)``). While they are read
    /// in slices, the next slice comes at the loop's next turn, after the
    /// keys typed meanwhile (the loop does not wait), not here: the last
    /// slice reads what was written until then.
    func reload(external: Bool) {
        needsReload = false
        readingExternal = readingExternal || external
        if !state.readingLists { readLists() }
    }

    /// One read of the lists (a slice, while they are read in slices).
    private func readLists() {
        do {
            let token = try backend.changeToken()
            let now = clock.nowMillis()
            send(.tick(nowMillis: now))
            guard let (next, backlog) = try backend.listIDsInSlices(state.query, nowMillis: now) else {
                lastToken = token
                if !state.readingLists { send(.readingLists(true)) }
                return
            }
            let external = readingExternal
            readingExternal = false
            if state.readingLists { send(.readingLists(false)) }
            let history = state.history == nil ? nil : try backend.historyIDs(limit: AppState.historyLimit)
            let probe = Reducer.probe(state, nextUp: next, backlog: backlog, history: history)
            // Next Up's rows all, for its planned time (it is a day's list;
            // a huge one shows no total rather than a wrong one).
            let planned = next.count <= AppState.historyLimit ? next : []
            let rows = try backend.rows(Array(Set(probe.visibleIDs(margin: 3) + planned)))
            send(.reloaded(Listing(nextUp: next, backlog: backlog, rows: rows, history: history), external: external))
            lastToken = token
            loadDelivery()
        } catch {
            // A slice that failed: the next change signal reads on.
            if state.readingLists { send(.readingLists(false)) }
            send(.failed("could not read the store: \(error)"))
        }
    }

    func loadVisibleRows() {
        let missing = state.visibleIDs(margin: 3).filter { state.rows[$0] == nil }
        guard !missing.isEmpty else { return }
        do {
            send(.rowsLoaded(try backend.rows(missing)))
        } catch {
            send(.failed("could not read the store: \(error)"))
        }
    }

    func perform(_ effect: Effect) {
        switch effect {
        case .write(let write, let seen, let undo):
            do {
                let (task, changed) = try backend.perform(write, expecting: seen)
                // A write that changed nothing leaves nothing to undo.
                var undo = changed ? undo : nil
                undo?.written = task.seen(write.fields)
                undo?.prior = seen.filter { write.fields.contains($0.key) }
                send(.wrote(write, task: task.id, undo: undo, row: task))
            } catch let stale as StaleWrite {
                send(.stale(stale, .edit))
            } catch {
                send(.failed("could not save: \(error)"))
            }
            needsReload = true
        case .undo(let entry), .redo(let entry):
            let redo = if case .redo = effect { true } else { false }
            do {
                let (task, changed) = try backend.perform(entry.inverse, expecting: entry.written)
                if changed {
                    send(.undone(entry, leaving: task.seen(entry.inverse.fields), redo: redo))
                } else {
                    // It already held the earlier value (set elsewhere): the
                    // entry is spent, and redo must not write over that.
                    send(.failed("nothing to \(redo ? "redo" : "undo") for \(entry.description): it already is that way"))
                }
            } catch let stale as StaleWrite {
                send(.stale(stale, redo ? .redo(entry) : .undo(entry)))
            } catch {
                send(.failed("could not \(redo ? "redo" : "undo"): \(error)"))
            }
            needsReload = true
        case .editNotes(let id, let text, let original, let seen):
            guard let editor else {
                send(.failed("notes cannot be edited here (no editor)"))
                return
            }
            // The editor had the terminal: its size may have changed meanwhile.
            defer {
                let (w, h) = screen.size()
                send(.resize(cols: w, rows: h))
                screen.redrawAll()
            }
            do {
                let edited = try editor.edit(text, check: { _ = try TaskText.notes($0) })
                send(.notesEdited(id, text: edited, original: original, seen: seen))
            } catch let kept as TextKept {
                send(.notesKept(id, file: kept.file, problem: kept.problem))
            } catch {
                send(.failed("notes not changed: \(error)"))
            }
        case .loadNames:
            do {
                let (categories, tags) = try backend.names()
                send(.namesLoaded(categories: categories, tags: tags))
            } catch {
                send(.namesLoaded(categories: [], tags: []))
            }
        case .loadChanges(let id):
            do {
                send(.changesLoaded(id, try backend.changes(of: id, utcOffsetSeconds: state.utcOffsetSeconds)))
            } catch {
                send(.failed("could not read the history: \(error)"))
            }
        case .reload:
            needsReload = true
        case .syncNow:
            sync?.requestSync()
            if let sync { send(.syncStatus(sync.display())) }
        case .redraw:
            screen.redrawAll()
        case .quit:
            break
        }
    }
}
