/// The More and Goal and settings pages' templates.
enum SettingsTemplates {
    static let all: [String: String] = ["more": more, "settings": settings]

    /// The More tab: the pages that are not tabs of their own, and in hosted mode who is logged in.
    static let more = """
    <h1>More</h1>
    <ul class="card menu">
      <li><a href="/weigh-ins">Weigh-ins<small>Every reading: edit and delete</small></a></li>
      <li><a href="/energy">Energy<small>What you burn, your calorie target and the weekly check-in</small></a></li>
      <li><a href="/import">Import<small>Files from other apps, earlier imports and undo</small></a></li>
      <li><a href="/more-data">Health data<small>Steps, heart rate, sleep… from Apple Health</small></a></li>
      <li><a href="/profile">Profile<small>Sex, birth date, height, activity and how the target is made</small></a></li>
      <li><a href="/settings">Goal and settings<small>Your goal, units, time zone and exports</small></a></li>
    </ul>
    {{#accountName}}<div class="card">
      <p>Logged in as <b>{{accountName}}</b></p>
      <p class="go"><a href="/account">Account: password, API tokens{{#isAdmin}}, invites{{/isAdmin}}</a></p>
      <form method="post" action="/logout"><button type="submit" class="secondary">Log out</button></form>
    </div>{{/accountName}}
    """

    static let settings = """
    <h1>Goal and settings</h1>
    {{#formError}}<p class="error card" role="alert">{{formError}}</p>{{/formError}}
    <p class="card go"><a href="/profile" id="profile-link">Profile, calorie target and body fat →</a></p>
    <p class="card go"><a href="/more-data" id="health-link">Health data: steps, heart rate, sleep… from Apple Health →</a></p>
    <form class="card" method="post" action="/goal" id="goal-form">
      <h2 class="first">Goal</h2>
      {{#goal}}<p>Now: <b>{{goal}}</b>{{#goalRate}}, planned {{goalRate}} a week{{/goalRate}} <span class="muted">(set {{goalSet}})</span></p>{{/goal}}
      {{^goal}}<p class="muted">No goal yet: set one to get a yes or no.</p>{{/goal}}
      <div class="row">
        <div><label for="goal-weight">Goal weight ({{unit}})</label><input id="goal-weight" name="weight" inputmode="decimal" required value="{{goalWeightValue}}"></div>
        <div><label for="goal-rate">Planned {{unit}} per week (optional)</label><input id="goal-rate" name="rate" inputmode="decimal" value="{{goalRateValue}}"></div>
      </div>
      <p class="row"><button type="submit">Save goal</button></p>
    </form>
    {{#goal}}<form method="post" action="/goal/clear"><button class="secondary" type="submit">Clear the goal</button></form>{{/goal}}
    <form class="card" method="post" action="/settings">
      <h2 class="first">Settings</h2>
      <label for="unit">Unit</label><select id="unit" name="unit">{{#units}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/units}}</select>
      <label for="trend-method">Trend</label><select id="trend-method" name="trend_method">{{#methods}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/methods}}</select>
      <label for="time-zone">Time zone</label><select id="time-zone" name="time_zone">{{#timeZones}}<option{{#selected}} selected{{/selected}}>{{value}}</option>{{/timeZones}}</select>
      <label for="energy-target">Daily calorie target (kcal)</label>
      <input id="energy-target" name="energy_target" inputmode="decimal" autocomplete="off" value="{{energyTarget}}" placeholder="none" aria-describedby="energy-target-help">
      <p id="energy-target-help" class="muted">The food log shows what is left of it each day. Leave it empty for no target.</p>
      <label for="energy-unit">Show energy in</label><select id="energy-unit" name="energy_unit">{{#energyUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/energyUnits}}</select>
      <label for="glucose-unit">Show blood glucose in</label><select id="glucose-unit" name="glucose_unit">{{#glucoseUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/glucoseUnits}}</select>
      <p><button type="submit">Save settings</button></p>
    </form>
    <div class="card"><h2 class="first">Export</h2>
      <p class="muted">Weigh-ins</p>
      <p class="actions"><a class="button secondary" href="/export.csv">CSV</a> <a class="button secondary" href="/export.json">JSON</a></p>
      <p class="muted">Food journal: everything as JSON, or one table as CSV</p>
      <p class="actions" id="food-export"><a class="button secondary" href="/api/v1/food-journal">JSON</a>
        <a class="button secondary" href="/api/v1/food-journal?format=csv">Entries</a>
        <a class="button secondary" href="/api/v1/food-journal?format=csv&amp;table=days">Days</a>
        <a class="button secondary" href="/api/v1/food-journal?format=csv&amp;table=foods">Foods</a></p>
      <p class="muted">Keep them as a backup: Cinn reads the food journal file back, foods, entries and all.</p></div>
    """
}
