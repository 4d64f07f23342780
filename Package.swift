// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "cinn",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "cinn", targets: ["cinn"]),
        .library(name: "CinnCore", targets: ["CinnCore"]),
        .library(name: "CinnImport", targets: ["CinnImport"]),
        .library(name: "CinnStore", targets: ["CinnStore"]),
        .library(name: "CinnCharts", targets: ["CinnCharts"]),
        .library(name: "CinnJournal", targets: ["CinnJournal"]),
        .library(name: "CinnServer", targets: ["CinnServer"]),
        .library(name: "CinnSync", targets: ["CinnSync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
        // Exact: SQLiteBulkInsert reaches the connection's sqlite3 handle inside SQLiteNIO (see its comment),
        // checked against this version; a new one is checked again before the pin moves.
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
    ],
    targets: [
        .target(name: "CinnCore", resources: [.embedInCode("Workouts/exercises.tsv")]),
        .target(
            name: "CinnImport",
            dependencies: ["CinnCore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .target(name: "CinnSQLite"),
        // The OpenAPI document's bytes, by C23 #embed: as `.embedInCode` it would be a Swift array literal of 90,000
        // numbers, which takes about 20 s of CPU to compile.
        .target(name: "CinnOpenAPI"),
        // The built-in food file's bytes, by #embed too (`docs/FOODS.md` says how the file is made).
        .target(name: "CinnFoodData", exclude: ["foods.tsv", "portions.tsv"]),
        .target(
            name: "CinnStore",
            dependencies: [
                "CinnCore", "CinnSQLite", "CinnFoodData",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(name: "CinnCharts", dependencies: ["CinnCore"]),
        .target(
            name: "CinnSync",
            dependencies: [
                "CinnCore", "CinnStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CinnJournal",
            dependencies: [
                "CinnCore", "CinnImport", "CinnStore", "CinnSync",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .target(
            name: "CinnServer",
            dependencies: [
                "CinnCore", "CinnImport", "CinnStore", "CinnCharts", "CinnJournal", "CinnOpenAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["API/openapi.yaml"],
            // Templates, style sheets and scripts, in the binary: SwiftPM makes each a `PackageResources` byte array.
            resources: [
                .embedInCode("App/Templates"), .embedInCode("App/layout.css"), .embedInCode("App/Icons"),
                .embedInCode("App/manifest.webmanifest"), .embedInCode("App/Offline"),
                .embedInCode("Weight/Templates"), .embedInCode("Weight/trend-chart.js"),
                .embedInCode("Import/Templates"), .embedInCode("Import/progress.js"),
                .embedInCode("Settings/Templates"),
                .embedInCode("Food/Templates"), .embedInCode("Food/food.css"), .embedInCode("Food/food-search.js"),
                .embedInCode("Food/food-preview.js"), .embedInCode("Food/barcode-scan.js"), .embedInCode("Food/recipe-totals.js"),
                .embedInCode("Food/food-nom.js"),
                .embedInCode("Energy/Templates"), .embedInCode("Energy/energy.css"), .embedInCode("Energy/time-zone.js"),
                .embedInCode("Workouts/Templates"), .embedInCode("Workouts/workouts.css"),
                .embedInCode("Workouts/workout-log.js"),
                .embedInCode("Accounts/Templates"), .embedInCode("Accounts/accounts.css"), .embedInCode("Accounts/copy.js"),
                .embedInCode("Glucose/Templates"), .embedInCode("Glucose/glucose.css"), .embedInCode("Glucose/glucose-live.js"),
                .embedInCode("Health/Templates"), .embedInCode("Health/health.css"),
            ]
        ),
        .executableTarget(
            name: "cinn",
            dependencies: [
                "CinnCore", "CinnImport", "CinnStore", "CinnCharts", "CinnJournal", "CinnServer", "CinnSync",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "CinnCoreTests", dependencies: ["CinnCore", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "CinnImportTests", dependencies: ["CinnCore", "CinnImport"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "CinnStoreTests",
            dependencies: [
                "CinnCore", "CinnStore", "CinnImport", .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "AsyncKit", package: "async-kit"), .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ]
        ),
        .testTarget(name: "CinnChartsTests", dependencies: ["CinnCore", "CinnCharts"]),
        .testTarget(
            name: "CinnJournalTests",
            dependencies: ["CinnCore", "CinnStore", "CinnJournal", .product(name: "SQLKit", package: "sql-kit")]
        ),
        .testTarget(
            name: "CinnServerTests",
            dependencies: [
                "CinnCore", "CinnStore", "CinnServer", "CinnJournal", "CinnCharts",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["__Snapshots__"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CinnSyncTests",
            dependencies: [
                "CinnCore", "CinnStore", "CinnSync", "CinnServer", "CinnJournal",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        .testTarget(name: "cinnTests", dependencies: ["cinn"]),
    ],
    swiftLanguageModes: [.v6]
)
