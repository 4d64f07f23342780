import CinnCore
import Foundation

/// Reads an Apple Health export (`export.zip`, or its `export.xml`) in one pass, streaming: the XML is
/// decompressed and scanned chunk by chunk on a thread of its own while the caller writes the batches it
/// hands over (docs/FORMATS.md §1). Records nested in a Food correlation are copies of top-level ones and are
/// not read twice.
public enum AppleHealthReader {
    /// Journal records found, handed over in batches.
    public typealias Batch = ImportedHealthRecords

    /// What the whole export held.
    public struct Summary: Sendable {
        /// Top-level records read.
        public var records = 0
        /// Workouts read.
        public var workouts = 0
        /// Records of types Cinn does not keep (neither quantities nor categories, such as a sleep goal), by type.
        public var skippedTypes: [String: Int] = [:]
        /// The other quantity and category types' records, summed up per type and local day.
        public var days: [HealthDaySummary] = []
        /// When the phone wrote the export (its `<ExportDate>`): a newer export's day summaries replace an older one's.
        public var exportedAt: Date?
        /// Records that could not be read, with their line (at most `ImportReport.maximumListedRejections`).
        public var rejected: [RejectedRow] = []
        public var rejectedCount = 0
    }

    /// The export.xml inside an export.zip: `apple_health_export/export.xml`, or any entry named export.xml.
    static func exportEntry(_ zip: ZipFile) -> ZipFile.Entry? {
        zip.entries.first { $0.path == "apple_health_export/export.xml" }
            ?? zip.entries.first { entry in
                !entry.isDirectory && (entry.path == "export.xml" || entry.path.hasSuffix("/export.xml"))
            }
    }

    /// Whether `url` looks like an Apple Health export: a zip holding an export.xml, or XML whose root is HealthData.
    public static func recognises(url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4096)) ?? Data()
        if start.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            guard let zip = try? ZipFile(url: url) else { return false }
            return exportEntry(zip) != nil
        }
        // The DTD comes first and runs for pages: its DOCTYPE names the root.
        let text = String(decoding: start, as: UTF8.self)
        return text.contains("<!DOCTYPE HealthData") || text.contains("<HealthData")
    }

    /// Batches the reading thread may be ahead of the writer. An export lists its records type by type, so journal
    /// records (120,000 glucose readings in a year of a CGM) come in one run that the writer takes longer over than
    /// the reader, and the rest (heart rate, steps…) only add up day summaries: 12 batches of 5,000 (about 9 MB
    /// of glucose readings) let the reader go on while the writer catches up.
    static let batchesAhead = 12

    /// Reads the export at `url`, calling `onBatch` with up to `batchSize` records at a time and
    /// `progress` as bytes go by. Throws `invalidInput` naming line and column for XML that is cut off or
    /// malformed, and naming the zip when it holds no export.xml.
    public static func read(
        url: URL, batchSize: Int = 5000, progress: @escaping @Sendable (ImportProgress) -> Void = { _ in },
        onBatch: (Batch) async throws -> Void
    ) async throws -> Summary {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Batch.self)
        let room = DispatchSemaphore(value: batchesAhead)
        let stop = StopFlag()
        let summary = SummaryBox()
        let thread = Thread {
            do {
                var mapper = Mapper(batchSize: batchSize) { batch in
                    room.wait()
                    if stop.isSet { throw CancellationError() }
                    continuation.yield(batch)
                }
                try chunks(of: url) { chunk, bytesRead, totalBytes in
                    if stop.isSet { throw CancellationError() }
                    try mapper.feed(chunk)
                    progress(ImportProgress(bytesRead: bytesRead, totalBytes: totalBytes, rowsRead: mapper.summary.records))
                }
                try mapper.finish()
                summary.value = mapper.summary
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
        do {
            for try await batch in stream {
                room.signal()
                try await onBatch(batch)
            }
        } catch {
            stop.set()
            room.signal()
            for try await _ in stream { room.signal() }
            throw error
        }
        return summary.value
    }

    /// The decompressed bytes of the export's XML, chunk by chunk, with the bytes read so far and the total.
    static func chunks(of url: URL, _ body: (UnsafeRawBufferPointer, Int64, Int64?) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: url)
        let magic = try handle.read(upToCount: 4) ?? Data()
        try handle.close()
        var read: Int64 = 0
        if magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            let zip: ZipFile
            do {
                zip = try ZipFile(url: url)
            } catch {
                throw CinnError.invalid("file", "\(url.lastPathComponent) is not a readable zip file")
            }
            guard let entry = exportEntry(zip) else {
                throw CinnError.invalid(
                    "file", "\(url.lastPathComponent) holds no apple_health_export/export.xml: not an Apple Health export")
            }
            let total = Int64(entry.uncompressedSize)
            // Decompressed on a thread of its own, a few chunks ahead, while this one scans.
            let inflated = ChunkQueue(capacity: 2)
            let inflater = Thread {
                do {
                    try zip.extract(entry, bufferSize: 1 << 20) { data in
                        guard inflated.put(data) else { throw CancellationError() }
                    }
                    inflated.finish(nil)
                } catch {
                    inflated.finish(error)
                }
            }
            inflater.stackSize = 1 << 20
            inflater.start()
            defer { inflated.cancel() }
            do {
                while let data = try inflated.take() {
                    read += Int64(data.count)
                    try data.withUnsafeBytes { try body($0, read, total) }
                }
            } catch let error as CinnError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw CinnError.invalid(
                    "file",
                    "\(url.lastPathComponent) is damaged: its export.xml cannot be decompressed; export it from the Health app again")
            }
            return
        }
        let file = try FileHandle(forReadingFrom: url)
        defer { try? file.close() }
        let total = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        while let data = try file.read(upToCount: 1 << 20), !data.isEmpty {
            read += Int64(data.count)
            try data.withUnsafeBytes { try body($0, read, total) }
        }
    }

    /// Chunks handed from the decompressing thread to the scanning one, at most `capacity` waiting.
    final class ChunkQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private let capacity: Int
        private var chunks: [Data] = []
        private var finished = false
        private var failure: (any Error)?
        private var cancelled = false

        init(capacity: Int) { self.capacity = capacity }

        /// Adds a chunk, waiting while `capacity` chunks wait; false once the reader has stopped.
        func put(_ chunk: Data) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while chunks.count >= capacity && !cancelled { condition.wait() }
            guard !cancelled else { return false }
            chunks.append(chunk)
            condition.broadcast()
            return true
        }

        /// There are no more chunks; `error` when making them failed.
        func finish(_ error: (any Error)?) {
            condition.lock()
            defer { condition.unlock() }
            finished = true
            failure = error
            condition.broadcast()
        }

        /// The next chunk, or nil after the last; throws, after the chunks made before it, the error that ended them.
        func take() throws -> Data? {
            condition.lock()
            defer { condition.unlock() }
            while chunks.isEmpty && !finished { condition.wait() }
            guard chunks.isEmpty else {
                condition.broadcast()
                return chunks.removeFirst()
            }
            if let failure { throw failure }
            return nil
        }

        /// The reader stops: a waiting writer is let go, and the chunks are dropped.
        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            chunks = []
            condition.broadcast()
        }
    }

    private final class StopFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        var isSet: Bool { lock.withLock { stopped } }
        func set() { lock.withLock { stopped = true } }
    }

    private final class SummaryBox: @unchecked Sendable {
        var value = Summary()
    }
}

extension AppleHealthReader {
    /// Turns tags into Cinn's records.
    struct Mapper {
        private var scanner = HealthXMLScanner()
        private(set) var summary = Summary()
        private var batch = Batch()
        private let batchSize: Int
        private let deliver: (Batch) throws -> Void
        /// The elements open around the current tag, innermost last (only those the mapper follows).
        private var parents: [Element] = []
        /// A top-level record whose children (metadata) are still coming.
        private var pending: HealthRecord?
        private var food = HealthFoodCollector()
        private var workout: HealthWorkoutBuilder?
        private var days = HealthDayCollector()
        private var strings = HealthRecord.Strings()
        private var memo = HealthRecord.Memo()
        /// The last record type seen and what becomes of its records: an export lists its records type by type.
        private var lastType: (type: String, kind: HealthRecord.Kind)?

        enum Element { case root, record, correlation, workout, other }

        init(batchSize: Int, deliver: @escaping (Batch) throws -> Void) {
            self.batchSize = batchSize
            self.deliver = deliver
        }

        mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
            var scanner = self.scanner
            defer { self.scanner = scanner }
            try scanner.feed(chunk) { tag in try handle(tag) }
        }

        mutating func finish() throws {
            try scanner.finish()
            for entry in try food.entries() {
                batch.foodEntries.append(entry)
                if batch.count >= batchSize {
                    try deliver(batch)
                    batch = Batch()
                }
            }
            if batch.count > 0 { try deliver(batch) }
            batch = Batch()
            summary.days = days.days
        }

        private mutating func handle(_ tag: HealthXMLScanner.Tag) throws {
            switch tag.kind {
            case .end:
                let closed = parents.popLast()
                if closed == .record, parents.last == .root, let record = pending {
                    pending = nil
                    try keep(record)
                } else if closed == .correlation {
                    food.endCorrelation()
                } else if closed == .workout, let finished = workout {
                    workout = nil
                    try add(finished)
                }
            case .start, .empty:
                let parent = parents.last
                let element: Element
                if parent == nil {
                    element = .root
                } else if tag.isNamed("Record") {
                    element = .record
                    if parent == .root {
                        summary.records += 1
                        guard summary.records <= ImportLimits.appleHealthRecords else {
                            throw ImportLimits.exceeded(ImportLimits.appleHealthRecords, "records")
                        }
                        let record = try HealthRecord(tag, strings: &strings)
                        if tag.kind == .empty { try keep(record) } else { pending = record }
                    } else if parent == .correlation {
                        food.addToCorrelation(try HealthRecord(tag, strings: &strings))
                    }
                } else if tag.isNamed("MetadataEntry") {
                    element = .other
                    if parent == .record, parents.count == 2, pending != nil {
                        pending?.addMetadata(tag)
                    } else if parent == .correlation, tag.value("key", is: "HKFoodType"), let name = tag.value("value") {
                        food.correlationName(name)
                    } else if parent == .workout, tag.value("key", is: "HKTimeZone") {
                        workout?.timeZone = tag.value("value")
                    }
                } else if tag.isNamed("Correlation") {
                    element = .correlation
                    if parent == .root, tag.value("type", is: "HKCorrelationTypeIdentifierFood") {
                        let record = try HealthRecord(tag, strings: &strings)
                        food.startCorrelation(
                            source: record.sourceName, start: record.start, end: record.end, offset: record.utcOffsetSeconds)
                    }
                } else if tag.isNamed("Workout") {
                    element = .workout
                    if parent == .root {
                        let started = try HealthWorkoutBuilder(tag)
                        if tag.kind == .empty { try add(started) } else { workout = started }
                    }
                } else if tag.isNamed("ExportDate") {
                    element = .other
                    if parent == .root { summary.exportedAt = tag.withValueBytes("value", HealthDate.init(bytes:))??.date }
                } else if tag.isNamed("WorkoutStatistics") {
                    element = .other
                    if parent == .workout { workout?.addStatistics(tag) }
                } else {
                    element = .other
                }
                if tag.kind == .start { parents.append(element) }
            }
        }

        private mutating func add(_ builder: HealthWorkoutBuilder) throws {
            summary.workouts += 1
            do {
                batch.workouts.append(try builder.workout.validated())
            } catch {
                summary.rejectedCount += 1
                if summary.rejected.count < ImportReport.maximumListedRejections {
                    summary.rejected.append(RejectedRow(line: builder.line, field: error.field, reason: "a <Workout>: " + error.message))
                }
            }
            if batch.count >= batchSize {
                try deliver(batch)
                batch = Batch()
            }
        }

        private mutating func keep(_ record: HealthRecord) throws {
            let kind: HealthRecord.Kind
            if let lastType, lastType.type == record.type {
                kind = lastType.kind
            } else {
                kind = HealthRecord.Kind(record.type)
                lastType = (record.type, kind)
            }
            do {
                try record.map(kind, into: &batch, food: &food, days: &days, skipped: &summary.skippedTypes, memo: &memo)
            } catch let error as CinnError {
                summary.rejectedCount += 1
                if summary.rejected.count < ImportReport.maximumListedRejections {
                    summary.rejected.append(RejectedRow(line: record.line, field: error.field, reason: error.message))
                }
            }
            if batch.count >= batchSize {
                try deliver(batch)
                batch = Batch()
            }
        }
    }
}

/// One top-level `<Record>`, as much as the journal needs of it.
struct HealthRecord {
    let type: String
    let unit: String?
    let value: String?
    let sourceName: String
    let start: HealthDate
    let end: HealthDate
    let line: Int
    /// The metadata the mapping reads: `HKBloodGlucoseMealTime`, `HKInsulinDeliveryReason` and `HKTimeZone`.
    var mealTime: String?
    var insulinReason: String?
    var timeZone: String?
    /// A Health Auto Export point's type, time and source without its value: sent again with another value (a bucket
    /// that grew), it is the same record changed (`externalID`).
    var bucket: String?

    /// What becomes of a type's records.
    enum Kind {
        case bodyMass, bodyFat, glucose, insulin
        /// A dietary type: a nutrient of a food entry.
        case nutrient(Nutrient)
        /// Other quantities and categories, summed up per day (HealthDayCollector).
        case quantity, category
        /// Neither a quantity nor a category: counted as skipped.
        case skipped

        init(_ type: String) {
            switch type {
            case "HKQuantityTypeIdentifierBodyMass": self = .bodyMass
            case "HKQuantityTypeIdentifierBodyFatPercentage": self = .bodyFat
            case "HKQuantityTypeIdentifierBloodGlucose": self = .glucose
            case "HKQuantityTypeIdentifierInsulinDelivery": self = .insulin
            default:
                if let nutrient = HealthFoodCollector.nutrient(type) {
                    self = .nutrient(nutrient)
                } else {
                    self =
                        type.hasPrefix("HKQuantityTypeIdentifier")
                        ? .quantity : type.hasPrefix("HKCategoryTypeIdentifier") ? .category : .skipped
                }
            }
        }
    }

    /// The strings that repeat from record to record, each made once (see `RecentStrings`).
    struct Strings {
        var types = RecentStrings(), units = RecentStrings(), sources = RecentStrings()
    }

    init(_ tag: HealthXMLScanner.Tag, strings: inout Strings) throws {
        guard let type = tag.withValueBytes("type", { strings.types.string($0) }) else {
            throw CinnError.invalid("export.xml", "export.xml line \(tag.line), column \(tag.column): a <\(tag.nameText)> without its type")
        }
        self.type = type
        unit = tag.withValueBytes("unit") { strings.units.string($0) }
        value = tag.value("value")
        sourceName = tag.withValueBytes("sourceName") { strings.sources.string($0) } ?? ""
        (start, end) = try Self.dates(tag)
        line = tag.line
    }

    /// A record that did not come from export.xml (a Health Auto Export point), its line 0.
    init(type: String, unit: String?, value: String?, sourceName: String, start: HealthDate, end: HealthDate) {
        self.type = type
        self.unit = unit
        self.value = value
        self.sourceName = sourceName
        self.start = start
        self.end = end
        line = 0
    }

    /// Keeps a `<MetadataEntry>` child's value when the mapping reads its key.
    mutating func addMetadata(_ tag: HealthXMLScanner.Tag) {
        if tag.value("key", is: "HKBloodGlucoseMealTime") {
            mealTime = tag.value("value")
        } else if tag.value("key", is: "HKInsulinDeliveryReason") {
            insulinReason = tag.value("value")
        } else if tag.value("key", is: "HKTimeZone") {
            timeZone = tag.value("value")
        }
    }

    /// A tag's startDate and endDate.
    static func dates(_ tag: HealthXMLScanner.Tag) throws -> (start: HealthDate, end: HealthDate) {
        func date(_ key: StaticString) throws -> HealthDate {
            guard let date = tag.withValueBytes(key, HealthDate.init(bytes:)) ?? nil else {
                throw CinnError.invalid(
                    "export.xml",
                    "export.xml line \(tag.line), column \(tag.column): the \(key) of a <\(tag.nameText)> is not a date like 2024-03-09 07:41:03 -0500"
                )
            }
            return date
        }
        return (try date("startDate"), try date("endDate"))
    }

    /// The record's identity across exports of the same phone: type, start, end, value, unit and source. A Health Auto
    /// Export point's is `hae:BUCKET:VALUE`, so that the bucket finds the record a later delivery changes.
    var externalID: String {
        if let bucket { return "hae:\(bucket):" + ContentHash.of([value ?? "", unit ?? ""]).hex }
        return "apple:" + ContentHash.of([type, start.text, end.text, value ?? "", unit ?? "", sourceName]).hex
    }

    /// The UTC offset the record's local day comes from: its `HKTimeZone` when it has one, else its date's own.
    var utcOffsetSeconds: Int {
        if let zone = timeZone.flatMap(TimeZone.init(identifier:)) { return zone.secondsFromGMT(for: start.date) }
        return start.utcOffsetSeconds
    }

    private func number() throws -> Double {
        guard let text = value, let number = Double(text), number.isFinite else {
            throw CinnError.invalid("value", "\(type) needs a number as its value, not \(value.map { "\"\($0)\"" } ?? "none")")
        }
        return number
    }

    /// What mapping works out once and reuses from record to record: the ids' random bits (a fast generator seeded once,
    /// not a system call per record) and the last glucose unit read.
    struct Memo {
        var ids = SplitMix64()
        var glucoseUnit: (spelling: String, unit: GlucoseUnit?)?
    }

    func map(
        _ kind: Kind, into batch: inout AppleHealthReader.Batch, food: inout HealthFoodCollector, days: inout HealthDayCollector,
        skipped: inout [String: Int], memo: inout Memo
    ) throws {
        // A record of a year Cinn does not store (a device's clock at 0001) is rejected alone, not the export.
        _ = try ValidValues.instant(start.date, field: "startDate")
        switch kind {
        case .bodyMass:
            guard let unit = MassUnit(spelling: unit ?? "") else {
                throw CinnError.invalid("unit", "body mass in \"\(unit ?? "")\": Cinn reads kg, lb and st")
            }
            let weight = try Mass.bodyWeight(try number(), unit, field: "value")
            batch.weighIns.append(
                ImportedWeighIn(
                    measuredAt: start.date, utcOffsetSeconds: utcOffsetSeconds, weight: weight,
                    externalID: externalID, line: line))
        case .bodyFat:
            // A fraction (0.162 is 16.2 %), whatever the unit says (docs/FORMATS.md §1.3).
            var fraction = try number()
            if fraction > 1 { fraction /= 100 }
            guard BodyFatReading.percentRange.contains(fraction * 100) else {
                throw CinnError.invalid("value", "body fat of \(value ?? "") is outside 2–75 %")
            }
            batch.bodyFat.append(
                ImportedBodyFat(
                    reading: BodyFatReading(measuredAt: start.date, utcOffsetSeconds: utcOffsetSeconds, fraction: fraction),
                    externalID: externalID))
        case .glucose:
            let spelling = unit ?? ""
            if memo.glucoseUnit?.spelling != spelling { memo.glucoseUnit = (spelling, GlucoseUnit(spelling: spelling)) }
            guard let glucoseUnit = memo.glucoseUnit?.unit else {
                throw CinnError.invalid("unit", "blood glucose in \"\(unit ?? "")\": Cinn reads mg/dL and mmol<…>/L")
            }
            let glucose = try Glucose.validated(try number(), glucoseUnit, field: "value")
            let timing: MealTiming? =
                switch mealTime {
                case "1": .beforeMeal
                case "2": .afterMeal
                default: nil
                }
            batch.glucose.append(
                GlucoseReading(
                    id: .v7(at: start.date, using: &memo.ids), measuredAt: start.date, utcOffsetSeconds: utcOffsetSeconds, glucose: glucose,
                    timing: timing,
                    source: sourceName, externalID: externalID))
        case .insulin:
            let insulinKind: InsulinKind =
                switch insulinReason {
                case "1": .basal
                case "2": .bolus
                default:
                    throw CinnError.invalid(
                        "HKInsulinDeliveryReason", "insulin delivery without HKInsulinDeliveryReason 1 (basal) or 2 (bolus)")
                }
            let units = try InsulinDose.validatedUnits(try number(), field: "value")
            batch.insulin.append(
                InsulinDose(
                    id: .v7(at: start.date, using: &memo.ids), takenAt: start.date, utcOffsetSeconds: utcOffsetSeconds, units: units,
                    kind: insulinKind,
                    source: sourceName, externalID: externalID))
        case .nutrient(let nutrient):
            try food.add(self, nutrient)
        case .quantity:
            try days.add(self, category: false)
        case .category:
            try days.add(self, category: true)
        case .skipped:
            skipped[type, default: 0] += 1
        }
    }
}

/// Strings of attribute values that repeat from record to record (a type, a unit, a source), each made once
/// rather than once per record: the last few are kept with their bytes, and bytes seen before give the same String.
struct RecentStrings {
    private var entries: [(bytes: [UInt8], string: String)] = []
    private var replaced = 0
    static let capacity = 8

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        for entry in entries where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, base, bytes.count) }) == 0 { return entry.string }
        }
        let string = HealthXMLScanner.unescaped(bytes)
        if entries.count < Self.capacity {
            entries.append((Array(bytes), string))
        } else {
            entries[replaced] = (Array(bytes), string)
            replaced = (replaced + 1) % Self.capacity
        }
        return string
    }
}

/// A date as the export writes it, `2024-03-09 07:41:03 -0500`: the instant and the offset it was written in.
struct HealthDate {
    let milliseconds: Int64
    let utcOffsetSeconds: Int

    var date: Date { Date(millisecondsSince1970: milliseconds) }

    var text: String { SyncInstant(milliseconds: milliseconds, utcOffsetSeconds: utcOffsetSeconds).text }

    init(milliseconds: Int64, utcOffsetSeconds: Int) {
        self.milliseconds = milliseconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 25, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: " "),
            bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-")
        else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
            let minute = digits(14, 2), let second = digits(17, 2), let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61, offsetHours <= 18,
            let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[20] == UInt8(ascii: "-") ? -1 : 1)
        let local = Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        milliseconds = (local - Int64(offset)) * 1000
        utcOffsetSeconds = offset
    }
}
