import CinnCore
import Foundation

/// One CSV file of a MyFitnessPal export, read whole into memory (exports are small: years of diary
/// are a few MB), from the zip without unpacking it to disk, or from a folder.
struct MyFitnessPalFileSource {
    /// Its path inside the zip or folder, or its name.
    let name: String
    /// The kind its name says; nil for a lone file named otherwise, whose header then tells.
    let kind: MyFitnessPalExport.FileKind?
    let bytes: [UInt8]

    /// The largest file read from an export; a real one is far smaller.
    static let maximumSize = 64 * 1024 * 1024

    /// The export files at `url`: a zip, a folder (and the folders in it), or one CSV file.
    static func load(_ url: URL) throws(CinnError) -> [MyFitnessPalFileSource] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw .invalid("file", "there is no file or folder at \(url.path)")
        }
        if isFolder.boolValue { return try folder(url) }
        let (prefix, _) = try FileStart.read(url, count: 4)
        if prefix.starts(with: [0x50, 0x4B]) || url.pathExtension.lowercased() == "zip" { return try zip(url) }
        return [
            MyFitnessPalFileSource(
                name: url.lastPathComponent, kind: .init(fileName: url.lastPathComponent),
                bytes: try contents(of: url))
        ]
    }

    /// The export files inside a zip, wherever they are in it (MyFitnessPal puts them in `File-Export-…/`).
    private static func zip(_ url: URL) throws(CinnError) -> [MyFitnessPalFileSource] {
        let zip: ZipFile
        do {
            zip = try ZipFile(url: url)
        } catch {
            throw .invalid("file", "\(url.lastPathComponent) is not a ZIP archive that can be read")
        }
        var sources: [MyFitnessPalFileSource] = []
        var others: [String] = []
        for entry in zip.entries where !entry.isDirectory {
            let path = entry.path
            guard let kind = MyFitnessPalExport.FileKind(fileName: Self.lastComponent(path)) else {
                others.append(path)
                continue
            }
            sources.append(MyFitnessPalFileSource(name: path, kind: kind, bytes: try read(entry, of: zip)))
        }
        guard !sources.isEmpty else { throw noExportFiles(in: url.lastPathComponent, holding: others, what: "zip") }
        return sources.sorted { $0.name < $1.name }
    }

    /// An entry's bytes, decompressed in memory; throws past `maximumSize`, whatever its header claims.
    private static func read(_ entry: ZipFile.Entry, of zip: ZipFile) throws(CinnError) -> [UInt8] {
        let tooLarge = CinnError.invalid(
            "file", "\(entry.path) is larger than \(maximumSize >> 20) MB; a MyFitnessPal export file is far smaller")
        guard entry.uncompressedSize <= UInt64(maximumSize) else { throw tooLarge }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        do {
            try zip.extract(entry) { chunk in
                guard bytes.count + chunk.count <= maximumSize else { throw tooLarge }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as CinnError {
            throw error
        } catch {
            throw .invalid("file", "\(entry.path) cannot be unpacked from the zip: the zip is damaged")
        }
        return bytes
    }

    /// The export files in a folder and in the folders directly inside it (an unpacked `File-Export-…/`).
    private static func folder(_ url: URL) throws(CinnError) -> [MyFitnessPalFileSource] {
        var sources: [MyFitnessPalFileSource] = []
        var others: [String] = []
        for (file, name) in try listing(url) {
            guard let kind = MyFitnessPalExport.FileKind(fileName: file.lastPathComponent) else {
                others.append(name)
                continue
            }
            sources.append(MyFitnessPalFileSource(name: name, kind: kind, bytes: try contents(of: file)))
        }
        guard !sources.isEmpty else { throw noExportFiles(in: url.lastPathComponent, holding: others, what: "folder") }
        return sources.sorted { $0.name < $1.name }
    }

    /// The visible files of `url` and of its subfolders, each with its path relative to `url`.
    static func listing(_ url: URL) throws(CinnError) -> [(url: URL, name: String)] {
        let manager = FileManager.default
        func children(_ folder: URL) throws(CinnError) -> [URL] {
            do {
                return try manager.contentsOfDirectory(
                    at: folder, includingPropertiesForKeys: [.isDirectoryKey],
                    options: [.skipsHiddenFiles]
                )
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            } catch {
                throw .invalid("file", "cannot list the folder \(folder.lastPathComponent): \(error.localizedDescription)")
            }
        }
        func isFolder(_ url: URL) -> Bool { (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        var files: [(url: URL, name: String)] = []
        for child in try children(url) {
            guard isFolder(child) else {
                files.append((child, child.lastPathComponent))
                continue
            }
            for grandchild in try children(child) where !isFolder(grandchild) {
                files.append((grandchild, child.lastPathComponent + "/" + grandchild.lastPathComponent))
            }
        }
        return files
    }

    private static func contents(of url: URL) throws(CinnError) -> [UInt8] {
        let (_, size) = try FileStart.read(url, count: 0)
        guard size <= Int64(maximumSize) else {
            throw .invalid(
                "file", "\(url.lastPathComponent) is larger than \(maximumSize >> 20) MB; a MyFitnessPal export file is far smaller")
        }
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw .invalid("file", "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    /// The error for a zip or folder without any export file, naming what it holds instead.
    private static func noExportFiles(in name: String, holding others: [String], what: String) -> CinnError {
        let holds: String
        if others.isEmpty {
            holds = "it holds no files"
        } else {
            let shown = others.prefix(10).joined(separator: ", ")
            holds = "it holds \(shown)" + (others.count > 10 ? " and \(others.count - 10) more" : "")
        }
        let expected = MyFitnessPalExport.FileKind.allCases.map { "\($0.rawValue)….csv" }.joined(separator: ", ")
        return .invalid("file", "the \(what) \(name) holds none of the files of a MyFitnessPal export (\(expected)); \(holds)")
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? path
    }
}
