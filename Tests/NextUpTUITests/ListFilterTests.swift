import Testing
import NextUpCore
@testable import NextUpTUI

@Suite struct ListFilterTests {
    func parse(_ q: String) -> ListFilter { (try? ListFilter.parse(q)) ?? ListFilter(text: "<error>") }

    @Test func parsesTextCategoryAndTBD() {
        let f = parse("buy cat:Admin is:tbd milk")
        #expect(f.text == "buy milk")
        #expect(f.category == "Admin")
        #expect(f.tbdOnly)
        #expect(parse("#Errands").category == "Errands")
        #expect(parse("cat:\"Deep Work\" essay").category == "Deep Work")
        #expect(parse("   ").isEmpty)
    }

    @Test func parsesDueWindowsUrgentAndNext() {
        let f = parse("due:today is:urgent is:next")
        #expect(f.due == .today && f.urgentOnly && f.nextUpOnly && f.text.isEmpty)
        #expect(parse("DUE:Overdue").due == .overdue)
        #expect(parse("due:week").due == .week)
        // A colon after digits, or a quoted word, is text.
        #expect(parse("call at 10:30").text == "call at 10:30")
        #expect(parse("\"re:port\"").text == "re:port")
    }

    @Test func unknownKeysAndValuesAreErrorsNamingWhatIsAccepted() {
        #expect(throws: TaskInputError.self) { try ListFilter.parse("colour:red") }
        #expect((try? ListFilter.parse("colour:red")) == nil)
        do { _ = try ListFilter.parse("prio:H") } catch {
            #expect("\(error)" == "unknown filter 'prio:': use cat:, tag:, due:, is: or words of the title (quote a word with a colon)")
        }
        do { _ = try ListFilter.parse("due:soon") } catch {
            #expect("\(error)" == "due:soon is not one of due:today, due:week, due:overdue")
        }
        do { _ = try ListFilter.parse("is:late") } catch {
            #expect("\(error)" == "is:late is not one of is:urgent, is:tbd, is:next, is:recurring, is:later")
        }
    }

    @Test func queryRoundTrips() {
        for q in ["buy milk", "cat:Admin", "cat:\"Deep Work\" is:tbd", "report cat:Learning is:tbd", "due:week is:urgent is:next tag:home"] {
            #expect(parse(parse(q).query) == parse(q), "\(q)")
        }
    }

    @Test func matchesTitleWordsCategoryAndTBD() {
        let full = Fixture.task("Buy Milk today", urgency: .urgent, importance: .low, minutes: 5, category: "Errands")
        let tbd = Fixture.task("Buy bread", category: "errands")
        #expect(parse("milk buy").matches(full))
        #expect(!parse("milk bread").matches(full))
        #expect(parse("cat:ERRANDS").matches(tbd))
        #expect(parse("is:tbd").matches(tbd))
        #expect(!parse("is:tbd").matches(full))
        #expect(parse("is:urgent").matches(full) && !parse("is:urgent").matches(tbd))
        #expect(parse("ÜBER").matches(Fixture.task("über alles")))
    }

    @Test func dueWindowsCountFromTheGivenDay() throws {
        let today = try DueDate.parse("2027-01-13")  // a Wednesday
        func task(_ due: String) throws -> TaskItem {
            var t = Fixture.task("t")
            t.due = try DueDate.parse(due)
            return t
        }
        #expect(parse("due:today").matches(try task("2027-01-13"), today: today))
        #expect(!parse("due:today").matches(try task("2027-01-14"), today: today))
        #expect(parse("due:week").matches(try task("2027-01-17"), today: today))
        #expect(!parse("due:week").matches(try task("2027-01-18"), today: today))
        #expect(!parse("due:week").matches(try task("2027-01-12"), today: today))
        #expect(parse("due:overdue").matches(try task("2027-01-12"), today: today))
        #expect(!parse("due:overdue").matches(try task("2027-01-13"), today: today))
        #expect(!parse("due:today").matches(Fixture.task("no date"), today: today))
    }
}
