import Foundation

/// Recognises UUID text already in canonical form (36 characters, hex digits
/// and hyphens at positions 8, 13, 18, 23) without going through Foundation's
/// `UUID`, which is slow to parse every id of a large store or log. Uppercase
/// hex is lowered; anything else is left to `UUID`.
public enum CanonicalUUID {
    static func canonical(_ text: String) -> String? {
        // A native string's bytes are read in place; any other from a copy.
        let verdict = text.utf8.withContiguousStorageIfAvailable(classify) ?? Array(text.utf8).withUnsafeBufferPointer(classify)
        switch verdict {
        case .lowercase: return text
        case .uppercase: return text.lowercased()
        case .not: return nil
        }
    }

    private enum Verdict { case lowercase, uppercase, not }

    /// Whether `bytes` are a canonical UUID's, and in which case: each
    /// byte's class against the class its position wants, one exclusive or
    /// per byte and no branch.
    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        guard bytes.count == 36, let base = bytes.baseAddress else { return .not }
        let differ = byteClasses.withUnsafeBufferPointer { classes in
            positionClasses.withUnsafeBufferPointer { wanted in
                var differ: UInt8 = 0
                for i in 0..<36 { differ |= classes[Int(base[i])] ^ wanted[i] }
                return differ
            }
        }
        // Only an uppercase letter where a hex digit goes leaves bit 8 alone.
        return differ == 0 ? .lowercase : differ == 8 ? .uppercase : .not
    }

    /// A byte's class: 1 a digit or lowercase hex letter, 9 an uppercase hex
    /// letter (a hex digit, plus 8), 2 a hyphen, 0 anything else.
    private static let byteClasses: [UInt8] = (0..<256).map { b in
        (48...57).contains(b) || (97...102).contains(b) ? 1 : (65...70).contains(b) ? 9 : b == 45 ? 2 : 0
    }
    /// The class each of the 36 positions wants: hyphens at 8, 13, 18, 23,
    /// hex digits elsewhere.
    private static let positionClasses: [UInt8] = (0..<36).map { [8, 13, 18, 23].contains($0) ? 2 : 1 }

    /// The canonical lowercase text of any UUID spelling, or nil: the fast
    /// path above, else Foundation's parser. What ``TaskID`` and ``ReplicaID`` hold.
    static func lowercased(_ text: String) -> String? {
        canonical(text) ?? UUID(uuidString: text).map { $0.uuidString.lowercased() }
    }
}
