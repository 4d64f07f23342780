import Testing

@testable import CinnCore

@Suite struct ExerciseCatalogueTests {
    let catalogue = ExerciseCatalogue.builtIn

    @Test func theBuiltInCatalogueHoldsAtLeast200Exercises() {
        #expect(catalogue.exercises.count >= 200)
        #expect(Set(catalogue.exercises.map(\.name)).count == catalogue.exercises.count)
        // Every equipment, muscle and kind is used: none is a spelling the file forgot.
        #expect(Set(catalogue.exercises.map(\.equipment)) == Set(CatalogueExercise.Equipment.allCases))
        #expect(Set(catalogue.exercises.map(\.primaryMuscle)) == Set(CatalogueExercise.Muscle.allCases))
        #expect(Set(catalogue.exercises.map(\.kind)) == Set(CatalogueExercise.Kind.allCases))
    }

    @Test func findsAnExerciseByAnyOfItsNamesInAnyWordOrder() throws {
        let bench = try #require(catalogue.exercise(named: "Bench Press (Barbell)"))
        #expect(bench.name == "Barbell Bench Press")
        #expect(bench.equipment == .barbell && bench.primaryMuscle == .chest && bench.kind == .weightReps)
        #expect(catalogue.exercise(named: "flat barbell bench press")?.name == "Barbell Bench Press")
        #expect(catalogue.exercise(named: "Back Squat")?.name == "Barbell Squat")
        #expect(catalogue.exercise(named: "Squat (Barbell)")?.name == "Barbell Squat")
        #expect(catalogue.exercise(named: "Plank")?.kind == .duration)
        #expect(catalogue.exercise(named: "Treadmill Run")?.kind == .distanceDuration)
        #expect(catalogue.exercise(named: "Underwater Basket Weaving") == nil)
    }

    @Test func searchPutsTheExercisesOwnNameFirstAndFewerWordsBeforeMore() {
        #expect(catalogue.search("bench").first?.name == "Barbell Bench Press")
        #expect(catalogue.search("curl").prefix(3).map(\.name).contains("Cable Curl"))
        let squats = catalogue.search("squat", limit: 100).map(\.name)
        #expect(squats.firstIndex(of: "Barbell Squat")! < squats.firstIndex(of: "Bulgarian Split Squat")!)
        // "Military Press" is an alias of Overhead Press, "Seated Military Press" of Seated Barbell Press.
        #expect(catalogue.search("military").map(\.name) == ["Overhead Press", "Seated Barbell Press"])
        #expect(catalogue.search("mil pre").map(\.name) == ["Overhead Press", "Seated Barbell Press"])
        #expect(catalogue.search("  ").isEmpty)
        #expect(catalogue.search("press", limit: 3).count == 3)
    }

    @Test func refusesABadLineNamingIt() {
        func error(_ text: String) -> String? {
            do {
                _ = try ExerciseCatalogue(tsv: text)
                return nil
            } catch { return (error as? CinnError)?.message }
        }
        #expect(error("# header\nPush Up\tbodyweight\tchest\treps\t\n") == nil)
        #expect(error("# header\nPush Up\tbodyweight\tchest\treps\n") == "line 2 has 4 fields, not 5")
        #expect(error("Push Up\tspoon\tchest\treps\t\n") == "line 1: no equipment \"spoon\"")
        #expect(error("Push Up\tbodyweight\tliver\treps\t\n") == "line 1: no muscle \"liver\"")
        #expect(error("Push Up\tbodyweight\tchest\tsets\t\n") == "line 1: no kind \"sets\"")
        #expect(
            error("Push Up\tbodyweight\tchest\treps\t\nPress Up\tbodyweight\tchest\treps\tUp, Push\n")
                == "line 2: \"Up, Push\" is already Push Up")
        #expect(error("Push Up\tbodyweight\tchest\treps\tPush-Up\n") == "line 1: \"Push-Up\" is already Push Up")
        #expect(error("(!)\tbodyweight\tchest\treps\t\n") == "line 1: an empty name")
    }
}
