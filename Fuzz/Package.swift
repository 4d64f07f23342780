// swift-tools-version: 6.1
// Fuzz targets of Cinn's readers, built with libFuzzer (`-sanitize=fuzzer`): see run.sh.
import PackageDescription

let package = Package(
    name: "CinnFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "cinn", path: "..")],
    targets: [
        .executableTarget(
            name: "CinnFuzz",
            dependencies: [.product(name: "CinnCore", package: "cinn"), .product(name: "CinnImport", package: "cinn")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
