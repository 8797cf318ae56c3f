import Foundation
import NextUpCore

/// The form a ``BridgeFileState`` is stored in: one JSON object per file in
/// the store's `meta` table (``TaskStore/bridgeKeyPrefix``), with sorted keys
/// and no white space, so that an unchanged state is stored as the same text.
extension BridgeFileState {
    /// The stored text of this state.
    var storedText: String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The state stored as `text`, or nil when it does not decode.
    init?(storedText text: String) {
        guard let state = try? JSONDecoder().decode(BridgeFileState.self, from: Data(text.utf8)) else { return nil }
        self = state
    }
}
