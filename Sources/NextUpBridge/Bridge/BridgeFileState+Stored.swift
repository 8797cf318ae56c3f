import Foundation
import NextUpCore

/// The form a ``BridgeFileState`` is stored in: one JSON object per file in
/// the store's `meta` table (``TaskStore/bridgeKeyPrefix``), written by
/// Foundation's encoder with sorted keys and no white space, optionals left
/// out when nil.
///
/// Every bridge cycle reads the memory of every file (10,000 files, 10,000
/// objects): `JSONDecoder` took half of a quiet cycle, so the written form is
/// read on its bytes (``JSONByteReader``) and anything else — an older form,
/// a hand-edited entry, a number beyond `Int64` — goes to `JSONDecoder`.
extension BridgeFileState {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// The stored text of this state.
    var storedText: String? {
        (try? Self.encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The state stored as `text`, or nil when it does not decode.
    ///
    /// Contract: the same value as `JSONDecoder().decode(BridgeFileState.self, …)`
    /// of the same text, for every text (a test holds the two to it).
    init?(storedText text: String) {
        var text = text
        if let state = text.withUTF8({ Self.readWritten($0) }) {
            self = state
            return
        }
        guard let state = try? JSONDecoder().decode(BridgeFileState.self, from: Data(text.utf8)) else { return nil }
        self = state
    }

    /// The state in exactly the written form (keys in order, no white
    /// space); nil for anything else, with nothing assumed.
    static func readWritten(_ bytes: UnsafeBufferPointer<UInt8>) -> BridgeFileState? {
        var r = JSONByteReader(bytes: bytes)
        guard r.take("{\"complete\":"), let complete = r.bool(),
              r.take(",\"file\":"), let file = r.string(),
              r.take(",\"gone\":"), let gone = r.bool(),
              r.take(",\"hash\":"), let hash = r.string(),
              r.take(",\"sequence\":"), let sequence = r.integer().flatMap({ Int(exactly: $0) }) else { return nil }
        var stamp: FileStamp?
        if r.take(",\"stamp\":") {
            guard let s = readStamp(&r) else { return nil }
            stamp = s
        }
        guard r.take(",\"view\":"), let view = readView(&r), r.take("}"), r.atEnd else { return nil }
        return BridgeFileState(file: file, hash: hash, view: view, sequence: sequence, gone: gone, complete: complete, stamp: stamp)
    }

    private static func readStamp(_ r: inout JSONByteReader) -> FileStamp? {
        guard r.take("{\"changed\":"), let changed = r.integer(),
              r.take(",\"device\":"), let device = r.integer().flatMap({ UInt64(exactly: $0) }),
              r.take(",\"inode\":"), let inode = r.integer().flatMap({ UInt64(exactly: $0) }),
              r.take(",\"modified\":"), let modified = r.integer(),
              r.take(",\"size\":"), let size = r.integer(),
              r.take("}") else { return nil }
        return FileStamp(device: device, inode: inode, size: size, modified: modified, changed: changed)
    }

    private static func readView(_ r: inout JSONByteReader) -> VTodoView? {
        guard r.take("{\"cancelled\":"), let cancelled = r.bool(),
              r.take(",\"categories\":"), let categories = r.stringArray() else { return nil }
        var completedAt: Int64?
        if r.take(",\"completedAt\":") {
            guard let n = r.integer() else { return nil }
            completedAt = n
        }
        var due: String?
        if r.take(",\"due\":") {
            guard let s = r.string() else { return nil }
            due = s
        }
        guard r.take(",\"extensions\":"), let extensions = readStringDictionary(&r) else { return nil }
        var importance: Int?
        if r.take(",\"importance\":") {
            guard let n = r.integer().flatMap({ Int(exactly: $0) }) else { return nil }
            importance = n
        }
        guard r.take(",\"notes\":"), let notes = r.string(),
              r.take(",\"title\":"), let title = r.string(),
              r.take(",\"uid\":"), let uid = r.string(),
              r.take("}") else { return nil }
        var view = VTodoView(uid: uid, title: title)
        view.notes = notes
        view.importance = importance
        view.due = due
        view.completedAt = completedAt
        view.cancelled = cancelled
        view.categories = categories
        view.extensions = extensions
        return view
    }

    /// An object of string values; nil when a key repeats (what a decoder
    /// makes of that is its own business).
    private static func readStringDictionary(_ r: inout JSONByteReader) -> [String: String]? {
        guard r.take("{") else { return nil }
        var out: [String: String] = [:]
        if r.take("}") { return out }
        repeat {
            guard let key = r.string(), r.take(":"), let value = r.string(), out.updateValue(value, forKey: key) == nil else { return nil }
        } while r.take(",")
        return r.take("}") ? out : nil
    }
}

private extension JSONByteReader {
    mutating func bool() -> Bool? {
        if take("true") { return true }
        if take("false") { return false }
        return nil
    }
}
