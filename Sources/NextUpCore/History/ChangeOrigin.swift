/// Where a change was made: by a command, in the TUI, by an import, or on
/// the phone (through the bridge). Carried in the peer logs with the change,
/// so every machine shows the same origin; a change read from a log that
/// does not say (written by an older nextup) has none, shown as `merge`.
///
/// Any short lower-case word is kept as it is, so an origin a newer nextup
/// writes is shown rather than dropped.
public struct ChangeOrigin: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts 1…20 characters of `a`–`z` and `-`; nil for anything else.
    public init?(rawValue: String) {
        guard (1...20).contains(rawValue.utf8.count),
              rawValue.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "-") }) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    public static let command = ChangeOrigin(known: "command")
    public static let tui = ChangeOrigin(known: "tui")
    public static let `import` = ChangeOrigin(known: "import")
    public static let phone = ChangeOrigin(known: "phone")

    public var description: String { rawValue }
}
