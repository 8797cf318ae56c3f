import NextUpCore
import NextUpSync

/// The whole UI as a value. Only the reducer changes it; views read it.
public struct AppState: Equatable, Sendable {
    /// Terminal size in cells.
    public var width: Int
    public var height: Int
    public var nowMillis: Int64

    public var nextUp = PaneState()
    public var backlog = PaneState()
    public var focus: Pane = .backlog
    /// Loaded rows of both lists by id: the visible ones at least.
    public var rows: [TaskID: TaskItem] = [:]
    /// The lists are being read again in slices, between keys: the ones
    /// shown are the last read whole, and the title bar says so.
    public var readingLists = false
    /// A task to select (and focus the pane of) once the next reload lists it.
    public var pendingSelection: TaskID?

    public var sort: BacklogSort = .score
    public var filter = ListFilter()
    /// Tasks this session marked done; they stay listed (so `x` again
    /// reopens them) until their grace in ``keepDoneUntil`` runs out.
    public var keepDone: Set<TaskID> = []
    /// When each task of ``keepDone`` leaves the lists.
    public var keepDoneUntil: [TaskID: Int64] = [:]
    /// The history of done and deleted tasks, when open (it replaces the lists).
    public var history: PaneState?

    public var prompt: Prompt?
    public var showHelp = false
    /// The first line of the help shown, when it is taller than the screen.
    public var helpTop = 0
    /// The detail view of the selected task (every field) is open.
    public var showDetail = false
    /// The detail view's changes pane: the history of ``changesOf``, newest
    /// first, and the entry selected in it.
    public var changes: [ChangeLine] = []
    public var changesOf: TaskID?
    public var changeSelected = 0
    /// The local time zone's offset from UTC, in seconds, at `nowMillis`
    /// (the runtime sets it): what "today" and the times shown mean.
    public var utcOffsetSeconds: Int = 0
    /// "While you were away", shown over the lists until a key is pressed.
    public var away: AwaySummary?
    /// For this machine's last change, which other machines have it (the
    /// status bar says it; read with the lists).
    public var delivery: DeliveryStatus?
    public var sync = SyncDisplay.off
    /// Set by `r`: the cycles finished when it was pressed; the status bar
    /// says "syncing…" until a later one finished, then its result.
    public var syncAwaited: Int?
    public var syncAwaitedSince: Int64?
    /// A transient message for the status line, and whether it is an error.
    public var message: Message?
    /// Rows changed from outside, highlighted until the given time.
    public var highlights: [TaskID: Int64] = [:]
    /// This session's edits, newest last.
    public var undoStack: [UndoEntry] = []
    /// Edits taken back by `z`, newest last; `Z` makes them again. A new
    /// edit empties it.
    public var redoStack: [UndoEntry] = []
    /// A prompt whose write is being performed: reopened, showing the other
    /// value, when the write comes back stale.
    public var submitted: Prompt?
    /// This store's replica id, to tell "this machine" from "another machine"
    /// when a write comes back stale.
    public var replica: ReplicaID?
    /// Tasks this UI wrote since the last reload (not highlighted as outside changes).
    public var ownWrites: Set<TaskID> = []

    public var keyMap: KeyMap
    public var categories: [String]
    public var quitting = false
    /// The process's exit status once quitting: 0 after `q`, 128 + the
    /// signal's number after a signal (130 Ctrl-C, 143 SIGTERM).
    public var exitStatus: Int32 = 0

    public struct Message: Equatable, Sendable {
        public var text: String
        public var isError: Bool
        public var untilMillis: Int64
    }

    /// How long an outside change stays highlighted.
    public static let highlightMillis: Int64 = 2_000
    /// How long `r` waits for its cycle before saying none ran.
    public static let syncAnswerMillis: Int64 = 30_000
    /// How long a task marked done stays in its list.
    public static let keepDoneMillis: Int64 = 5_000
    /// The most history rows read.
    public static let historyLimit = 1_000
    /// The filter of the later view (deferred tasks).
    public static let laterQuery = "is:later"
    /// How long a status message stays.
    public static let messageMillis: Int64 = 5_000
    /// How long the message naming a file that holds unsaved text stays:
    /// long enough to copy its path.
    public static let keptTextMessageMillis: Int64 = 60_000
    public static let defaultCategories = ["Essentials", "Deep Work", "Admin", "Learning", "Recharge"]

    public init(width: Int = 80, height: Int = 24, nowMillis: Int64 = 0, keyMap: KeyMap = .defaults,
                categories: [String] = AppState.defaultCategories) {
        self.width = width
        self.height = height
        self.nowMillis = nowMillis
        self.keyMap = keyMap
        self.categories = categories
    }

    public subscript(pane: Pane) -> PaneState {
        get { pane == .nextUp ? nextUp : backlog }
        set { if pane == .nextUp { nextUp = newValue } else { backlog = newValue } }
    }

    /// The local calendar date at `nowMillis`: what relative due dates count
    /// from and what "overdue" and "due today" compare with.
    public var today: DueDate {
        let local = nowMillis + Int64(utcOffsetSeconds) * 1000
        return DueDate(epochDay: local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
    }

    /// The query the lists are read with.
    public var query: ListQuery { ListQuery(sort: sort, filter: filter, keepDone: keepDone, today: today) }

    /// The task under the cursor in the focused pane (in the history while it is open).
    public var selectedTask: TaskItem? {
        if let history { return history.selected.flatMap { rows[$0] } }
        return self[focus].selected.flatMap { rows[$0] }
    }

    /// The planned time of Next Up: its open tasks' durations added up
    /// (`3h20m`), with `(+2 ?)` for the ones without a duration (`2 ?` when
    /// none has one); nil when
    /// some rows are not loaded (then a total would be wrong).
    public var nextUpTotal: String? {
        var minutes = 0, unset = 0
        for id in nextUp.ids {
            guard let task = rows[id] else { return nil }
            guard task.isOpen else { continue }
            if let d = task.duration { minutes += d.minutes } else { unset += 1 }
        }
        if minutes == 0 && unset == 0 { return nil }
        let h = minutes / 60, m = minutes % 60
        if minutes == 0 { return "\(unset) ?" }
        var text = h == 0 ? "\(m)m" : (m == 0 ? "\(h)h" : "\(h)h\(m)m")
        if unset > 0 { text += " (+\(unset) ?)" }
        return text
    }

    /// The open tasks a pane lists: its rows but the ones done in this
    /// session and still shown for their grace — what `nextup count` counts.
    public func openCount(_ pane: Pane) -> Int {
        guard !keepDone.isEmpty else { return self[pane].count }
        return self[pane].ids.reduce(0) { n, id in
            keepDone.contains(id) && rows[id]?.isOpen != true ? n : n + 1
        }
    }

    public mutating func say(_ text: String, error: Bool = false, forMillis millis: Int64 = messageMillis) {
        message = Message(text: text, isError: error, untilMillis: nowMillis + millis)
    }
}
