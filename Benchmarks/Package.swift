// swift-tools-version: 6.1
// Cinn's benchmarks: a package of its own, so that `swift build` and `swift test` of the main
// package never compile them. Run from this directory:
//
//     swift package --disable-sandbox benchmark
//
// See ../BENCHMARKS.md for what is measured and the latest numbers.
import PackageDescription

let package = Package(
    name: "cinn-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "cinn", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Only for the import benchmark's reference writer (already in the graph through sqlite-kit).
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "WeightEngine",
            dependencies: [
                "BenchmarkData",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CinnCore", package: "cinn"),
            ],
            path: "Benchmarks/WeightEngine",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WeightImport",
            dependencies: [
                "BenchmarkData",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnImport", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
                .product(name: "CinnJournal", package: "cinn"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            path: "Benchmarks/WeightImport",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Realistic weight data, shared by the benchmarks and the load test (no Cinn dependency).
        .target(name: "BenchmarkData", path: "Sources/BenchmarkData"),
        .executableTarget(name: "WeightCSVTool", dependencies: ["BenchmarkData"], path: "Sources/WeightCSVTool"),
        // The food database benchmarks, one step per command, and the app serving a
        // journal for wrk; run by food/run.sh.
        .executableTarget(
            name: "FoodBench",
            dependencies: [
                "BenchmarkData",
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnImport", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
            ],
            path: "Sources/FoodBench"
        ),
        // The energy and goals benchmarks: the journal's weigh-ins, profile and day marks,
        // and the energy report timed in process; run by energy/run.sh.
        .executableTarget(
            name: "EnergyBench",
            dependencies: [
                "BenchmarkData",
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
                .product(name: "CinnJournal", package: "cinn"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            path: "Sources/EnergyBench"
        ),
        // The workouts and strength benchmarks: the exercise page, the exercise list and their
        // store reads timed in process on a journal `cinn import` filled; run by workouts/run.sh.
        .executableTarget(
            name: "WorkoutBench",
            dependencies: [
                "BenchmarkData",
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
                .product(name: "CinnJournal", package: "cinn"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            path: "Sources/WorkoutBench"
        ),
        // The glucose benchmarks: the 30-day report and the day chart over a CGM's month, on
        // SQLite and PostgreSQL; run by glucose/run.sh.
        .executableTarget(
            name: "GlucoseBench",
            dependencies: [
                "BenchmarkData",
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnCharts", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
                .product(name: "CinnJournal", package: "cinn"),
            ],
            path: "Sources/GlucoseBench"
        ),
        // Push of 10,000 changes and pull of 100,000 over HTTP, SQLite and PostgreSQL; run by sync/run.sh.
        .executableTarget(
            name: "SyncBench",
            dependencies: [
                "BenchmarkData",
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
                .product(name: "CinnJournal", package: "cinn"),
                .product(name: "CinnServer", package: "cinn"),
                .product(name: "CinnSync", package: "cinn"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/SyncBench"
        ),
        // A year of CGM uploaded to the Nightscout API and read back over HTTP, SQLite and PostgreSQL; run by nightscout/run.sh.
        .executableTarget(
            name: "NightscoutBench",
            dependencies: [
                "BenchmarkData",
                .product(name: "CinnCore", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
                .product(name: "CinnJournal", package: "cinn"),
                .product(name: "CinnServer", package: "cinn"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/NightscoutBench"
        ),
        .executableTarget(
            name: "JournalServer",
            dependencies: [
                .product(name: "CinnJournal", package: "cinn"), .product(name: "CinnServer", package: "cinn"),
                .product(name: "CinnStore", package: "cinn"),
            ],
            path: "Sources/JournalServer"
        ),
        // The load test's reference: a minimal Hummingbird app answering a constant body.
        .executableTarget(
            name: "ReferenceServer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log")],
            path: "Sources/ReferenceServer"
        ),
    ],
    swiftLanguageModes: [.v6]
)
