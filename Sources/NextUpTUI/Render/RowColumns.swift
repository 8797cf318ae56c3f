/// The attribute columns a list row shows at a given width: narrower screens
/// drop the due date, then the category; the title takes what is left.
struct RowColumns: Equatable {
    static let marker = 2
    static let urgency = 3
    static let importance = 3
    static let duration = 5
    static let due = 11

    let showDue: Bool
    let category: Int
    let title: Int

    init(width: Int) {
        showDue = width >= 72
        category = width >= 72 ? 12 : (width >= 56 ? 10 : 0)
        var fixed = Self.marker + (1 + Self.urgency) + (1 + Self.importance) + (1 + Self.duration)
        if category > 0 { fixed += 1 + category }
        if showDue { fixed += 1 + Self.due }
        title = max(1, width - fixed)
    }
}
