/// Templates of hosted mode's pages: log-in, sign-up and the account page.
enum AccountTemplates {
    static let all: [String: String] = ["login": login, "signup": signup, "account": account]

    static let style = """
    .secret { font-family:ui-monospace, monospace; word-break:break-all; background:var(--bg); padding:8px; border-radius:8px; }
    .narrow { max-width:420px; margin:24px auto; }
    """

    static let login = """
    <div class="narrow">
    <h1>Log in to Cinn</h1>
    {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
    <form class="card" method="post" action="/login">
      <input type="hidden" name="next" value="{{next}}">
      <label for="name">Name</label>
      <input id="name" name="name" value="{{name}}" autocomplete="username" autocapitalize="none" required autofocus>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <p><button type="submit">Log in</button></p>
    </form>
    {{#canSignUp}}<p>New here? <a href="/signup">Make an account</a>.</p>{{/canSignUp}}
    </div>
    """

    static let signup = """
    <div class="narrow">
    <h1>Make an account</h1>
    {{#closed}}<div class="card"><p>Sign-up is closed on this server. Ask its administrator for an account.</p></div>{{/closed}}
    {{^closed}}
    {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
    <form class="card" method="post" action="/signup">
      <label for="name">Name</label>
      <input id="name" name="name" value="{{name}}" autocomplete="username" autocapitalize="none" required autofocus
        pattern="[A-Za-z0-9._\\-]{3,32}" aria-describedby="name-help">
      <p id="name-help" class="muted">3 to 32 letters, digits, dots, dashes or underscores.</p>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required aria-describedby="password-help">
      <p id="password-help" class="muted">At least 10 characters.</p>
      {{#needsInvite}}
      <label for="invite">Invite code</label>
      <input id="invite" name="invite" value="{{invite}}" autocomplete="off" required>
      {{/needsInvite}}
      <p><button type="submit">Make my account</button></p>
    </form>
    {{/closed}}
    <p>Have an account? <a href="/login">Log in</a>.</p>
    </div>
    """

    static let account = """
    <h1>Your account</h1>
    <p>Logged in as <b>{{name}}</b>{{#isAdmin}} (administrator){{/isAdmin}}.</p>
    {{#message}}<p class="card" role="status">{{message}}</p>{{/message}}
    {{#newSecret}}<div class="card" role="status"><p><b>{{label}}</b> — copy it now: it is not shown again.</p><p class="secret">{{value}}</p></div>{{/newSecret}}

    <h2>Password</h2>
    {{#passwordError}}<p class="error" role="alert">{{passwordError}}</p>{{/passwordError}}
    <form class="card" method="post" action="/account/password">
      <label for="current_password">Current password</label>
      <input id="current_password" name="current_password" type="password" autocomplete="current-password" required>
      <label for="new_password">New password</label>
      <input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="10" required>
      <p><label><input type="checkbox" name="revoke_tokens" value="true" checked> Also revoke my API tokens (apps and scripts log in again)</label></p>
      <p class="muted">Changing it logs out your other browsers.</p>
      <p><button type="submit">Change password</button></p>
    </form>

    <h2>API tokens</h2>
    <p class="muted">For apps and scripts: send <code>Authorization: Bearer &lt;token&gt;</code> to the <a href="/api/openapi.yaml">API</a>.</p>
    {{#tokenError}}<p class="error" role="alert">{{tokenError}}</p>{{/tokenError}}
    <form class="card row" method="post" action="/account/tokens">
      <div><label for="token_name">New token's name</label><input id="token_name" name="name" placeholder="My phone" required maxlength="60"></div>
      <div class="shrink"><button type="submit">Create</button></div>
    </form>
    {{#hasTokens}}<div class="card"><table><thead><tr><th>Name</th><th>Made</th><th>Last used</th><th></th></tr></thead><tbody>{{#tokens}}
      <tr><td>{{name}}</td><td>{{created}}</td><td>{{lastUsed}}</td><td>{{#revoked}}<span class="muted">revoked</span>{{/revoked}}{{^revoked}}<form class="inline" method="post" action="/account/tokens/{{id}}/revoke"><button type="submit" class="secondary">Revoke</button></form>{{/revoked}}</td></tr>{{/tokens}}
    </tbody></table></div>{{/hasTokens}}

    {{#isAdmin}}
    <h2>People on this server</h2>
    <div class="card"><table><tbody>{{#users}}<tr><td>{{name}}</td><td class="muted">{{role}}</td></tr>{{/users}}</tbody></table></div>
    <form class="card" method="post" action="/account/invites">
      <p>An invite lets one person make an account within 7 days.</p>
      <button type="submit">Make an invite</button>
    </form>
    {{/isAdmin}}
    """
}
