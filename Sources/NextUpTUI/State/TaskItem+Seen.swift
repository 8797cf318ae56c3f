import NextUpCore

extension TaskItem {
    /// The versions of `fields` as this copy of the task holds them (nil: never
    /// written): what a write made from this copy expects to find.
    public func seen(_ fields: [TaskField]) -> [TaskField: Version?] {
        var seen: [TaskField: Version?] = [:]
        for field in fields { seen[field] = .some(versions[field]) }
        return seen
    }
}
