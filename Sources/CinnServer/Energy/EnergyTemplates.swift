/// Templates of the onboarding, the profile and the energy page.
enum EnergyTemplates {
    static let all: [String: String] = ["profile": profile, "energy": energy]

    static let style = """
    fieldset { border:0; padding:0; margin:12px 0 0; } legend { font-weight:600; padding:0; margin-bottom:4px; }
    .choices { display:grid; gap:6px; }
    .choices label { display:flex; gap:10px; align-items:flex-start; padding:10px 12px; min-height:44px; margin:0;
      background:var(--bg); border:1px solid var(--line); border-radius:10px; font-weight:400; }
    .choices label:has(input:checked) { border-color:var(--accent); box-shadow:0 0 0 1px var(--accent); }
    .choices input { width:auto; min-height:auto; margin:3px 0 0; }
    .choices small { display:block; color:var(--muted); }
    .choices.inline { grid-template-columns:repeat(auto-fit, minmax(7rem, 1fr)); }
    .height-ft-in { display:grid; grid-template-columns:1fr 1fr; gap:8px; }
    .figures { display:grid; grid-template-columns:repeat(auto-fit, minmax(9.5rem, 1fr)); gap:8px; margin:12px 0; }
    .figures div { background:var(--card); border:1px solid var(--line); border-radius:12px; padding:10px 12px; }
    .figures b { display:block; font-size:1.3rem; font-variant-numeric:tabular-nums; } .figures span { display:block; font-weight:600; }
    .figures small { color:var(--muted); }
    .verdict.careful { color:var(--unknown); background:var(--unknown-bg); }
    .verdict .answer.sentence { font-size:1.6rem; }
    .trend-line { margin:6px 0 0; font-size:.95rem; }
    table.weeks td, table.weeks th { padding:6px 4px; font-variant-numeric:tabular-nums; }
    @media (max-width: 400px) { table.weeks { font-size:.875rem; } table.weeks td, table.weeks th { padding:6px 2px; } }
    """

    /// A no-script height toggle: the boxes of the unit not chosen are hidden where the browser has :has(); elsewhere
    /// both show, with the hint to fill those of the chosen unit.
    static let heightStyle = """
    #profile-form:has(#length-unit option[value="ft_in"]:checked) .height-cm,
    #profile-form:has(#length-unit option[value="cm"]:checked) .height-ft-in,
    #profile-form:has(#length-unit option:checked) .height-hint { display:none; }
    """

    /// The welcome page's time zone: the browser's own, when the list has it (without script, the server's is selected).
    static let timeZoneScript = """
    (() => {
      const select = document.querySelector('select[data-browser-zone]');
      const zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (select && zone && [...select.options].some(option => option.value === zone)) select.value = zone;
    })();
    """

    static let profile = """
    <h1>{{#isWelcome}}Welcome to Cinn{{/isWelcome}}{{^isWelcome}}Your profile{{/isWelcome}}</h1>
    {{#isWelcome}}<p>A few facts about you give a daily calorie budget and calories to maintain. Nothing else needs them; you can change them at any time.</p>{{/isWelcome}}
    {{#formError}}<p class="error card" role="alert" id="form-error">{{formError}}</p>{{/formError}}
    <form class="card" method="post" action="{{action}}" id="profile-form">
      <fieldset><legend>Sex</legend><div class="choices inline">{{#sexes}}
        <label><input type="radio" name="sex" value="{{value}}"{{#selected}} checked{{/selected}} required> {{label}}</label>{{/sexes}}</div></fieldset>
      <label for="birth-date">Birth date</label>
      <input id="birth-date" name="birth_date" type="date" value="{{birthDate}}" max="{{today}}" required>
      <fieldset><legend>Height</legend>
        <label for="length-unit" class="sr">Height unit</label>
        <select id="length-unit" name="length_unit">{{#lengthUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/lengthUnits}}</select>
        <div class="height-cm"><label for="height-cm">Centimetres</label><input id="height-cm" name="height_cm" inputmode="decimal" value="{{heightCm}}" autocomplete="off"></div>
        <div class="height-ft-in"><div><label for="height-ft">or feet</label><input id="height-ft" name="height_ft" inputmode="numeric" value="{{heightFeet}}" autocomplete="off"></div>
          <div><label for="height-in">and inches</label><input id="height-in" name="height_in" inputmode="decimal" value="{{heightInches}}" autocomplete="off"></div></div>
        <p class="muted">{{#heightSource}}{{.}} {{/heightSource}}<span class="height-hint">Fill the boxes of the unit you chose.</span></p>
      </fieldset>
      <fieldset><legend>How active are you on most days?</legend><div class="choices">{{#activities}}
        <label><input type="radio" name="activity" value="{{value}}"{{#selected}} checked{{/selected}}><span>{{label}}<small>{{detail}}</small></span></label>{{/activities}}</div></fieldset>
      <fieldset><legend>Units</legend><div class="row">
        <div><label for="mass-unit">Weight</label><select id="mass-unit" name="mass_unit">{{#massUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/massUnits}}</select></div>
        <div><label for="energy-unit">Energy</label><select id="energy-unit" name="energy_unit">{{#energyUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/energyUnits}}</select></div>
      </div></fieldset>
      {{#isWelcome}}<label for="weight-now">Your weight today (optional, in the weight unit above)</label><input id="weight-now" name="weight" inputmode="decimal" value="{{weightNow}}" autocomplete="off">{{/isWelcome}}
      {{#isWelcome}}<fieldset><legend>Goal (optional, in the weight unit above)</legend><div class="row">
        <div><label for="goal-weight">Goal weight</label><input id="goal-weight" name="goal_weight" inputmode="decimal" value="{{goalWeight}}" autocomplete="off"></div>
        <div><label for="goal-rate">Planned change a week</label><input id="goal-rate" name="goal_rate" inputmode="decimal" value="{{goalRate}}" autocomplete="off"></div>
      </div></fieldset>{{/isWelcome}}
      {{#goalSummary}}<p class="go" id="goal-summary">{{.}} · <a href="/settings#goal-form">change it on Goal and settings</a></p>{{/goalSummary}}
      {{^isWelcome}}
      <fieldset><legend>The daily target follows</legend><div class="choices">{{#bases}}
        <label><input type="radio" name="target_basis" value="{{value}}"{{#selected}} checked{{/selected}}><span>{{label}}<small>{{detail}}</small></span></label>{{/bases}}</div></fieldset>
      <label for="floor">Lowest target (kcal)</label>
      <input id="floor" name="floor" inputmode="numeric" value="{{floor}}" placeholder="{{defaultFloor}}" autocomplete="off" aria-describedby="floor-help">
      <p id="floor-help" class="muted">The formula never goes below {{defaultFloor}}. Lower it only if your doctor or dietitian says so.</p>
      <label for="energy-target">Your own daily target (kcal, overrides the formula)</label>
      <input id="energy-target" name="energy_target" inputmode="numeric" value="{{manualTarget}}" placeholder="none" autocomplete="off">
      {{/isWelcome}}
      <label for="time-zone">Time zone</label><select id="time-zone" name="time_zone"{{#pickBrowserZone}} data-browser-zone{{/pickBrowserZone}}>{{#timeZones}}<option{{#selected}} selected{{/selected}}>{{value}}</option>{{/timeZones}}</select>
      {{#pickBrowserZone}}<script src="/static/time-zone.js"></script>{{/pickBrowserZone}}
      <p class="actions"><button type="submit" id="save-profile">{{#isWelcome}}Save and start{{/isWelcome}}{{^isWelcome}}Save{{/isWelcome}}</button>
        {{^isWelcome}}<a class="button secondary" href="/energy" id="cancel-profile">Cancel</a>{{/isWelcome}}</p>
    </form>
    {{#isWelcome}}<form method="post" action="/welcome/skip"><button class="secondary" type="submit" id="skip-welcome">Skip for now</button></form>{{/isWelcome}}
    {{^isWelcome}}
    <form class="card" method="post" action="/profile/body-fat" id="body-fat-form">
      <h2 class="first">Body fat</h2>
      <p class="muted">{{#bodyFat}}Latest: {{.}}. {{/bodyFat}}Within 30 days of a measurement, resting energy comes from your lean mass (Katch–McArdle).</p>
      <div class="row"><div><label for="body-fat">Body fat (%)</label><input id="body-fat" name="percent" inputmode="decimal" required autocomplete="off"></div>
        <div><label for="body-fat-date">Measured on</label><input id="body-fat-date" name="date" type="date" value="{{today}}" max="{{today}}"></div></div>
      <p><button class="secondary" type="submit">Add</button></p>
    </form>
    {{/isWelcome}}
    """

    static let energy = """
    <section id="today" class="verdict {{answerState}}" data-answer="{{answerState}}">
      <div class="question">Can I nom nom today?</div>
      <div class="answer sentence">{{answer}}</div>
      <p class="trend-line">{{trendReason}}</p>
    </section>
    <h1>Energy</h1>
    {{^hasProfile}}<p class="card">Cinn needs your <a href="/profile">profile</a> (sex, birth date, height, activity) for calories to maintain and a daily target.</p>{{/hasProfile}}
    <div class="figures" id="expenditure">{{#figures}}<div id="figure-{{id}}"><span>{{label}}</span><b>{{value}}</b>{{#detail}}<small>{{.}}</small>{{/detail}}</div>{{/figures}}</div>
    {{#adaptiveStatus}}<p class="muted" id="adaptive-status">{{.}}</p>{{/adaptiveStatus}}
    <p class="muted">{{todayStatus}} <a href="{{todayLink}}">Today's log</a></p>
    {{#target}}<div class="card" id="target"><h2 class="first">Daily target: {{target}}</h2><p class="muted">{{targetDetail}}</p></div>{{/target}}
    {{#toGoal}}<div class="card" id="time-to-goal"><h2 class="first">To goal: {{toGoal}}</h2>
      {{#goalReached}}<p>Your trend is in the maintenance band: the target is to maintain.</p>{{/goalReached}}
      <table><tbody>{{#etas}}<tr><th scope="row">{{label}}</th><td class="num"><b>{{date}}</b><br><small class="muted">{{range}}</small></td></tr>{{/etas}}</tbody></table>
      <p class="muted">Ranges cover about 95 % of outcomes, from how uncertain the rate is.</p></div>{{/toGoal}}
    {{^hasData}}<p class="card empty">Nothing to show yet. Weigh in and log your food: this page then sets what you eat beside
      what you burn, week by week.</p>{{/hasData}}
    {{#hasData}}
    <div class="card chart">{{{chart}}}</div>
    <div class="card chart">{{{trendChart}}}</div>
    <h2>Weekly check-in</h2>
    <div class="card"><table class="weeks"><thead><tr><th></th>{{#weeks}}<th class="num">{{label}}<br><small class="muted">{{dates}}</small></th>{{/weeks}}</tr></thead>
      <tbody>
      <tr><th scope="row">Days</th>{{#weeks}}<td class="num">{{logged}}</td>{{/weeks}}</tr>
      <tr><th scope="row">Mean intake</th>{{#weeks}}<td class="num">{{intake}}</td>{{/weeks}}</tr>
      <tr><th scope="row">Trend change</th>{{#weeks}}<td class="num">{{trend}}</td>{{/weeks}}</tr>
      <tr><th scope="row">Expenditure</th>{{#weeks}}<td class="num">{{expenditure}}</td>{{/weeks}}</tr>
      <tr><th scope="row">On target (±10 %)</th>{{#weeks}}<td class="num">{{onTarget}}</td>{{/weeks}}</tr>
      </tbody></table></div>
    {{/hasData}}
    <p class="actions"><a class="button secondary" href="/profile" id="edit-profile">Edit profile and target</a></p>
    """
}
