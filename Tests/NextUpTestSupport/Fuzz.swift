import Foundation

/// Mutation fuzzing of the parsers of outside input (issue 15): valid files
/// are damaged the way disks, file-sync tools and people damage them — bit
/// flips, bytes set to JSON's and TOML's punctuation, truncations, duplicated
/// and deleted ranges, splices of two files — with a seeded generator, so a
/// failing case is replayed from its seed and index.
///
/// `make test` runs each parser's default number of cases (thousands in all,
/// a few seconds); `NEXTUP_FUZZ_CASES=N` runs N cases per parser instead, and
/// `NEXTUP_FUZZ_SEED` changes the seed.
public enum Fuzz {
    /// Cases per parser: `NEXTUP_FUZZ_CASES`, else `default`.
    public static func cases(default count: Int) -> Int {
        if let raw = ProcessInfo.processInfo.environment["NEXTUP_FUZZ_CASES"], let n = Int(raw), n > 0 { return n }
        return count
    }

    /// The base seed: `NEXTUP_FUZZ_SEED` (decimal or 0x-hex), else `fallback`.
    public static func seed(_ fallback: UInt64) -> UInt64 {
        guard let raw = ProcessInfo.processInfo.environment["NEXTUP_FUZZ_SEED"] else { return fallback }
        if raw.hasPrefix("0x"), let n = UInt64(raw.dropFirst(2), radix: 16) { return n }
        return UInt64(raw) ?? fallback
    }

    static let interesting: [UInt8] = Array("\"{}[]:,\\\n\r\t 0-9e.+\u{0}=#'".utf8) + [0xFF, 0xC3, 0xE2, 0xF0, 0x80, 0x7F]

    /// One to four mutations of `input`; `corpus` supplies the other half of splices.
    public static func mutate(_ input: [UInt8], corpus: [[UInt8]], using rng: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let n = bytes.count
            switch Int.random(in: 0..<9, using: &rng) {
            case 0 where n > 0:  // bit flip
                let i = Int.random(in: 0..<n, using: &rng)
                bytes[i] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            case 1 where n > 0:  // a byte becomes punctuation, a quote, a newline, a bad UTF-8 lead
                bytes[Int.random(in: 0..<n, using: &rng)] = interesting.randomElement(using: &rng)!
            case 2 where n > 0:  // truncation
                bytes.removeLast(Int.random(in: 1...n, using: &rng))
            case 3 where n > 0:  // a range duplicated in place
                let start = Int.random(in: 0..<n, using: &rng)
                let end = min(n, start + Int.random(in: 1...max(1, min(n, 400)), using: &rng))
                bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...n, using: &rng))
            case 4 where n > 0:  // a range deleted
                let start = Int.random(in: 0..<n, using: &rng)
                bytes.removeSubrange(start..<min(n, start + Int.random(in: 1...64, using: &rng)))
            case 5:  // splice: this file's head, another file's tail
                let other = corpus.randomElement(using: &rng) ?? []
                let cut = Int.random(in: 0...n, using: &rng)
                let from = other.isEmpty ? 0 : Int.random(in: 0...other.count, using: &rng)
                bytes = Array(bytes[..<cut]) + Array(other[from...])
            case 6:  // random bytes inserted
                let junk = (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                bytes.insert(contentsOf: junk, at: Int.random(in: 0...n, using: &rng))
            case 7 where n > 0:  // a whole line repeated (logs and TOML are line based)
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let line = lines.randomElement(using: &rng)!
                bytes.insert(contentsOf: Array(line) + [UInt8(ascii: "\n")], at: Int.random(in: 0...n, using: &rng))
            case 8 where n > 0:  // a number made huge or negative
                if let i = bytes.indices.filter({ (48...57).contains(bytes[$0]) }).randomElement(using: &rng) {
                    bytes.insert(contentsOf: Array(["99999999999999999999", "-", "1e308", ".5"].randomElement(using: &rng)!.utf8), at: i)
                }
            default:
                break
            }
        }
        return bytes
    }

    /// What a fuzz run found.
    public struct Outcome: Sendable {
        public var ran = 0
        public var slowest = 0.0
        public var seconds = 0.0
        /// The failed cases (the check's words, with the case and seed), at most 10.
        public var failures: [String] = []
    }

    /// Runs `check` on `count` inputs — the `corpus` files themselves, then
    /// mutations of them — each on a worker thread with a time limit (`bound`
    /// seconds: a hang is reported with its seed and case, never waited out).
    /// `check` returns nil when the parser behaved, else what went wrong.
    public static func run(cases count: Int, seed: UInt64, corpus: [[UInt8]], bound: Double = 10,
                           _ check: @escaping @Sendable (_ input: [UInt8]) -> String?) -> Outcome {
        var rng = SeededRandom(seed: seed)
        var outcome = Outcome()
        let begun = DispatchTime.now()
        final class Box: @unchecked Sendable { var failure: String? }
        for index in 0..<count {
            let base = corpus[index % corpus.count]
            let input = index < corpus.count ? base : mutate(base, corpus: corpus, using: &rng)
            let done = DispatchSemaphore(value: 0)
            let box = Box()
            let started = DispatchTime.now()
            DispatchQueue.global().async {
                box.failure = check(input)
                done.signal()
            }
            let where_ = "case \(index) of seed 0x\(String(seed, radix: 16)) (\(input.count) bytes)"
            if done.wait(timeout: .now() + bound) == .timedOut {
                outcome.failures.append("\(where_): did not finish within \(bound) s")
                break
            }
            outcome.ran += 1
            outcome.slowest = max(outcome.slowest, Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
            if let failure = box.failure, outcome.failures.count < 10 {
                outcome.failures.append("\(where_): \(failure)")
            }
        }
        outcome.seconds = Double(DispatchTime.now().uptimeNanoseconds - begun.uptimeNanoseconds) / 1e9
        return outcome
    }
}
