import Foundation
import NextUpCore
import Testing
@testable import NextUpConfig
import NextUpTestSupport

/// A config file's mistakes in words: the key, the line, what it should be;
/// an unknown key is a notice with the nearest known name.
@Suite struct ConfigMistakeTests {
    let tmp = TemporaryFolder()

    func load(_ text: String) throws -> NextUpConfig {
        let url = tmp.path("c.toml")
        try Data(text.utf8).write(to: url)
        return try NextUpConfig.load(from: url)
    }

    @Test(arguments: [
        ("peer = 42", "line 1: peer should be a folder path in quotes"),
        ("\n\ncategories = \"Admin\"", "line 3: categories should be a list of names in quotes"),
        ("categories = [\"a\", 1]", "line 1: categories should be a list"),
        ("keys = \"q\"", "line 1: keys should be a [keys] table"),
        ("[taskwarrior]\n'category' = true", "line 2: taskwarrior.category should be \"project\" or \"top-project\""),
    ])
    func aWrongKindNamesTheKeyAndTheLine(text: String, says: String) throws {
        #expect { try load(text) } throws: { error in
            let message = (error as? TaskInputError)?.message ?? "\(error)"
            return message.contains(says) && !message.contains("Decoding")
        }
    }

    @Test func unknownKeysAreNoticedWithTheNearestName() throws {
        let c = try load("pier = \"/x\"\ncategoris = [\"A\"]\nfoo = 1\n[keys]\nquit = \"q\"\n[taskwarrior]\nurgency = \"u\"\n")
        #expect(c.unknownSettings.count == 4)
        #expect(c.unknownSettings[0].hasSuffix("line 1: unknown setting 'pier' (did you mean peer?)"))
        #expect(c.unknownSettings[1].hasSuffix("line 2: unknown setting 'categoris' (did you mean categories?)"))
        #expect(c.unknownSettings[2].hasSuffix("line 3: unknown setting 'foo'"))
        #expect(c.unknownSettings[3].hasSuffix("line 7: unknown setting 'urgency' in [taskwarrior]"))
        #expect(c.peerFolder == nil && c.categories == NextUpConfig.defaultCategories)
    }

    @Test func distanceCountsEdits() {
        #expect(ConfigSchema.distance("pier", "peer") == 1)
        #expect(ConfigSchema.distance("", "vdir") == 4)
        #expect(ConfigSchema.distance("vdir", "vdir") == 0)
        #expect(ConfigSchema.distance("kitten", "sitting") == 3)
    }
}
