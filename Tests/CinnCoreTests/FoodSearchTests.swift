import Foundation
import Testing

@testable import CinnCore

@Suite struct FoodSearchTests {
    func candidate(_ name: String, brand: String? = nil, generic: Bool = false, mine: Bool = false) -> FoodSearchCandidate {
        FoodSearchCandidate(
            id: UUID.v7(), name: name, brand: brand, source: generic ? .usda : .openFoodFacts, basis: .grams,
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
        let generic = candidate(
            "Spreads, peanuts, butters, creamyish, saltedx, organics, smoothie, crunchyx, spreadable, with vitamins added",
            generic: true)
        let mine = candidate("Toast", brand: "Peanut butter creamy salted organic smooth crunchy spread", mine: true)
        let results = query.rank([branded, generic, mine], limit: 3)
        #expect(results.map(\.food.id) == [mine.id, generic.id, branded.id])
    }

    @Test func wholeWordsComeBeforeAHalfTypedWord() throws {
        let query = try #require(FoodSearchQuery("salmon"))
        let results = query.rank(
            [
                candidate("Salmonberries, raw", generic: true), candidate("Fish, salmon, raw", generic: true),
                candidate("Salmon salad", generic: true),
            ], limit: 3)
        #expect(
            results.map(\.food.name) == ["Fish, salmon, raw", "Salmon salad", "Salmonberries, raw"],
            "the food after its USDA group starts the name")
        let typing = try #require(FoodSearchQuery("salmo"))
        #expect(
            typing.rank(
                [candidate("Fish, salmon, smoked", generic: true), candidate("Salmonberries, raw", generic: true)],
                limit: 2
            ).map(\.food.name) == ["Salmonberries, raw", "Fish, salmon, smoked"])
        #expect(
            typing.rank(
                [candidate("Fish, salmon, raw", generic: true), candidate("Salmonberries, raw", generic: true)],
                limit: 2
            ).map(\.food.name) == ["Fish, salmon, raw", "Salmonberries, raw"],
            "an everyday food comes first while its name is typed")
    }

    @Test func aPluralNameMatchesTheSingularQueryAsAWholeWord() throws {
        let query = try #require(FoodSearchQuery("apple"))
        let results = query.rank(
            [
                candidate("Strudel, apple", generic: true), candidate("Apples, raw, with skin", generic: true),
                candidate("Applesauce, canned", generic: true),
            ], limit: 3)
        #expect(results.map(\.food.name) == ["Apples, raw, with skin", "Strudel, apple", "Applesauce, canned"])
        let tomatoes = try #require(FoodSearchQuery("tomato"))
        #expect(
            tomatoes.rank(
                [candidate("Soup, tomato", generic: true), candidate("Tomatoes, red, raw", generic: true)],
                limit: 2
            ).first?.food.name == "Tomatoes, red, raw")
    }

    @Test func babyFoodAndRestaurantDishesRankBelowThePlainFoodUnlessAskedFor() throws {
        let foods = [
            candidate("Babyfood, banana", generic: true), candidate("McDONALD'S, Banana smoothie", generic: true),
            candidate("Bananas, dehydrated, or banana powder", generic: true),
        ]
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
        #expect(
            results.map(\.food.name)
                == query.rank(
                    [first, candidate("Milk!"), candidate("Milk, whole", generic: true)],
                    limit: 5
                ).map(\.food.name))
    }
}

/// What a person types is not always what USDA wrote: amounts, plurals, British spellings, synonyms and typos.
@Suite struct FoodSearchWordsTests {
    @Test(arguments: [
        ("a medium apple", ["apple"]), ("2 slices of bread", ["bread"]), ("cup of coffee", ["coffee"]),
        ("bowl of porridge", ["porridge"]), ("2% milk", ["2", "milk"]), ("large", ["large"]),
        ("mac and cheese", ["mac", "cheese"]),
    ])
    func amountsAndMeasuresAreLeftOut(_ text: String, _ tokens: [String]) throws {
        #expect(try #require(FoodSearchQuery(text)).tokens == tokens)
    }

    @Test func aWordMatchesItsOtherNumberAndItsSynonyms() throws {
        #expect(try #require(FoodSearchQuery("eggs")).alternatives == [["eggs", "egg"]])
        #expect(try #require(FoodSearchQuery("strawberry")).alternatives == [["strawberry", "strawberries"]])
        #expect(try #require(FoodSearchQuery("raspberrys")).alternatives == [["raspberrys", "raspberry", "raspberries"]])
        #expect(try #require(FoodSearchQuery("greek yoghurt")).alternatives == [["greek"], ["yoghurt", "yogurt"]])
        #expect(try #require(FoodSearchQuery("prawns")).alternatives == [["prawns", "prawn", "shrimp"]])
        // A rule with a context applies only beside its word.
        #expect(try #require(FoodSearchQuery("black coffee")).alternatives == [["black", "brewed"], ["coffee"]])
        #expect(try #require(FoodSearchQuery("black beans")).alternatives == [["black"], ["beans", "bean"]])
        #expect(
            try #require(FoodSearchQuery("semi skimmed milk")).alternatives
                == [["semi", "reduced"], ["skimmed", "skim", "fat"], ["milk"]])
    }

    @Test func alternativesSpellTheIndexQueriesAsGroups() throws {
        let query = try #require(FoodSearchQuery("greek yoghurt"))
        #expect(query.fts5(.whole) == #""greek" AND ("yoghurt" OR "yogurt")"#)
        #expect(query.fts5(.lastAsPrefix) == #""greek" AND ("yoghurt"* OR "yogurt"*)"#)
        #expect(query.typedFTS5(.lastAsPrefix) == #""greek" "yoghurt"*"#)
        #expect(query.tsquery(.lastAsPrefix) == "greek & (yoghurt:* | yogurt:*)")
    }

    @Test func aSynonymMatchesTheNameAsTheWordWould() throws {
        let query = try #require(FoodSearchQuery("aubergine"))
        let eggplant = FoodSearchCandidate(
            id: UUID.v7(), name: "Eggplant, raw", brand: nil, source: .usda, basis: .grams,
            isGeneric: true, isMine: false, lastUsed: nil, energyKcalPer100: 25, defaultServing: nil)
        let dip = FoodSearchCandidate(
            id: UUID.v7(), name: "Eggplant dip", brand: nil, source: .usda, basis: .grams,
            isGeneric: true, isMine: false, lastUsed: nil, energyKcalPer100: 120, defaultServing: nil)
        #expect(query.rank([dip, eggplant], limit: 2).map(\.food.name) == ["Eggplant, raw", "Eggplant dip"])
    }

    @Test func anEverydayFoodComesBeforeOthersThatMatchAsWell() throws {
        func generic(_ name: String) -> FoodSearchCandidate {
            FoodSearchCandidate(
                id: UUID.v7(), name: name, brand: nil, source: .usda, basis: .grams, isGeneric: true,
                isMine: false, lastUsed: nil, energyKcalPer100: 100, defaultServing: nil)
        }
        let query = try #require(FoodSearchQuery("rice"))
        let names = query.rank(["Rice cake", "Rice, fried, NFS", "Rice, cooked, NFS", "Rice milk"].map(generic), limit: 4)
            .map(\.food.name)
        #expect(names.first == "Rice, cooked, NFS")
        #expect(EverydayFoods.names.contains("Rice, cooked, NFS") && !EverydayFoods.names.contains("Rice, fried, NFS"))
    }

    @Test func aTypoIsCorrectedToTheNearestWordOfTheNames() throws {
        let vocabulary = FoodSearchVocabulary(names: [
            "Broccoli, raw", "Broccoli, cooked", "Bananas, raw", "Banana, raw",
            "Lettuce, raw", "Pineapple, raw", "Strawberries, raw", "Strawberry milk", "Coffee, brewed",
        ])
        func corrected(_ text: String) throws -> [[String]]? { try #require(FoodSearchQuery(text)).corrected(by: vocabulary)?.alternatives }
        #expect(try corrected("brocoli") == [["brocoli", "broccoli"]])
        #expect(try corrected("brocolli") == [["brocolli", "broccoli"]], "two edits in a word of 8 letters")
        #expect(try corrected("bannana") == [["bannana", "banana"]], "the word more names hold")
        #expect(try corrected("letuce") == [["letuce", "lettuce"]])
        #expect(try corrected("pinapple") == [["pinapple", "pineapple"]])
        #expect(try corrected("strawbery") == [["strawbery", "strawberies", "strawberry", "strawberries"]])
        #expect(try corrected("broccoli") == nil, "a known word is left alone")
        #expect(try corrected("cof") == nil, "a half-typed word some name begins with")
        #expect(try corrected("kiwi") == nil, "nothing is near enough")
        #expect(try corrected("xyz") == nil, "too short to guess")
    }

    @Test func editDistanceCountsASwapOnce() {
        func distance(_ a: String, _ b: String, _ limit: Int = 3) -> Int? {
            FoodSearchVocabulary.distance(Array(a.utf8), Array(b.utf8), within: limit)
        }
        #expect(distance("broccoli", "broccoli") == 0)
        #expect(distance("brocoli", "broccoli") == 1)
        #expect(distance("chesee", "cheese") == 1, "two letters swapped")
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("kitten", "sitting", 2) == nil)
    }

    @Test func aSearchOfSeveralWordsCanLeaveEachOutLastFirst() throws {
        let query = try #require(FoodSearchQuery("tuna in water"))
        #expect(query.eachWordLeftOut.map(\.tokens) == [["tuna"], ["water"]])
        #expect(try #require(FoodSearchQuery("tuna")).eachWordLeftOut.isEmpty)
    }
}
