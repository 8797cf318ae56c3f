import NextUpCore

/// One list as the UI holds it: every id in display order, the selected task
/// and the scroll. Rows themselves live in ``AppState/rows``.
///
/// Contract: the selection is a task id, never a row number; the row number
/// is derived from `ids` each time it is needed.
public struct PaneState: Equatable, Sendable {
    public var ids: [TaskID] = []
    public var selected: TaskID?
    /// Index of the first visible row.
    public var top: Int = 0

    public init(ids: [TaskID] = [], selected: TaskID? = nil) {
        self.ids = ids
        self.selected = selected ?? ids.first
    }

    public var count: Int { ids.count }

    /// The selected row's index, if the selected task is in the list.
    public var selectedIndex: Int? {
        guard let selected else { return nil }
        return ids.firstIndex(of: selected)
    }

    /// Selects the row at `index`, clamped; nothing when the list is empty.
    public mutating func select(index: Int) {
        selected = ids.isEmpty ? nil : ids[min(max(0, index), ids.count - 1)]
    }

    /// Keeps the selected row inside a window of `height` rows, moving the
    /// window as little as possible.
    public mutating func scrollToSelection(height: Int) {
        let h = max(1, height)
        let maxTop = max(0, ids.count - h)
        if let i = selectedIndex {
            if i < top { top = i }
            if i >= top + h { top = i - h + 1 }
        }
        top = min(max(0, top), maxTop)
    }

    /// Replaces the list with a fresh one from the store. The selection stays
    /// on its task when the task is still listed; otherwise it moves to the
    /// row that now sits where it was.
    public mutating func replace(ids newIDs: [TaskID]) {
        let oldIndex = selectedIndex
        ids = newIDs
        if let selected, ids.contains(selected) { return }
        if let oldIndex { select(index: oldIndex) } else { selected = ids.first }
    }
}
