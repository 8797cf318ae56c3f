import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where human output goes and how wide it may be.
enum Terminal {
    /// The width to fit tables to: the terminal's when stdout is one, else
    /// `$COLUMNS`, else unlimited (pipes get whole lines).
    static func width(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        if isatty(STDOUT_FILENO) != 0 {
            var ws = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        }
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        return nil
    }

    /// Writes `data` to stdout, after whatever `print` buffered.
    ///
    /// - Throws: a one-line ``CLIError`` when stdout refuses it.
    static func write(_ data: some DataProtocol) throws {
        try write(pieces: CollectionOfOne(data))
    }

    /// Writes `pieces` to stdout one after the other, after whatever `print` buffered.
    ///
    /// - Throws: a one-line ``CLIError`` when stdout refuses them.
    static func write(pieces: some Sequence<some DataProtocol>) throws {
        fflush(nil)
        do {
            for data in pieces { try FileHandle.standardOutput.write(contentsOf: data) }
        } catch {
            throw CLIError("cannot write to standard output: \(PrivateFile.reason(error))")
        }
    }

    /// Writes one line to stderr.
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
