import CinnCore
import CinnJournal
import CinnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Onboarding, profile and energy pages")
struct EnergyWebTests {
    /// A journal that has not been through the onboarding.
    func fresh(_ journal: Journal) async throws {
        try await journal.store.saveSettings(UserSettings(timeZoneIdentifier: "UTC"), user: journal.user)
    }

    let welcome =
        "sex=male&birth_date=1994-03-15&length_unit=ft_in&height_cm=&height_ft=5&height_in=11&activity=moderate"
        + "&mass_unit=lb&energy_unit=kcal&weight=176.4&goal_weight=165&goal_rate=0.5&time_zone=UTC"

    /// The time zone is picked from a list (the welcome page's script selects the browser's own); the goal is edited in
    /// one place, Goal and settings, with what it is filled in; the profile page says what it is and links there.
    @Test func timeZonesArePickedAndTheGoalHasOnePlace() async throws {
        try await withApp { client, journal in
            try await fresh(journal)
            let welcome = try await client.send(.get, "/welcome").text
            #expect(welcome.contains(#"<select id="time-zone" name="time_zone" data-browser-zone>"#))
            #expect(
                welcome.contains("<option>Europe/Berlin</option>") && welcome.contains(#"<script src="/static/time-zone.js"></script>"#))
            #expect(try await client.send(.get, "/static/time-zone.js").text.contains("resolvedOptions().timeZone"))
            #expect(welcome.contains(#"name="goal_weight""#), "the first visit asks for a goal")
            #expect(
                try await client.post(
                    "/welcome", form: self.welcome.replacingOccurrences(of: "time_zone=UTC", with: "time_zone=Europe%2FBerlin")
                ).status == .seeOther)
            #expect(try await journal.settings().timeZoneIdentifier == "Europe/Berlin")

            let settings = try await client.send(.get, "/settings").text
            #expect(settings.contains("<option selected>Europe/Berlin</option>"))
            #expect(
                settings.contains(#"name="weight" inputmode="decimal" required value="165.0""#) && settings.contains(#"value="0.50""#),
                "the goal form holds the goal there is")
            let profile = try await client.send(.get, "/profile").text
            #expect(!profile.contains(#"name="goal_weight""#) && !profile.contains("data-browser-zone"))
            #expect(profile.contains("Goal: 165.0 lb, 0.50 lb a week · <a href=\"/settings#goal-form\">change it on Goal and settings</a>"))
            #expect(profile.contains(#"<div class="height-cm">"#) && profile.contains(#"<div class="height-ft-in">"#))
        }
    }

    /// With nothing logged the page says so once, instead of two empty charts and a check-in of dashes.
    @Test func anEmptyEnergyPageSaysWhatToDo() async throws {
        try await withApp { client, journal in
            let empty = try await client.send(.get, "/energy").text
            #expect(empty.contains("Nothing to show yet. Weigh in and log your food"))
            #expect(!empty.contains("Weekly check-in") && !empty.contains("<svg"))
            try await client.addWeighIn(80.3, date: "2024-03-14")
            let one = try await client.send(.get, "/energy").text
            #expect(one.contains("Weekly check-in") && !one.contains("Weigh in and log your food"))
        }
    }

    /// Someone losing writes the planned change as "-0.5": it is 0.5 a week towards the goal, not an error.
    @Test func aMinusSignedPlannedChangeIsTheAmountTowardsTheGoal() async throws {
        try await withApp { client, journal in
            try await fresh(journal)
            let saved = try await client.post("/welcome", form: welcome.replacingOccurrences(of: "goal_rate=0.5", with: "goal_rate=-0.5"))
            #expect(saved.status == .seeOther)
            let goal = try #require(try await journal.store.goal(user: journal.user))
            #expect(goal.plannedRate?.value(in: .pounds).isClose(to: 0.5, within: 1e-9) == true)
        }
    }

    @Test func theFirstVisitOnboardsThenTheDashboardAnswers() async throws {
        try await withApp { client, journal in
            try await fresh(journal)
            let first = try await client.send(.get, "/")
            #expect(first.status == .seeOther)
            #expect(first.headers[.location] == "/welcome")
            let page = try await client.send(.get, "/welcome").text
            #expect(page.contains(#"id="profile-form""#) && page.contains(#"id="skip-welcome""#))

            let saved = try await client.post("/welcome", form: welcome)
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location] == "/")
            let settings = try await journal.settings()
            #expect(settings.onboarded)
            #expect(try #require(settings.profile).height.centimetres.isClose(to: 180.34))
            #expect(settings.displayUnit == .pounds)
            #expect(try await journal.store.goal(user: journal.user)?.weight.value(in: .pounds).isClose(to: 165, within: 1e-9) == true)
            #expect(try await journal.count() == 1)

            let dashboard = try await client.send(.get, "/")
            #expect(dashboard.status == .ok)
            #expect(dashboard.text.contains(#"id="today""#))
            #expect(dashboard.text.contains("Can I nom nom today?"))
            #expect(dashboard.text.contains("kcal left"))
        }
    }

    @Test func aBadOnboardingKeepsWhatWasTypedAndSavesNothing() async throws {
        try await withApp { client, journal in
            try await fresh(journal)
            let response = try await client.post("/welcome", form: welcome.replacingOccurrences(of: "height_ft=5", with: "height_ft=9"))
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("a height must be between 100 and 250 cm"))
            #expect(response.text.contains(#"value="1994-03-15""#))
            #expect(response.text.contains(#"value="9""#))
            #expect(try await journal.settings().profile == nil)
            #expect(try await journal.count() == 0)
            #expect(try await client.send(.get, "/").status == .seeOther, "still not onboarded")
        }
    }

    @Test func skippingLandsOnTheDashboard() async throws {
        try await withApp { client, journal in
            try await fresh(journal)
            #expect(try await client.post("/welcome/skip", form: "").headers[.location] == "/")
            #expect(try await client.send(.get, "/").status == .ok)
            let energy = try await client.send(.get, "/energy").text
            #expect(energy.contains(#"href="/profile""#))
        }
    }

    @Test func profileEditsSaveOrChangeNothing() async throws {
        try await withApp { client, journal in
            try await client.post("/welcome", form: welcome)
            let form = try await client.send(.get, "/profile").text
            #expect(form.contains(#"value="5""#) && form.contains(#"value="11""#))
            #expect(form.contains(#"id="cancel-profile""#))
            let goalBefore = try await journal.store.goal(user: journal.user)

            let bad = try await client.post("/profile", form: welcome.replacingOccurrences(of: "activity=moderate", with: "activity=couch"))
            #expect(bad.status == .unprocessableContent)
            #expect(try await journal.settings().profile?.activity == .moderate)

            try await client.post("/settings/targets/calories", form: "follows=formula&floor=1400")
            let edit = welcome.replacingOccurrences(of: "activity=moderate", with: "activity=light")
            let saved = try await client.post("/profile", form: edit)
            #expect(saved.headers[.location] == "/energy?done=profile-saved#notice")
            #expect(
                try await client.send(.get, "/energy?done=profile-saved").text.contains(
                    "Profile saved; the calorie target below follows it."))
            let settings = try await journal.settings()
            #expect(settings.profile?.activity == .light)
            #expect(settings.targetBasis == .formula && settings.energyFloorKcal == 1400, "the profile form leaves the calorie target")
            #expect(try await journal.store.goal(user: journal.user) == goalBefore, "the unchanged goal keeps the day it was set")

            #expect(
                try await client.post("/profile/body-fat", form: "percent=21.5&date=2024-03-15").headers[.location]
                    == "/energy?done=body-fat-added#notice")
            let energy = try await client.send(.get, "/energy").text
            #expect(energy.contains(#"id="figure-formula""#))
            #expect(energy.contains("Katch–McArdle"))
            #expect(energy.contains(#"id="energy-chart""#))
            #expect(energy.contains(#"id="trend-chart""#))
            #expect(energy.contains("Weekly check-in"))
        }
    }

    @Test func markingADayFromItsPage() async throws {
        try await withApp { client, journal in
            let response = try await client.post("/food/2024-03-15/status", form: "status=complete")
            #expect(response.status == .seeOther)
            #expect(try await journal.store.dayStatuses(user: journal.user) == [LocalDate(iso: "2024-03-15")!: .complete])
            let page = try await client.send(.get, "/food/2024-03-15").text
            #expect(page.contains("Logged in full"))
            #expect(try await client.post("/food/2024-03-16/status", form: "status=complete").status == .unprocessableContent)
        }
    }
}
