import NextUpCore

/// Where things go on a screen of a given size. Pure; the reducer uses it to
/// keep the selection in view, the views to draw.
///
/// Rows, top to bottom: title bar, Next Up header, Next Up rows, Backlog
/// header, Backlog rows, message/prompt line, status bar.
public struct Layout: Equatable, Sendable {
    public static let minWidth = 40
    public static let minHeight = 10

    public let width: Int
    public let height: Int
    public let nextUpRows: Int
    public let backlogRows: Int

    public init(width: Int, height: Int, nextUpCount: Int) {
        self.width = width
        self.height = height
        let listRows = max(2, height - 5)
        let next = min(max(nextUpCount, 1), max(1, listRows / 2))
        nextUpRows = next
        backlogRows = max(1, listRows - next)
    }

    public var isTooSmall: Bool { width < Self.minWidth || height < Self.minHeight }

    /// Rows of the history (between its header and the message line).
    public var historyRows: Int { max(1, height - 4) }

    public func rows(for pane: Pane) -> Int { pane == .nextUp ? nextUpRows : backlogRows }

    /// Screen row of a pane's header line.
    public func headerLine(for pane: Pane) -> Int { pane == .nextUp ? 1 : 2 + nextUpRows }
    public var messageLine: Int { height - 2 }
    public var statusLine: Int { height - 1 }
}

extension AppState {
    public var layout: Layout { Layout(width: width, height: height, nextUpCount: nextUp.count) }

    /// The ids on screen in each pane, plus `margin` rows either side.
    public func visibleIDs(margin: Int = 0) -> [TaskID] {
        let layout = self.layout
        var out: [TaskID] = []
        if let h = history {
            let lo = max(0, h.top - margin), hi = min(h.count, h.top + layout.historyRows + margin)
            if lo < hi { out.append(contentsOf: h.ids[lo..<hi]) }
        }
        for pane in Pane.allCases {
            let p = self[pane]
            let lo = max(0, p.top - margin), hi = min(p.count, p.top + layout.rows(for: pane) + margin)
            if lo < hi { out.append(contentsOf: p.ids[lo..<hi]) }
        }
        return out
    }
}
