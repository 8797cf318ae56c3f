import NextUpCore

/// The pure heart of the UI: (state, event) → (next state, effects).
///
/// Contract: no I/O, no clock, no terminal. Writes are not performed here but
/// returned as ``Effect``s; their success comes back as ``Event/wrote(_:task:undo:)``
/// and fresh data as ``Event/reloaded(_:external:)``.
public enum Reducer {
    /// The functional form: the next state and what to do.
    public static func reduce(_ state: AppState, _ event: Event) -> (AppState, [Effect]) {
        var next = state
        let effects = reduce(&next, event)
        return (next, effects)
    }

    /// The same, updating `state` in place.
    public static func reduce(_ state: inout AppState, _ event: Event) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .key(let key):
            effects = handleKey(key, &state)
        case .resize(let cols, let rows):
            state.width = max(1, cols)
            state.height = max(1, rows)
        case .tick(let now):
            let day = state.today, started = state.nowMillis != 0
            state.nowMillis = now
            // The lists are a function of the date (a defer date arriving,
            // what is due today): a new day reads them again, by itself.
            if started, state.today != day { effects = [.reload] }
            state.highlights = state.highlights.filter { $0.value > now }
            if let m = state.message, m.untilMillis <= now { state.message = nil }
            // A sync asked for that never ran (the engine is not running)
            // stops saying "syncing…" after a while.
            if state.syncAwaited != nil, let since = state.syncAwaitedSince, now - since >= AppState.syncAnswerMillis {
                state.syncAwaited = nil
                state.say("no sync cycle ran: \(state.sync.problem ?? "the sync is not running")", error: true)
            }
            // Done tasks leave the lists once their grace ran out.
            let expired = state.keepDoneUntil.filter { $0.value <= now }.map(\.key)
            if !expired.isEmpty {
                for id in expired {
                    state.keepDone.remove(id)
                    state.keepDoneUntil[id] = nil
                }
                effects = [.reload]
            }
            // A new day: the lists are a function of it (a deferred task
            // whose date came joins them, ListFilter's rule).
        case .reloaded(let listing, let external):
            applyReload(listing, external: external, &state)
        case .rowsLoaded(let rows):
            for row in rows { state.rows[row.id] = row }
        case .readingLists(let reading):
            state.readingLists = reading
        case .syncStatus(let sync):
            state.sync = sync
            if let awaited = state.syncAwaited, sync.cyclesFinished > awaited, !sync.isSyncing {
                state.syncAwaited = nil
                if let problem = sync.problem {
                    state.say("sync failed: \(problem)", error: true)
                } else {
                    state.say("synced: " + (sync.summary ?? "done") + (sync.notices.isEmpty ? "" : " · " + sync.notices.joined(separator: "; ")),
                              error: !sync.notices.isEmpty)
                }
            }
        case .wrote(let write, let task, let undo, let row):
            state.submitted = nil
            state.say(report(write, row, state))
            if let undo {
                state.undoStack.append(undo)
                state.redoStack = []
            }
            if case .add(let title, _) = write, let task {
                // Undone only while nobody deleted or restored it since.
                state.undoStack.append(UndoEntry(inverse: .delete(task), original: .restore(task),
                                                 description: "add “\(TerminalWidth.truncate(Sanitizer.visible(title), to: 30))”",
                                                 written: [.deleted: Optional<Version>.none]))
                state.redoStack = []
                state.pendingSelection = task
            }
            if let task { state.ownWrites.insert(task) }
            if state.undoStack.count > 500 { state.undoStack.removeFirst(state.undoStack.count - 500) }
            // The details' changes pane shows the write it just made.
            if state.showDetail, let task, state.changesOf == task { effects = [.loadChanges(task)] }
        case .undone(let entry, let versions, let redo):
            let flipped = entry.flipped(leaving: versions)
            if redo {
                UndoEntry.relink(&state.redoStack, after: entry, leaving: versions)
                state.undoStack.append(flipped)
            } else {
                UndoEntry.relink(&state.undoStack, after: entry, leaving: versions)
                state.redoStack.append(flipped)
            }
            if let task = entry.inverse.task {
                state.ownWrites.insert(task)
                state.pendingSelection = task
            }
        case .stale(let stale, let attempt):
            refuseStale(stale, attempt, &state)
        case .signal(let number):
            if number == 2, state.prompt != nil {
                state.prompt = nil
                state.say("cancelled")
            } else {
                state.quitting = true
                state.exitStatus = 128 + number
                effects = [.quit]
            }
        case .timeZone(let offset):
            state.utcOffsetSeconds = offset
        case .notesEdited(let id, let text, let original, let seen):
            effects = notesEdited(id, text: text, original: original, seen: seen, &state)
        case .namesLoaded(let categories, let tags):
            namesLoaded(categories: categories, tags: tags, &state)
        case .changesLoaded(let id, let lines):
            changesLoaded(id, lines, &state)
        case .awayLoaded(let summary):
            state.away = summary.lines.isEmpty ? nil : summary
        case .deliveryLoaded(let delivery):
            state.delivery = delivery
        case .notesKept(_, let file, let problem):
            // The path first: it is what a narrow line must still show.
            state.say("notes kept in \(file), not saved: \(problem)", error: true,
                      forMillis: AppState.keptTextMessageMillis)
        case .failed(let message):
            state.submitted = nil
            state.say(message, error: true)
        }
        keepSelectionInView(&state)
        return effects
    }

    static func keepSelectionInView(_ state: inout AppState) {
        let layout = state.layout
        for pane in Pane.allCases {
            if state[pane].selected == nil, !state[pane].ids.isEmpty { state[pane].select(index: 0) }
            state[pane].scrollToSelection(height: layout.rows(for: pane))
        }
        if var history = state.history {
            if history.selected == nil, !history.ids.isEmpty { history.select(index: 0) }
            history.scrollToSelection(height: layout.historyRows)
            state.history = history
        }
    }

    // MARK: reload

    /// Replaces the lists, keeping each pane's selection on its task id, and
    /// highlights rows that changed from outside.
    static func applyReload(_ listing: Listing, external: Bool, _ state: inout AppState) {
        let oldRows = state.rows
        var fresh: [TaskID: TaskItem] = [:]
        fresh.reserveCapacity(listing.rows.count)
        for row in listing.rows { fresh[row.id] = row }
        if external {
            let until = state.nowMillis + AppState.highlightMillis
            // Rows not loaded before are new unless the old lists held them:
            // a few rows, looked for in one pass over the old lists.
            var unloaded = Set<TaskID>()
            for row in listing.rows where !state.ownWrites.contains(row.id) {
                if let old = oldRows[row.id] {
                    if old.versions != row.versions { state.highlights[row.id] = until }
                } else {
                    unloaded.insert(row.id)
                }
            }
            search: for ids in [state.nextUp.ids, state.backlog.ids] {
                for id in ids {
                    if unloaded.isEmpty { break search }
                    unloaded.remove(id)
                }
            }
            for id in unloaded { state.highlights[id] = until }
        }
        state.ownWrites = []
        state.rows = fresh
        state.nextUp.replace(ids: listing.nextUp)
        state.backlog.replace(ids: listing.backlog)
        if let ids = listing.history { state.history?.replace(ids: ids) }
        if let wanted = state.pendingSelection {
            for pane in [state.focus, state.focus.other] where state[pane].ids.contains(wanted) {
                state[pane].selected = wanted
                state.focus = pane
                state.pendingSelection = nil
                break
            }
        }
    }

    /// The state's lists with new ids but no new rows: what the runtime uses to
    /// learn which rows a reload has to read.
    public static func probe(_ state: AppState, nextUp: [TaskID], backlog: [TaskID], history: [TaskID]? = nil) -> AppState {
        var s = state
        applyReload(Listing(nextUp: nextUp, backlog: backlog, rows: [], history: history), external: false, &s)
        s.ownWrites = state.ownWrites
        s.rows = state.rows
        keepSelectionInView(&s)
        return s
    }

    // MARK: keys

    static func handleKey(_ key: Key, _ state: inout AppState) -> [Effect] {
        if key == .resize { return [] }
        // "While you were away" goes at the first key, which does nothing else.
        if state.away != nil {
            state.away = nil
            return []
        }
        if state.showHelp {
            helpKey(key, &state)
            return []
        }
        if state.prompt != nil { return handlePromptKey(key, &state) }
        if state.showDetail, key == .escape || state.keyMap.action(for: key) == .quit {
            state.showDetail = false
            return []
        }
        if key == .escape, state.history == nil, !state.showDetail, !state.filter.isEmpty {
            state.filter = ListFilter()
            state.say("filter cleared")
            return [.reload]
        }
        if state.history != nil, key == .escape {
            state.history = nil
            return [.reload]
        }
        if case .paste = key {
            state.say("a paste does nothing outside a prompt — a adds a task, then paste its title")
            return []
        }
        guard let action = state.keyMap.action(for: key) else {
            if key != .escape { state.say("\(key.name) does nothing here — ? shows the keys") }
            else { state.message = nil }
            return []
        }
        if state.layout.isTooSmall, action != .quit, action != .redraw { return [] }
        if state.history != nil { return performInHistory(action, &state) }
        return perform(action, &state)
    }

    static func perform(_ action: Action, _ state: inout AppState) -> [Effect] {
        let pane = state.focus
        let height = state.layout.rows(for: pane)
        let index = state[pane].selectedIndex ?? 0
        switch action {
        case .moveDown: state[pane].select(index: index + 1)
        case .moveUp: state[pane].select(index: index - 1)
        case .top: state[pane].select(index: 0)
        case .bottom: state[pane].select(index: state[pane].count - 1)
        case .pageDown:
            state[pane].select(index: index + height)
            state[pane].top += height
        case .pageUp:
            state[pane].select(index: index - height)
            state[pane].top -= height
        case .switchPane: state.focus = pane.other
        case .add: state.prompt = Prompt(kind: .add(toNextUp: pane == .nextUp))
        case .filter: state.prompt = Prompt(kind: .filter, text: state.filter.query)
        case .sort:
            state.sort = state.sort.next
            state.say("Backlog sorted by \(state.sort.rawValue)")
            return [.reload]
        case .sync:
            if state.sync.enabled {
                state.syncAwaited = state.sync.cyclesFinished
                state.syncAwaitedSince = state.nowMillis
                state.say("syncing…")
                return [.syncNow]
            }
            state.say("sync is off: no peer folder (start with --peer DIR or set one in the config file)")
        case .help: state.showHelp = true
        case .history:
            state.history = PaneState()
            state.showDetail = false
            return [.reload]
        case .details:
            if state.showDetail {
                state.showDetail = false
            } else if let task = state.selectedTask {
                state.showDetail = true
                return [.loadChanges(task.id)]
            } else {
                state.say(state[pane].count == 0 ? "\(pane.title) is empty" : "no task selected")
            }
        case .quit:
            state.quitting = true
            return [.quit]
        case .redraw: return [.redraw]
        case .undo:
            guard let entry = state.undoStack.popLast() else {
                state.say("nothing to undo")
                return []
            }
            state.say("undid \(entry.description) — Z redoes")
            return [.undo(entry)]
        case .redo:
            guard let entry = state.redoStack.popLast() else {
                state.say("nothing to redo")
                return []
            }
            state.say("redid \(entry.description)")
            return [.redo(entry)]
        case .later:
            return toggleLater(&state)
        case .olderChange, .newerChange, .restoreChange:
            return changes(action, &state)
        case .editTitle, .cycleUrgency, .cycleImportance, .setDuration, .cycleCategory, .typeCategory,
             .setDue, .editTags, .editNotes, .toggleNextUp, .reorderDown, .reorderUp, .toggleDone, .delete,
             .setRecurrence, .setDefer, .skipOccurrence, .stopSeries:
            guard let task = state.selectedTask else {
                state.say(state[pane].count == 0 ? "\(pane.title) is empty" : "no task selected")
                return []
            }
            return edit(action, task, &state)
        }
        return []
    }
}
