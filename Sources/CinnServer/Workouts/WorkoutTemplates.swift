/// Templates of the lifts and workouts pages.
enum WorkoutTemplates {
    static let all: [String: String] = ["lifts": lifts, "exercise": exercise, "workouts": workouts, "workout": workout]

    static let style = """
    ul.lifts { list-style:none; padding:0; margin:0; }
    ul.lifts li { border-bottom:1px solid var(--line); }
    ul.lifts a { display:flex; justify-content:space-between; gap:12px; padding:12px 4px; min-height:44px; text-decoration:none; color:inherit; }
    ul.lifts b { font-variant-numeric:tabular-nums; font-size:1.1rem; white-space:nowrap; } ul.lifts small { display:block; color:var(--muted); }
    ol.sets { margin:0; padding-left:1.6rem; } ol.sets li { padding:6px 0; border-bottom:1px solid var(--line); font-variant-numeric:tabular-nums; }
    ol.sets .tag { font-size:.8rem; color:var(--muted); margin-left:6px; } ol.sets .est { float:right; color:var(--muted); }
    .pager { display:flex; justify-content:space-between; gap:12px; margin-top:12px; }
    """

    static let lifts = """
    <h1>Lifts</h1>
    {{^hasItems}}<div class="card"><p>No workouts yet. Import a Fitbod, Strong or FitNotes export on the <a href="/import">Import</a> page.</p></div>{{/hasItems}}
    {{#hasItems}}
    <p class="muted">Current estimated one-rep max: the best of the last 30 days, {{formula}}, from sets of 1 to 10 reps. <a href="/workouts">All {{workoutCount}} workouts →</a></p>
    <div class="card"><ul class="lifts">{{#items}}
      <li><a href="/lifts/{{id}}"><span>{{name}}<small>{{last}}{{#aliases}} · {{aliases}}{{/aliases}}</small></span><span><b>{{current}}</b>{{#from}}<small>{{from}}</small>{{/from}}</span></a></li>{{/items}}
    </ul></div>
    <form class="card" method="post" action="/lifts/formula">
      <label for="formula">Estimate one-rep maxes with</label>
      <select id="formula" name="formula">{{#formulas}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/formulas}}</select>
      <button type="submit">Save</button>
    </form>
    {{/hasItems}}
    """

    static let exercise = """
    <p class="go"><a href="/lifts">← Lifts</a></p>
    <h1>{{name}}</h1>
    {{#hasAliases}}<p class="muted">Also logged as {{#aliases}}<span>{{name}}</span> {{/aliases}}</p>{{/hasAliases}}
    <div class="figures">{{#figures}}<div><span>{{label}}</span><b>{{value}}</b><small class="go">{{#link}}<a href="{{link}}">{{/link}}{{detail}}{{#link}}</a>{{/link}}</small></div>{{/figures}}</div>
    <div class="card chart">{{{chart}}}</div>
    <p class="muted">{{formula}} from the best set of each day{{^includeHighReps}} of 1 to 10 reps (sets above 10 reps are less reliable: <a href="/lifts/{{id}}?include_high_reps=true">include them</a>){{/includeHighReps}}{{#includeHighReps}}, sets above 10 reps included (<a href="/lifts/{{id}}">leave them out</a>){{/includeHighReps}}. Warm-ups never count. {{totalSets}} sets, {{span}}.</p>
    <div class="card"><h2 class="first">Records</h2><table><tbody>{{#records}}
      <tr><th>{{label}}</th><td>{{value}}</td><td class="muted">{{day}}</td></tr>{{/records}}{{#repMaxes}}
      <tr><th>{{label}}</th><td>{{value}}</td><td class="muted">{{day}}</td></tr>{{/repMaxes}}
    </tbody></table><p class="muted">A rep max is the heaviest weight lifted for at least that many reps.</p></div>
    <div class="card"><h2 class="first">Weekly volume</h2><table class="weeks"><thead><tr><th>Week</th><th class="num">Weight × reps</th><th class="num">Sets</th></tr></thead><tbody>{{#weeks}}
      <tr><td>{{week}}</td><td class="num">{{volume}}</td><td class="num">{{sets}}</td></tr>{{/weeks}}
    </tbody></table></div>
    {{#targets.0}}
    <form class="card" method="post" action="/lifts/{{id}}/alias-of">
      <label for="target">Same exercise as (merges this one's history into it)</label>
      <select id="target" name="exercise">{{#targets}}<option value="{{id}}">{{name}}</option>{{/targets}}</select>
      <button type="submit" class="secondary">Merge</button>
    </form>
    {{/targets.0}}
    {{#aliases}}<form method="post" action="/lifts/{{id}}/separate" class="inline"><button type="submit" class="secondary">Make “{{name}}” its own exercise</button></form>{{/aliases}}
    """

    static let workouts = """
    <p class="go"><a href="/lifts">← Lifts</a></p>
    <h1>Workouts</h1>
    {{^hasItems}}<div class="card"><p>No workouts yet.</p></div>{{/hasItems}}
    {{#hasItems}}<div class="card"><ul class="lifts">{{#items}}
      <li><a href="/workouts/{{id}}"><span>{{name}} <small>{{day}} · {{summary}}</small><small>{{exercises}}</small></span></a></li>{{/items}}
    </ul></div>{{/hasItems}}
    <nav class="pager">{{#previous}}<a href="{{previous}}">← Newer</a>{{/previous}}<span></span>{{#next}}<a href="{{next}}">Older →</a>{{/next}}</nav>
    """

    static let workout = """
    <p class="go"><a href="/workouts">← Workouts</a></p>
    <h1>{{name}}</h1>
    <p class="muted">{{day}} · {{facts}}</p>
    {{#note}}<p class="card">{{note}}</p>{{/note}}
    {{#blocks}}<div class="card"><h2 class="first">{{exercise}}</h2><ol class="sets">{{#lines}}
      <li>{{set}}{{#kind}}<span class="tag">{{kind}}</span>{{/kind}}{{#rpe}}<span class="tag">{{rpe}}</span>{{/rpe}}{{#estimate}}<span class="est">1RM {{estimate}}</span>{{/estimate}}{{#note}}<br><small class="muted">{{note}}</small>{{/note}}</li>{{/lines}}
    </ol></div>{{/blocks}}
    <form method="post" action="/workouts/{{id}}/delete"><button type="submit" class="secondary">Delete this workout</button></form>
    """
}
