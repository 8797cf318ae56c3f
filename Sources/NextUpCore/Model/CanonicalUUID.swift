import Foundation

/// Recognises UUID text already in canonical form (36 characters, hex digits
/// and hyphens at positions 8, 13, 18, 23) without going through Foundation's
/// `UUID`, which dominated reading 100,000 tasks and log lines. Uppercase hex
/// is lowered; anything else is left to `UUID`.
enum CanonicalUUID {
    static func canonical(_ text: String) -> String? {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return nil }
        var lower = true
        var i = 0
        for b in utf8 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return nil }
            } else if (b >= 48 && b <= 57) || (b >= 97 && b <= 102) {
                // a digit or a lowercase hex letter
            } else if b >= 65 && b <= 70 {
                lower = false
            } else {
                return nil
            }
            i += 1
        }
        return lower ? text : text.lowercased()
    }

    /// The canonical lowercase text of any UUID spelling, or nil: the fast
    /// path above, else Foundation's parser. What ``TaskID`` and ``ReplicaID`` hold.
    static func lowercased(_ text: String) -> String? {
        canonical(text) ?? UUID(uuidString: text).map { $0.uuidString.lowercased() }
    }
}
