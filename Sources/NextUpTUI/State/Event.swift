import NextUpCore
import NextUpSync

/// Everything that can happen to the UI state.
public enum Event: Equatable, Sendable {
    case key(Key)
    /// The terminal's size, in cells.
    case resize(cols: Int, rows: Int)
    /// The clock moved on (status bar age, highlight expiry).
    case tick(nowMillis: Int64)
    /// Fresh lists from the store. `external` is true when the reload was
    /// caused by another process or machine (rows that changed get
    /// highlighted), false after this UI's own write.
    case reloaded(Listing, external: Bool)
    /// More rows of the current lists.
    case rowsLoaded([TaskItem])
    /// Whether the lists are being read again in slices (a large change
    /// landed): meanwhile the lists shown are the last ones read whole.
    case readingLists(Bool)
    case syncStatus(SyncDisplay)
    /// A write of this UI succeeded; `task` is the task written (for an add,
    /// the new one), `row` the task as the write left it (what the status
    /// line reports; nil when unknown).
    case wrote(Write, task: TaskID?, undo: UndoEntry?, row: TaskItem? = nil)
    /// An undo (`redo` false) or redo entry's write succeeded, leaving these
    /// versions on its fields; the entry goes, flipped, on the other stack.
    case undone(UndoEntry, leaving: [TaskField: Version?], redo: Bool)
    /// A write was refused because a field it depends on moved on since the
    /// UI saw it (another process, another machine): nothing was written.
    case stale(StaleWrite, Attempt)
    /// A signal: SIGINT (Ctrl-C) cancels an open prompt, else quits; SIGTERM
    /// and SIGHUP quit. The exit status says which (128 + the number).
    case signal(Int32)
    /// The local time zone's offset from UTC, in seconds.
    case timeZone(utcOffsetSeconds: Int)
    /// The editor opened by ``Effect/editNotes(_:text:original:seen:)``
    /// closed, leaving `text`; `original` is what the notes held when it
    /// opened, `seen` the versions then.
    case notesEdited(TaskID, text: String, original: String, seen: [TaskField: Version?])
    /// The category and tag names in use (``Effect/loadNames``), each one
    /// spelling per name.
    case namesLoaded(categories: [String], tags: [String])
    /// The history of a task (``Effect/loadChanges(_:)``).
    case changesLoaded(TaskID, [ChangeLine])
    /// What other machines changed since this one last looked (``AwaySummary``).
    case awayLoaded(AwaySummary)
    /// Which machines have this machine's last change (``DeliveryStatus``).
    case deliveryLoaded(DeliveryStatus)
    /// The editor closed on notes that cannot be saved (`problem`, e.g. too
    /// long); what the person wrote stays in `file`.
    case notesKept(TaskID, file: String, problem: String)
    /// A write or read failed; the message is shown in plain words.
    case failed(String)
}

/// What a refused write was for.
public enum Attempt: Equatable, Sendable {
    /// A key's edit, or a prompt's (``AppState/submitted`` holds the prompt).
    case edit
    case undo(UndoEntry)
    case redo(UndoEntry)
}

/// The two lists as read from the store: ids in display order, plus rows for
/// some of them (at least the ones that will be visible).
public struct Listing: Equatable, Sendable {
    public var nextUp: [TaskID]
    public var backlog: [TaskID]
    public var rows: [TaskItem]
    /// The history's ids (done and deleted, most recent first), read only
    /// while the history is open.
    public var history: [TaskID]?

    public init(nextUp: [TaskID], backlog: [TaskID], rows: [TaskItem], history: [TaskID]? = nil) {
        self.nextUp = nextUp
        self.backlog = backlog
        self.rows = rows
        self.history = history
    }
}

/// What the lists are read with.
public struct ListQuery: Equatable, Sendable {
    public var sort: BacklogSort
    public var filter: ListFilter
    /// Tasks completed in this session stay listed (shown as done) so that
    /// `x` can be pressed again to reopen them.
    public var keepDone: Set<TaskID>
    /// The local date `due:` filters count from.
    public var today: DueDate

    public init(sort: BacklogSort = .score, filter: ListFilter = ListFilter(), keepDone: Set<TaskID> = [],
                today: DueDate = DueDate(epochDay: 0)) {
        self.today = today
        self.sort = sort
        self.filter = filter
        self.keepDone = keepDone
    }
}
