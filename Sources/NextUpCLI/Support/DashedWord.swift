/// A word that starts with `-` but is no option: a title like "-dash title"
/// would otherwise be read as the short flags `-d -a -s -h`, and `-h` prints
/// help and exits 0 without adding anything. nextup has no grouped short
/// flags, so any such word before `--` is a mistake, named in one line with
/// the two spellings that work. So is a `--` word that cannot be an option's
/// name (`"--weird title"`: a space in it), which the parser would report as
/// a missing argument.
struct DashedWord: Error {
    let word: String

    var message: String {
        "'\(word)' starts with '-' but is not an option; put text that starts with '-' after -- "
            + "(nextup add -- \"\(word)\") or join it to its option (--notes=\"\(word)\")"
    }

    /// Throws for the first dashed word before `--` that is not an option.
    static func check(_ arguments: [String]) throws {
        for word in arguments {
            if word == "--" { return }
            if word.hasPrefix("--") {
                let name = word.dropFirst(2).prefix { $0 != "=" }
                guard name.contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }) else { continue }
                throw DashedWord(word: word)
            }
            guard word.hasPrefix("-"), word.count > 2 else { continue }
            throw DashedWord(word: word)
        }
    }
}
