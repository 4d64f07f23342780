import CinnCore
import Foundation
import Testing

@Suite struct FoodSearchTests {
    func candidate(_ name: String, brand: String? = nil, generic: Bool = false, mine: Bool = false) -> FoodSearchCandidate {
        FoodSearchCandidate(id: UUID.v7(), name: name, brand: brand, source: generic ? .usda : .openFoodFacts, basis: .grams,
                            isGeneric: generic, isMine: mine, lastUsed: nil, energyKcalPer100: 100, defaultServing: nil)
    }

    @Test(arguments: ["Crème Fraîche, 30%", "GREEK YOGURT, Plain!", "  Apple,raw  ", "Ça va 1½", "ÆBLE-most", "a--b__c", ""])
    func searchKeyIsTheSameOnTheFastASCIIPath(_ text: String) {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        let words = folded.unicodeScalars.split { !CharacterSet.alphanumerics.contains($0) }
            .map { String(String.UnicodeScalarView($0)) }
        #expect(FoodSearchQuery.searchKey(text) == words.joined(separator: " "))
    }

    @Test func wordMatchesSpellTheIndexQueries() throws {
        let query = try #require(FoodSearchQuery("Greek yog"))
        #expect(query.fts5(.whole) == #""greek" "yog""#)
        #expect(query.fts5(.lastAsPrefix) == #""greek" "yog"*"#)
        #expect(query.fts5 == #""greek"* "yog"*"#)
        #expect(query.tsquery(.whole) == "greek & yog")
        #expect(query.tsquery(.lastAsPrefix) == "greek & yog:*")
        #expect(query.tsquery == "greek:* & yog:*")
    }

    @Test func genericAndOwnFoodsOutrankEveryBrandedProduct() throws {
        let query = try #require(FoodSearchQuery("peanut butter creamy salted organic smooth crunchy spread"))
        // The best a branded product can do (its name is the query) against the worst generic and own foods.
        let branded = candidate("Peanut butter creamy salted organic smooth crunchy spread")
        let generic = candidate("Spreads, peanuts, butters, creamyish, saltedx, organics, smoothie, crunchyx, spreadable, with vitamins added",
                                generic: true)
        let mine = candidate("Toast", brand: "Peanut butter creamy salted organic smooth crunchy spread", mine: true)
        let results = query.rank([branded, generic, mine], limit: 3)
        #expect(results.map(\.food.id) == [mine.id, generic.id, branded.id])
    }

    @Test func wholeWordsComeBeforeAHalfTypedWord() throws {
        let query = try #require(FoodSearchQuery("salmon"))
        let results = query.rank([candidate("Salmonberries, raw", generic: true), candidate("Fish, salmon, raw", generic: true),
                                  candidate("Salmon salad", generic: true)], limit: 3)
        #expect(results.map(\.food.name) == ["Fish, salmon, raw", "Salmon salad", "Salmonberries, raw"], "the food after its USDA group starts the name")
        let typing = try #require(FoodSearchQuery("salmo"))
        #expect(typing.rank([candidate("Fish, salmon, raw", generic: true), candidate("Salmonberries, raw", generic: true)],
                            limit: 2).map(\.food.name) == ["Salmonberries, raw", "Fish, salmon, raw"])
    }

    @Test func aPluralNameMatchesTheSingularQueryAsAWholeWord() throws {
        let query = try #require(FoodSearchQuery("apple"))
        let results = query.rank([candidate("Strudel, apple", generic: true), candidate("Apples, raw, with skin", generic: true),
                                  candidate("Applesauce, canned", generic: true)], limit: 3)
        #expect(results.map(\.food.name) == ["Apples, raw, with skin", "Strudel, apple", "Applesauce, canned"])
        let tomatoes = try #require(FoodSearchQuery("tomato"))
        #expect(tomatoes.rank([candidate("Soup, tomato", generic: true), candidate("Tomatoes, red, raw", generic: true)],
                              limit: 2).first?.food.name == "Tomatoes, red, raw")
    }

    @Test func babyFoodAndRestaurantDishesRankBelowThePlainFoodUnlessAskedFor() throws {
        let foods = [candidate("Babyfood, banana", generic: true), candidate("McDONALD'S, Banana smoothie", generic: true),
                     candidate("Bananas, dehydrated, or banana powder", generic: true)]
        let banana = try #require(FoodSearchQuery("banana"))
        #expect(banana.rank(foods, limit: 3).first?.food.name == "Bananas, dehydrated, or banana powder")
        let baby = try #require(FoodSearchQuery("babyfood banana"))
        #expect(baby.rank(foods, limit: 3).first?.food.name == "Babyfood, banana")
        let mcdonalds = try #require(FoodSearchQuery("mcdonald banana"))
        #expect(mcdonalds.rank(foods, limit: 3).first?.food.name == "McDONALD'S, Banana smoothie")
    }

    @Test func rankingInStepsCountsFoldedLines() throws {
        let query = try #require(FoodSearchQuery("milk"))
        var ranking = FoodSearchRanking(query: query)
        let first = candidate("MILK")
        ranking.add([first, candidate("Milk!"), candidate("Bread")])
        #expect(ranking.lineCount == 1)
        ranking.add([first, candidate("Milk, whole", generic: true)])
        #expect(ranking.lineCount == 2)
        let results = ranking.results(limit: 5)
        #expect(results.map(\.food.name) == ["Milk, whole", "MILK"])
        #expect(results.map(\.otherVersions) == [0, 1])
        #expect(results.map(\.food.name) == query.rank([first, candidate("Milk!"), candidate("Milk, whole", generic: true)],
                                                       limit: 5).map(\.food.name))
    }
}
