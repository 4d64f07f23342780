import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The server-rendered web app. Plain forms and links do everything; no JavaScript needed (the import
/// page's script only adds progress).
struct WebController<Context: RequestContext> {
    var journal: Journal { get throws { try RequestJournal.required() } }
    let pages: PageRenderer
    /// Where uploads wait between "check the file" and "import".
    let pendingDirectory: URL
    let progressBoard = ImportProgressBoard()

    func addRoutes(to router: Router<Context>) {
        router.get("/", use: dashboard)
        router.get("/chart.svg", use: chart)
        router.post("/weigh-ins", use: addWeighIn)
        router.get("/weigh-ins", use: weighIns)
        router.get("/weigh-ins/{id}/edit", use: editForm)
        router.post("/weigh-ins/{id}", use: saveEdit)
        router.get("/weigh-ins/{id}/delete", use: confirmDelete)
        router.post("/weigh-ins/{id}/delete", use: delete)
        router.get("/import", use: importForm)
        router.post("/import", use: checkImport)
        router.post("/import/{token}", use: runImport)
        router.post("/import/{token}/unit", use: recheckImport)
        router.get("/import/progress/{id}", use: importProgress)
        router.get("/imports/{id}/undo", use: confirmUndoImport)
        router.post("/imports/{id}/undo", use: undoImport)
        router.get("/settings", use: settings)
        router.get("/more") { _, _ in
            let account = RequestAccount.current
            return html(pages.render("more", MorePage(accountName: account?.account.name, isAdmin: account?.account.role == .admin),
                                     title: "More", tab: .more))
        }
        router.post("/settings", use: saveSettings)
        router.post("/goal", use: setGoal)
        router.post("/goal/clear", use: clearGoal)
        router.get("/export.csv") { _, _ in exportResponse(journal: try journal, format: .csv) }
        router.get("/export.json") { _, _ in exportResponse(journal: try journal, format: .json) }
        FoodWebController(pages: pages).addRoutes(to: router)
        EnergyWebController(pages: pages).addRoutes(to: router)
    }

    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response { WebResponse.html(text, status: status) }

    func redirect(_ location: String) -> Response { WebResponse.redirect(location) }

    func range(_ request: Request) throws(CinnError) -> TrendRange {
        try request.query("range").map { text throws(CinnError) in try TrendRange.parse(text) } ?? .quarter
    }

    func weighInID(_ context: Context) throws(CinnError) -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(text:)) else {
            throw .notFound("no such weigh-in")
        }
        return id
    }

    /// The dashboard's page; `reports` when the caller has read them already.
    func renderDashboard(range: TrendRange, reports: (trend: TrendReport, energy: EnergyReport)? = nil, formError: String? = nil,
                         form: DashboardPage.WeightForm = .init(), notice: String? = nil) async throws -> String {
        let (report, energy) = if let reports { reports } else { try await journal.dashboard(range: range) }
        let settings = energy.settings
        let recent = try await journal.store.weighIns(user: journal.user, limit: 7)
        var trendByDay: [LocalDate: Mass] = [:]
        for point in report.days.suffix(14) { trendByDay[point.date] = point.trend }
        let page = DashboardPage(report: report, settings: settings, todayAnswer: energy.answer, range: range, today: energy.asOf,
                                 recent: recent, trendByDay: trendByDay, formError: formError, form: form)
        return pages.render("dashboard", page, title: "Can I nom nom?", tab: .weight, notice: notice)
    }

    /// The dashboard; on the first visit, before the profile is set up or skipped, the onboarding.
    @Sendable func dashboard(_ request: Request, context: Context) async throws -> Response {
        let range = try range(request)
        let reports = try await journal.dashboard(range: range)
        let settings = reports.energy.settings
        if !settings.onboarded && settings.profile == nil { return redirect("/welcome") }
        var notice = Done.notice(request)
        if notice == nil { notice = try await addedNotice(request, settings) }
        return html(try await renderDashboard(range: range, reports: reports, notice: notice))
    }

    /// "Saved 80.3 kg for today.": what the form post that led here (`?added=ID`) did, if that weigh-in is this user's.
    func addedNotice(_ request: Request, _ settings: UserSettings) async throws -> String? {
        guard let id = request.query("added").flatMap(UUID.init(text:)) else { return nil }
        let weighIn: WeighIn
        do {
            weighIn = try await journal.store.weighIn(id: id, user: journal.user)
        } catch let error as CinnError where error.code == .notFound {
            return nil
        }
        let day = weighIn.localDate == (try journal).today(settings) ? "today" : DashboardPage.shortDate(weighIn.localDate)
        return "Saved \(weighIn.weight.formatted(in: settings.displayUnit)) for \(day)."
    }

    @Sendable func chart(_ request: Request, context: Context) async throws -> Response {
        let range = try range(request)
        let (report, settings) = try await journal.trend(range: range)
        let svg = TrendChart(points: report.days, unit: settings.displayUnit, goal: report.goal?.weight,
                             projection: report.rate, title: "Weight trend to \(report.to.iso)").svg()
        return Response(status: .ok, headers: [.contentType: "image/svg+xml",
                                               .contentDisposition: "attachment; filename=\"cinn-trend-\(report.to.iso).svg\""],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    @Sendable func addWeighIn(_ request: Request, context: Context) async throws -> Response {
        let form = try await FormFields(request: request)
        do {
            guard let weight = try form.number("weight") else { throw CinnError.invalid("weight", "enter your weight") }
            let added = try await journal.addWeighIn(weight: weight, unit: nil, date: form["date"], note: form["note"],
                                                     confirm: form["confirm"] == "true")
            return redirect("/?added=\(added.id.lowercasedString)")
        } catch let error as CinnError where error.code == .needsConfirmation {
            let sent = DashboardPage.WeightForm(weight: form["weight"] ?? "", date: form["date"], note: form["note"] ?? "",
                                                confirmation: error.message)
            return html(try await renderDashboard(range: .quarter, form: sent), status: .unprocessableContent)
        } catch let error as CinnError where error.code == .invalidInput {
            let sent = DashboardPage.WeightForm(weight: form["weight"] ?? "", date: form["date"], note: form["note"] ?? "")
            return html(try await renderDashboard(range: .quarter, formError: error.message, form: sent),
                        status: .unprocessableContent)
        }
    }

    @Sendable func weighIns(_ request: Request, context: Context) async throws -> Response {
        let page = try request.queryInt("page", default: 1, range: 1...1_000_000)
        let pageSize = 50
        let settings = try await journal.settings()
        let items = try await journal.store.weighIns(user: journal.user, limit: pageSize + 1, offset: (page - 1) * pageSize)
        let model = WeighInsPage(weighIns: Array(items.prefix(pageSize)), unit: settings.displayUnit, page: page,
                                 hasMore: items.count > pageSize)
        return html(pages.render("weigh-ins", model, title: "Weigh-ins", tab: .log, notice: Done.notice(request)))
    }

    @Sendable func editForm(_ request: Request, context: Context) async throws -> Response {
        let weighIn = try await journal.store.weighIn(id: try weighInID(context), user: journal.user)
        let settings = try await journal.settings()
        return html(pages.render("edit", WeighInPage(weighIn, unit: settings.displayUnit), title: "Edit weigh-in", tab: .log))
    }

    @Sendable func saveEdit(_ request: Request, context: Context) async throws -> Response {
        let id = try weighInID(context)
        let form = try await FormFields(request: request)
        do {
            _ = try await journal.editWeighIn(id: id, weight: try form.number("weight"), unit: nil, date: form["date"],
                                              note: .some(form["note"]), confirm: form["confirm"] == "true")
            return Done.weighInSaved.redirect(to: "/weigh-ins")
        } catch let error as CinnError where error.code == .invalidInput || error.code == .needsConfirmation {
            let weighIn = try await journal.store.weighIn(id: id, user: journal.user)
            let settings = try await journal.settings()
            let asked = error.code == .needsConfirmation
            let model = WeighInPage(weighIn, unit: settings.displayUnit, sent: form, formError: asked ? nil : error.message,
                                    confirmation: asked ? error.message : nil)
            return html(pages.render("edit", model, title: "Edit weigh-in", tab: .log), status: .unprocessableContent)
        }
    }

    @Sendable func confirmDelete(_ request: Request, context: Context) async throws -> Response {
        let weighIn = try await journal.store.weighIn(id: try weighInID(context), user: journal.user)
        let settings = try await journal.settings()
        return html(pages.render("confirm-delete", WeighInPage(weighIn, unit: settings.displayUnit),
                                 title: "Delete weigh-in", tab: .log))
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        try await journal.store.deleteWeighIn(id: try weighInID(context), user: journal.user)
        return Done.weighInDeleted.redirect(to: "/weigh-ins")
    }

    @Sendable func importForm(_ request: Request, context: Context) async throws -> Response {
        html(try await renderImportForm(notice: Done.notice(request)))
    }

    func renderImportForm(error: String? = nil, notice: String? = nil) async throws -> String {
        let batches = try await journal.store.imports(user: journal.user)
        let model = ImportPage(formats: Journal.importFormats, batches: batches, timeZone: try await journal.settings().timeZone,
                               formError: error)
        return pages.render("import", model, title: "Import", tab: .importing, notice: notice)
    }

    /// Receives the upload, keeps it aside under a token, and shows what importing it would do.
    @Sendable func checkImport(_ request: Request, context: Context) async throws -> Response {
        let upload = try await MultipartUpload.receive(request, fileField: "file", maximumBytes: maximumImportBytes)
        guard let file = upload.file else { throw CinnError.invalid("file", "choose a file to import") }
        let pending = PendingImport(directory: pendingDirectory, token: UUID().lowercasedString)
        do {
            try pending.keep(file: file, fields: upload.fields, fileName: upload.fileName, user: try journal.user)
        } catch {
            pending.discard()
            throw error
        }
        return try await check(pending, progressID: ImportProgressBoard.validID(upload.fields["progress"]))
    }

    /// A kept upload whose file did not say its unit, checked again with the unit the person chose.
    @Sendable func recheckImport(_ request: Request, context: Context) async throws -> Response {
        let pending = try waiting(context)
        let form = try await FormFields(request: request)
        let unit = try MassUnit.parse(form["unit"] ?? "", field: "unit")
        try pending.setField("unit", unit.rawValue)
        return try await check(pending, progressID: nil)
    }

    /// The upload kept under the request's token, if it is this user's.
    private func waiting(_ context: Context) throws -> PendingImport {
        guard let token = context.parameters.get("token"), UUID(text: token) != nil else {
            throw CinnError.notFound("this import is no longer waiting; upload the file again")
        }
        let pending = PendingImport(directory: pendingDirectory, token: token)
        guard pending.belongs(to: try journal.user) else { throw CinnError.notFound("this import is no longer waiting; upload the file again") }
        return pending
    }

    /// Shows what importing a kept upload would do. A file that does not say its unit asks for it (and stays kept);
    /// a file that cannot be read shows why beside the form.
    private func check(_ pending: PendingImport, progressID: String?) async throws -> Response {
        do {
            let report = try await tracked(progressID, phase: "checking") { progress in
                try await pending.run(journal: journal, dryRun: true, progress: progress)
            }
            let model = ImportReportPage(report: report, token: pending.token, skipInvalid: pending.skipInvalid)
            if model.token == nil { pending.discard() }
            return html(pages.render("import-report", model, title: "Import", tab: .importing))
        } catch let error as CinnError where error.code == .invalidInput && error.field == "unit" {
            let model = ImportUnitPage(token: pending.token, fileName: pending.fields["file_name"],
                                       question: error.message.prefix(1).uppercased() + error.message.dropFirst())
            return html(pages.render("import-unit", model, title: "Import", tab: .importing), status: .unprocessableContent)
        } catch let error as CinnError where error.code == .invalidInput {
            pending.discard()
            return html(try await renderImportForm(error: error.message), status: .unprocessableContent)
        } catch {
            pending.discard()
            throw error
        }
    }

    @Sendable func runImport(_ request: Request, context: Context) async throws -> Response {
        let pending = try waiting(context)
        defer { pending.discard() }
        // "Import the good rows" of a file with invalid ones (in the query: the form may be sent as multipart by its script).
        if request.query("skip_invalid") == "true" { try pending.setField("skip_invalid", "true") }
        let report = try await tracked(pending.token, phase: "importing") { progress in
            try await pending.run(journal: journal, dryRun: false, progress: progress)
        }
        let model = ImportReportPage(report: report, token: nil, skipInvalid: pending.skipInvalid)
        return html(pages.render("import-report", model, title: "Import", tab: .importing))
    }

    /// Runs `body` with a progress sink that posts to the board under `id` (when there is one).
    private func tracked(_ id: String?, phase: String,
                         _ body: (@escaping @Sendable (ImportProgress) -> Void) async throws -> ImportReport) async throws -> ImportReport {
        guard let id else { return try await body { _ in } }
        let board = progressBoard, user = try journal.user
        defer { board.finish(id) }
        return try await body { board.update(id, user: user, phase: phase, $0) }
    }

    /// How far the import polling with `id` has got, as JSON; 404 when there is none.
    @Sendable func importProgress(_ request: Request, context: Context) async throws -> Response {
        guard let id = ImportProgressBoard.validID(context.parameters.get("id")), let entry = progressBoard.entry(id, user: try journal.user) else {
            throw CinnError.notFound("no import in progress with that id")
        }
        let body = try JSONEncoder().encode(entry)
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    @Sendable func confirmUndoImport(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int64.init),
              let batch = try await journal.store.imports(user: journal.user).first(where: { $0.id == id }) else {
            throw CinnError.notFound("no such import")
        }
        guard batch.undoneAt == nil else { return redirect("/import") }
        let model = UndoImportPage(batch: batch, contents: try await journal.store.importContents(id: id, user: journal.user),
                                   timeZone: try await journal.settings().timeZone)
        return html(pages.render("undo-import", model, title: "Undo import", tab: .importing))
    }

    @Sendable func undoImport(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw CinnError.notFound("no such import") }
        try await journal.store.undoImport(id: id, user: journal.user)
        return Done.importUndone.redirect(to: "/import")
    }

    func renderSettings(formError: String? = nil, notice: String? = nil) async throws -> String {
        let model = SettingsPage(settings: try await journal.settings(), goal: try await journal.store.goal(user: journal.user),
                                 formError: formError)
        return pages.render("settings", model, title: "Goal and settings", tab: .more, notice: notice)
    }

    @Sendable func settings(_ request: Request, context: Context) async throws -> Response {
        html(try await renderSettings(notice: Done.notice(request)))
    }

    @Sendable func saveSettings(_ request: Request, context: Context) async throws -> Response {
        let form = try await FormFields(request: request)
        do {
            var settings = try await journal.settings()
            if let unit = form["unit"] { settings.displayUnit = try MassUnit.parse(unit) }
            if let method = form["trend_method"] {
                guard let trendMethod = TrendMethod(rawValue: method) else {
                    throw CinnError.invalid("trend_method", "choose exact or pencil")
                }
                settings.trendMethod = trendMethod
            }
            if let zone = form["time_zone"] { settings.timeZoneIdentifier = try UserSettings.validTimeZone(zone) }
            if form.values["energy_target"] != nil {
                settings.energyTargetKcal = try form.number("energy_target").map { kcal throws(CinnError) in
                    try UserSettings.validEnergyTarget(kcal, field: "energy_target")
                }
            }
            if let unit = form["energy_unit"] { settings.energyUnit = try EnergyUnit.parse(unit) }
            if let unit = form["glucose_unit"] { settings.glucoseUnit = try GlucoseUnit.parse(unit, field: "glucose_unit") }
            try await journal.store.saveSettings(settings, user: journal.user)
            return Done.settingsSaved.redirect(to: "/settings")
        } catch let error as CinnError where error.code == .invalidInput {
            return html(try await renderSettings(formError: error.message), status: .unprocessableContent)
        }
    }

    @Sendable func setGoal(_ request: Request, context: Context) async throws -> Response {
        let form = try await FormFields(request: request)
        do {
            guard let weight = try form.number("weight") else { throw CinnError.invalid("weight", "enter a goal weight") }
            _ = try await journal.setGoal(weight: weight, unit: nil, ratePerWeek: try form.number("rate"))
            return Done.goalSaved.redirect(to: "/")
        } catch let error as CinnError where error.code == .invalidInput {
            return html(try await renderSettings(formError: error.message), status: .unprocessableContent)
        }
    }

    @Sendable func clearGoal(_ request: Request, context: Context) async throws -> Response {
        try await journal.store.clearGoal(user: journal.user)
        return Done.goalCleared.redirect(to: "/settings")
    }
}

/// The responses of the web app's handlers.
enum WebResponse {
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// "See other": after a form is posted, the browser loads `location`.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

/// An uploaded file kept between the check (a dry run) and the import.
struct PendingImport {
    let directory: URL
    let token: String

    var file: URL { directory.appendingPathComponent("\(token).upload") }
    var fieldsFile: URL { directory.appendingPathComponent("\(token).fields") }

    var fields: [String: String] {
        (try? Data(contentsOf: fieldsFile)).flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    }

    var skipInvalid: Bool { fields["skip_invalid"] == "true" }

    /// How long an upload waits for its "import" before it is removed.
    static let lifetime: TimeInterval = 3600

    /// Whether the upload is `user`'s (an upload's token reaches no one else's journal).
    func belongs(to user: UserID) -> Bool {
        fields["user"] == user.description
    }

    func keep(file upload: URL, fields: [String: String], fileName: String?, user: UserID) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        removeExpired()
        try FileManager.default.moveItem(at: upload, to: file)
        var stored = fields
        stored["file_name"] = fileName
        stored["user"] = user.description
        try JSONEncoder().encode(stored).write(to: fieldsFile)
    }

    func run(journal: Journal, dryRun: Bool, progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> ImportReport {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CinnError.notFound("this import is no longer waiting; upload the file again")
        }
        let fields = self.fields
        let format = fields["format"].flatMap { $0.isEmpty ? nil : $0 }
        let unit = try fields["unit"].flatMap { $0.isEmpty ? nil : $0 }.map { text throws(CinnError) in try MassUnit.parse(text) }
        return try await namingUpload(file, as: fields["file_name"]) {
            try await journal.importAnyFile(at: file, fileName: fields["file_name"], format: format, unit: unit,
                                            mode: ImportMode(dryRun: dryRun, skipInvalid: fields["skip_invalid"] == "true"),
                                            progress: progress)
        }
    }

    /// Changes one of the kept upload's form fields (the unit chosen afterwards, "import the good rows").
    func setField(_ name: String, _ value: String) throws {
        var stored = fields
        stored[name] = value
        try JSONEncoder().encode(stored).write(to: fieldsFile)
    }

    func discard() {
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(at: fieldsFile)
    }

    /// Removes uploads that were checked but never imported.
    func removeExpired() {
        let limit = Date().addingTimeInterval(-Self.lifetime)
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            if let modified, modified < limit { try? FileManager.default.removeItem(at: file) }
        }
    }
}
