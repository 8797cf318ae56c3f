/// What the history needs to know about a change beyond its value and
/// version: where it was made, and what its writer held for the field when
/// it wrote it (the *seen* version, by which a race is recognised: an edit
/// that did not see another one of the same field).
///
/// A note travels with its change (``FieldChange/note``) through the logs;
/// it is never part of what the merge compares.
public struct ChangeNote: Hashable, Sendable {
    /// What the writer's replica held for the field.
    public enum Seen: Hashable, Sendable {
        /// The field had never been written there.
        case nothing
        /// The version it held.
        case version(Version)

        /// Whether a writer that held this had seen the change at `version`:
        /// what it held is that version or a later one.
        public func covers(_ version: Version) -> Bool {
            if case .version(let held) = self { return held >= version }
            return false
        }
    }

    /// Where the change was made; nil when its log did not say.
    public var origin: ChangeOrigin?
    /// What its writer held for the field; nil when unknown (a new task's
    /// first values, a log that did not say, a merged import).
    public var seen: Seen?

    public init(origin: ChangeOrigin?, seen: Seen?) {
        self.origin = origin
        self.seen = seen
    }

    /// The note of a local write of a field that held `held` (nil: never
    /// written) in a task that held `taskHadVersions` any version at all.
    public static func local(_ origin: ChangeOrigin, held: Version?, taskHadVersions: Bool) -> ChangeNote {
        ChangeNote(origin: origin, seen: taskHadVersions ? (held.map { .version($0) } ?? .nothing) : nil)
    }

    /// Joins two notes of one change (the same task, field and version met
    /// twice, e.g. one phone edit taken by two machines): the later seen
    /// version and the first origin in byte order, so every replica keeps
    /// the same note whatever order they met in.
    public func joined(_ other: ChangeNote) -> ChangeNote {
        let origin: ChangeOrigin? = switch (self.origin, other.origin) {
        case (let a?, let b?): a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8) ? a : b
        case (let a, let b): a ?? b
        }
        func rank(_ s: Seen?) -> (Int, Version?) {
            switch s { case nil: (0, nil); case .nothing: (1, nil); case .version(let v): (2, v) }
        }
        let (ra, va) = rank(seen), (rb, vb) = rank(other.seen)
        let seen: Seen? = ra != rb ? (ra > rb ? self.seen : other.seen) : (va.flatMap { a in vb.map { b in a >= b ? self.seen : other.seen } } ?? self.seen)
        return ChangeNote(origin: origin, seen: seen)
    }
}
