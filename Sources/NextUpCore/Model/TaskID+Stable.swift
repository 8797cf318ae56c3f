extension TaskID {
    /// A UUID-shaped id derived deterministically from `key` (two 64-bit FNV-1a
    /// hashes, version nibble 5-like), for imported records that carry no id:
    /// importing the same record twice names the same task.
    public static func stable(from key: String) -> TaskID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
            for b in key.utf8 { h ^= UInt64(b); h = h &* 0x100_0000_01b3 }
            return h
        }
        let a = fnv(0), b = fnv(0x9E37_79B9_7F4A_7C15)
        func hex(_ v: UInt64) -> [Character] {
            let s = String(v, radix: 16)
            return Array(String(repeating: "0", count: 16 - s.count) + s)
        }
        var h = hex(a) + hex(b)
        h[12] = "5"
        h[16] = ["8", "9", "a", "b"][Int(b >> 62)]
        let s = String(h)
        let i = s.startIndex
        func sub(_ from: Int, _ to: Int) -> Substring { s[s.index(i, offsetBy: from)..<s.index(i, offsetBy: to)] }
        return TaskID("\(sub(0, 8))-\(sub(8, 12))-\(sub(12, 16))-\(sub(16, 20))-\(sub(20, 32))")!
    }
}
