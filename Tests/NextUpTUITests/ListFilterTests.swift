import Testing
import NextUpCore
@testable import NextUpTUI

@Suite struct ListFilterTests {
    @Test func parsesTextCategoryAndTBD() {
        let f = ListFilter.parse("buy cat:Admin is:tbd milk")
        #expect(f.text == "buy milk")
        #expect(f.category == "Admin")
        #expect(f.tbdOnly)
        #expect(ListFilter.parse("#Errands").category == "Errands")
        #expect(ListFilter.parse("cat:\"Deep Work\" essay").category == "Deep Work")
        #expect(ListFilter.parse("   ").isEmpty)
    }

    @Test func queryRoundTrips() {
        for q in ["buy milk", "cat:Admin", "cat:\"Deep Work\" is:tbd", "report cat:Learning is:tbd"] {
            #expect(ListFilter.parse(ListFilter.parse(q).query) == ListFilter.parse(q), "\(q)")
        }
    }

    @Test func matchesTitleWordsCategoryAndTBD() {
        let full = Fixture.task("Buy Milk today", urgency: .urgent, importance: .low, minutes: 5, category: "Errands")
        let tbd = Fixture.task("Buy bread", category: "errands")
        #expect(ListFilter.parse("milk buy").matches(full))
        #expect(!ListFilter.parse("milk bread").matches(full))
        #expect(ListFilter.parse("cat:ERRANDS").matches(tbd))
        #expect(ListFilter.parse("is:tbd").matches(tbd))
        #expect(!ListFilter.parse("is:tbd").matches(full))
        #expect(ListFilter.parse("ÜBER").matches(Fixture.task("über alles")))
    }
}
