import NextUpCore

extension VTodoView {
    /// The field edits a foreign file asks for: what this view (the file now)
    /// changed since `remembered` (what the bridge last wrote or read for this
    /// file), in nextup's fields — the seed's Bug 57 cannot happen here.
    ///
    /// Contract:
    /// - With a remembered view, only properties whose value differs from it
    ///   become edits; an extension absent from the file is no change, so a
    ///   client that drops `X-NEXTUP-…` clears nothing. A view equal to the
    ///   remembered one asks for nothing.
    /// - `CATEGORIES` is compared as a set: the category taken out clears the
    ///   category; names added become tags (spaces and all; one that cannot
    ///   be a tag becomes the category when the task has none); tags taken
    ///   out are removed.
    /// - Without a remembered view (a file the bridge never saw), every
    ///   property the file has is asked for: for a new task (`task` nil) that
    ///   is the task; the bridge only uses it so.
    /// - `RRULE` is compared as written (``rrule``); the store anchors a new
    ///   rule (``NextUpCore/RecurrenceStep/starting(_:on:)``).
    /// - A completion without a time (`STATUS:COMPLETED` alone) completes at `now`.
    public func changes(since remembered: VTodoView?, task: TaskItem?, now: Int64) -> [(TaskField, FieldValue)] {
        var out: [(TaskField, FieldValue)] = []
        let base = remembered
        func differs<T: Equatable>(_ path: KeyPath<VTodoView, T>) -> Bool {
            guard let base else { return true }
            return self[keyPath: path] != base[keyPath: path]
        }
        if differs(\.title) { out.append((.title, .string(title))) }
        if differs(\.notes) { out.append((.notes, .string(notes))) }
        if differs(\.importance) { out.append((.importance, importance.map { .int(Int64($0)) } ?? .null)) }
        if differs(\.due) { out.append((.due, due.map { .string($0) } ?? .null)) }
        if differs(\.start) { out.append((.deferDate, start.map { .string($0) } ?? .null)) }
        if differs(\.rrule), rrule != nil || base != nil { out.append((.recur, rrule.map { .string($0) } ?? .null)) }
        if differs(\.completedAt) {
            if let completedAt {
                if task?.isDone != true || base != nil { out.append((.done, .int(completedAt > 0 ? completedAt : now))) }
            } else {
                out.append((.done, .null))
            }
        }
        if differs(\.cancelled) { out.append((.deleted, .bool(cancelled))) }

        // Category and tags.
        let oldCategory = base?.namedCategory
        var newCategory: String?? = nil  // nil: no change
        if let ext = self[.category], base == nil || ext != base?[.category] {
            newCategory = .some(ext.isEmpty ? nil : ext)
        } else if base == nil {
            newCategory = .some(namedCategory)
        } else if let oldCategory, base?.categories.contains(oldCategory) == true, !categories.contains(oldCategory) {
            newCategory = .some(nil)
        }
        let category = newCategory ?? oldCategory
        let oldTags = Set(base?.categories.filter { $0 != oldCategory } ?? [])
        let newTags = categories.filter { $0 != category }
        var categoryTaken = newCategory != nil || task?.category != nil
        for name in newTags where !oldTags.contains(name) {
            if let tag = try? TaskText.tag(name), tag == name {
                out.append((.tag(tag), .bool(true)))
            } else if !categoryTaken {
                newCategory = .some(name)
                categoryTaken = true
            }
        }
        for name in oldTags.sorted() where !newTags.contains(name) {
            if let tag = try? TaskText.tag(name), tag == name { out.append((.tag(tag), .bool(false))) }
        }
        if let newCategory { out.append((.category, newCategory.map { .string($0) } ?? .null)) }

        for ext in [Extension.urgency, .duration, .nextUp] {
            guard let value = self[ext], base == nil || value != base?[ext] else { continue }
            let field: TaskField
            let fieldValue: FieldValue
            switch ext {
            case .urgency: field = .urgency; fieldValue = value.isEmpty ? .null : .string(value)
            case .duration: field = .duration; fieldValue = Int64(value).map { .int($0) } ?? .null
            case .nextUp: field = .nextUp; fieldValue = value.isEmpty ? .null : .string(value)
            case .category: continue
            }
            out.append((field, fieldValue))
        }
        return out
    }
}
