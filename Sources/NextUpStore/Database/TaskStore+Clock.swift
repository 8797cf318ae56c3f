import NextUpCore

extension TaskStore {
    /// The replicas that wrote versions this store holds ahead of physical
    /// time `now` by more than ``HybridClock/skewTolerance`` — machines whose
    /// clock runs ahead (or this one's behind) — each with its furthest lead,
    /// furthest first. Reads every task (for `doctor`).
    public func replicasAhead(now: Int64) throws -> [(replica: ReplicaID, ahead: Int64)] {
        var found: [ReplicaID: Int64] = [:]
        for task in try allTasks() {
            for version in task.versions.values {
                if let ahead = HybridClock.skew(of: version.timestamp, now: now) { found[version.replica] = max(found[version.replica] ?? 0, ahead) }
            }
        }
        return found.map { (replica: $0.key, ahead: $0.value) }.sorted { $0.ahead > $1.ahead }
    }
}
