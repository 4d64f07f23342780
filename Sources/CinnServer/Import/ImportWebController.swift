import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The import pages: upload a file, see what it holds, answer its unit, import it (with progress), and undo an import.
/// The page's script only adds progress; without it the forms still work.
struct ImportWebController {
    typealias Context = JournalRequestContext
    /// Where uploads wait between "check the file" and "import" (their form fields wait in the database): every server
    /// on one database is given the same directory.
    let pendingDirectory: URL

    func addRoutes(to router: RouterGroup<Context>) {
        router.get(Site.importing, use: importForm)
        router.post(Site.importing, use: checkImport)
        router.post(Site.waitingImport, use: runImport)
        router.post(Site.waitingImportUnit, use: recheckImport)
        router.post(Site.waitingImportDateOrder, use: recheckDateOrder)
        router.get(Site.importProgress, use: importProgress)
        router.get(Site.undoImport, use: confirmUndoImport)
        router.post(Site.undoImport, use: undoImport)
    }

    @Sendable func importForm(_ request: Request, context: Context) async throws -> WebAnswer {
        .page(try await renderImportForm(context, notice: Done.notice(request)), status: .ok)
    }

    func renderImportForm(_ context: Context, error: String? = nil, notice: String? = nil) async throws -> Page {
        let batches = try await context.journal.imports()
        let formats = Journal.importFormats.filter {
            FoodDatabaseFormat(rawValue: $0) == nil || FoodDatabaseFormat.mayImport(context.account)
        }
        let model = ImportPage(
            formats: formats, batches: batches, timeZone: try await context.journal.settings().timeZone,
            formError: error)
        return Page("import", model, title: "Import", tab: .importing, notice: notice)
    }

    /// Receives the upload, keeps it aside under a token, and shows what importing it would do.
    @Sendable func checkImport(_ request: Request, context: Context) async throws -> WebAnswer {
        let upload = try await MultipartUpload.receive(request, fileField: "file", maximumBytes: maximumImportBytes)
        guard let file = upload.file else { throw CinnError.invalid("file", "choose a file to import") }
        let form: ImportForm
        do {
            form = try upload.decodeFields(ImportForm.self)
            try FoodDatabaseFormat.checkImport(form.format, account: context.account)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        var pending = PendingImport(directory: pendingDirectory, token: UUID().lowercasedString, fields: [:])
        pending.format = form.format
        pending.unit = form.unit
        pending.dateOrder = form.dateOrder
        pending.fileName = upload.fileName
        pending.skipInvalid = form.$skipInvalid.isTrue
        do {
            try await pending.keep(file: file, journal: context.journal)
        } catch {
            try? FileManager.default.removeItem(at: file)
            await pending.discard(context.journal)
            throw error
        }
        return try await check(context, pending, progressID: ImportProgressBoard.validID(form.progress))
    }

    /// A kept upload whose file did not say its unit, checked again with the unit the person chose.
    @Sendable func recheckImport(_ request: Request, context: Context) async throws -> WebAnswer {
        var pending = try await waiting(context)
        let form = try await request.decodeForm(ImportForm.self)
        pending.unit = try MassUnit.parse(form.unit ?? "", field: "unit").rawValue
        try await pending.saveFields(context.journal)
        return try await check(context, pending, progressID: nil)
    }

    /// A kept upload whose dates (a spreadsheet's) did not say their order, checked again with the order chosen.
    @Sendable func recheckDateOrder(_ request: Request, context: Context) async throws -> WebAnswer {
        var pending = try await waiting(context)
        let form = try await request.decodeForm(ImportForm.self)
        pending.dateOrder = try MyFitnessPalExport.DateOrder.parse(form.dateOrder ?? "").rawValue
        try await pending.saveFields(context.journal)
        return try await check(context, pending, progressID: nil)
    }

    /// The upload kept under the request's token, if it is this user's.
    /// - Parameter claiming: taken for its import: no other request finds it afterwards.
    private func waiting(_ context: Context, claiming: Bool = false) async throws -> PendingImport {
        guard let token = context.parameters.get("token"), UUID(text: token) != nil,
            let fields = try await context.journal.waitingUpload(token: token, claiming: claiming)
        else {
            throw CinnError.notFound("this import is no longer waiting; upload the file again")
        }
        return PendingImport(directory: pendingDirectory, token: token, fields: fields)
    }

    /// Shows what importing a kept upload would do. A file that does not say its unit asks for it (and stays kept);
    /// a file that cannot be read shows why beside the form.
    private func check(_ context: Context, _ pending: PendingImport, progressID: String?) async throws -> WebAnswer {
        do {
            let report = try await ImportProgressBoard.tracking(context.journal, progressID, phase: "checking") { progress in
                try await pending.run(journal: context.journal, dryRun: true, progress: progress)
            }
            let model = ImportReportPage(report: report, token: pending.token, skipInvalid: pending.skipInvalid)
            if model.token == nil { await pending.discard(context.journal) }
            return .page("import-report", model, title: "Import", tab: .importing)
        } catch let error as CinnError where error.code == .invalidInput && ImportQuestionPage.asks(error) {
            let model = ImportQuestionPage(error, token: pending.token, fileName: pending.fileName)
            return .page("import-question", model, title: "Import", tab: .importing, status: .unprocessableContent)
        } catch let error as CinnError where error.code == .invalidInput {
            await pending.discard(context.journal)
            return .page(try await renderImportForm(context, error: error.message), status: .unprocessableContent)
        } catch {
            await pending.discard(context.journal)
            throw error
        }
    }

    @Sendable func runImport(_ request: Request, context: Context) async throws -> WebAnswer {
        var pending = try await waiting(context, claiming: true)
        // "Import the good rows" of a file with invalid ones (in the query: the form may be sent as multipart by its script).
        if request.query("skip_invalid") == "true" { pending.skipInvalid = true }
        let report: ImportReport
        do {
            report = try await ImportProgressBoard.tracking(context.journal, pending.token, phase: "importing") { progress in
                try await pending.run(journal: context.journal, dryRun: false, progress: progress)
            }
        } catch {
            await pending.discard(context.journal)
            throw error
        }
        await pending.discard(context.journal)
        let model = ImportReportPage(report: report, token: nil, skipInvalid: pending.skipInvalid)
        return .page("import-report", model, title: "Import", tab: .importing)
    }

    /// How far the import polling with `id` has got, as JSON; 404 when there is none.
    @Sendable func importProgress(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let id = ImportProgressBoard.validID(context.parameters.get("id")),
            let entry = try await ImportProgressBoard.entry(id, journal: context.journal)
        else {
            throw CinnError.notFound("no import in progress with that id")
        }
        let body = try JSONEncoder().encode(entry)
        return .response(
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))))
    }

    @Sendable func confirmUndoImport(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let id = context.parameters.get("id").flatMap(Int64.init),
            let batch = try await context.journal.imports().first(where: { $0.id == id })
        else {
            throw CinnError.notFound("no such import")
        }
        guard batch.undoneAt == nil else { return .redirect(Site.importing.path) }
        let model = UndoImportPage(
            batch: batch, contents: try await context.journal.importContents(id: id),
            timeZone: try await context.journal.settings().timeZone)
        return .page("undo-import", model, title: "Undo import", tab: .importing)
    }

    @Sendable func undoImport(_ request: Request, context: Context) async throws -> WebAnswer {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw CinnError.notFound("no such import") }
        try await context.journal.undoImport(id: id)
        return Done.importUndone.redirect(to: Site.importing.path)
    }
}

/// The import form's fields: the upload's format and unit, a spreadsheet's date order, whether to skip invalid rows, and
/// the id its progress is polled by; the question pages send the unit or the date order again.
struct ImportForm: Decodable {
    @Field var format: String?
    @Field var unit: String?
    @Field var dateOrder: String?
    @Field var progress: String?
    /// "Import the good rows even if some are invalid".
    @Field var skipInvalid: String?

    enum CodingKeys: String, CodingKey {
        case format, unit, progress
        case dateOrder = "date_order"
        case skipInvalid = "skip_invalid"
    }
}

/// An uploaded file kept between the check (a dry run) and the import: the file in the upload directory, its form
/// fields in the database (which also says whose it is).
struct PendingImport {
    let directory: URL
    let token: String
    /// As the database keeps them.
    private(set) var fields: [String: String]

    init(directory: URL, token: String, fields: [String: String]) {
        self.directory = directory
        self.token = token
        self.fields = fields
    }

    var file: URL { directory.appendingPathComponent("\(token).upload") }

    var format: String? {
        get { fields["format"].flatMap { $0.isEmpty ? nil : $0 } }
        set { fields["format"] = newValue }
    }
    var unit: String? {
        get { fields["unit"].flatMap { $0.isEmpty ? nil : $0 } }
        set { fields["unit"] = newValue }
    }
    var dateOrder: String? {
        get { fields["date_order"].flatMap { $0.isEmpty ? nil : $0 } }
        set { fields["date_order"] = newValue }
    }
    /// The uploaded file's name, as the person's computer gave it.
    var fileName: String? {
        get { fields["file_name"] }
        set { fields["file_name"] = newValue }
    }
    var skipInvalid: Bool {
        get { fields["skip_invalid"] == "true" }
        set { fields["skip_invalid"] = newValue ? "true" : nil }
    }

    /// How long an upload waits for its "import" before it is removed.
    static let lifetime: TimeInterval = 3600

    /// Moves the upload into the directory and records it as `journal`'s; uploads that were checked but never
    /// imported are removed on the way.
    func keep(file upload: URL, journal: Journal) async throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        removeExpiredFiles()
        try FileManager.default.moveItem(at: upload, to: file)
        let expired = try await journal.keepWaitingUpload(
            token: token, fields: fields,
            lifetime: Self.lifetime)
        for token in expired { try? FileManager.default.removeItem(at: directory.appendingPathComponent("\(token).upload")) }
    }

    func run(journal: Journal, dryRun: Bool, progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> ImportReport {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CinnError.notFound("this import is no longer waiting; upload the file again")
        }
        let unit = try self.unit.map { text in try MassUnit.parse(text) }
        let dateOrder = try self.dateOrder.map { text in try MyFitnessPalExport.DateOrder.parse(text) }
        return try await ServerMetrics.counting {
            try await namingUpload(file, as: fileName) {
                try await journal.importAnyFile(
                    at: file, fileName: fileName, format: format, unit: unit, dateOrder: dateOrder,
                    mode: ImportMode(dryRun: dryRun, skipInvalid: skipInvalid), progress: progress)
            }
        }
    }

    /// Keeps the fields changed since the upload (the unit or date order chosen afterwards).
    func saveFields(_ journal: Journal) async throws {
        try await journal.setWaitingUploadFields(fields, token: token)
    }

    func discard(_ journal: Journal) async {
        try? FileManager.default.removeItem(at: file)
        try? await journal.removeWaitingUpload(token: token)
    }

    /// Removes files older than an upload waits (a server stopped before it could record or discard one).
    func removeExpiredFiles() {
        let limit = Date().addingTimeInterval(-Self.lifetime)
        let files =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            if let modified, modified < limit { try? FileManager.default.removeItem(at: file) }
        }
    }
}
