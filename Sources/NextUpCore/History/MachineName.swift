/// A machine's name as the history shows it ("laptop"): 1…40 characters,
/// no control characters, trimmed, in Unicode form C. The same rule checks
/// a name set here and one read from another machine's log.
public enum MachineName {
    /// `text` as a machine name; nil when it is not one.
    public static func parse(_ text: String) -> String? {
        let name = TaskText.normalized(text.trimmingWhitespace())
        guard (1...40).contains(name.count),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return nil }
        return name
    }
}
