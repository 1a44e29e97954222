import { graphiqlClientId } from '../oauth2/first-party';

/**
 * Starts GraphiQL on the page's own URL, over HTTP and graphql-ws (which carries the headers tab as connection params).
 * A link's `query`, `variables` and `operationName` open in the editor (a new tab beside the stored ones); the link's
 * operation is the one run until the document is edited. Headers, bearer tokens among them, stay out of localStorage
 * unless the user turns "Persist headers" on in the settings: `shouldPersistHeaders` is left unset, which defaults to
 * off and keeps the setting shown, and the history GraphiQL stores (which keeps each run's headers whatever the
 * setting) is stored without them.
 *
 * "Sign in" is OAuth 2.0 code + PKCE as the built-in public client (src/oauth2/first-party.ts), in plain WebCrypto
 * since the page has no bundler: the verifier, state and the link's query string wait in sessionStorage across the
 * redirect only; the access token lives in a variable, for the page's life, and is sent as `Authorization: Bearer` by
 * the fetcher (graphql-ws takes it as a connection param) unless the headers tab names an Authorization of its own.
 * "Sign out" drops it and revokes it. The provider grants nothing without the `openid` scope, so an ID token comes
 * too: its nonce, audience and issuer are checked; the page shows `viewer { nameDisplay }`.
 */
export const startScript = `(function () {
  var clientId = '${graphiqlClientId}';
  var pendingKey = 'lectern:graphiql-sign-in';
  var page = location.origin + location.pathname;
  var signedIn = null;
  var problem = '';

  function discovery() {
    return fetch(new URL('.well-known/openid-configuration', location.href)).then(function (response) {
      if (!response.ok) throw new Error('This server does not sign in with OAuth 2.0');
      return response.json();
    });
  }
  // The client's one redirect URI: GraphiQL at the issuer's origin.
  function redirectUriOf(server) { return new URL(server.issuer).origin + '/graphql'; }
  function base64url(bytes) {
    return btoa(String.fromCharCode.apply(null, new Uint8Array(bytes)))
      .replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
  }
  function randomString() { return base64url(crypto.getRandomValues(new Uint8Array(32))); }
  function form(fields) {
    return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) };
  }
  function fail(error) {
    problem = error.message;
    draw();
  }

  async function signIn() {
    var server = await discovery();
    var redirectUri = redirectUriOf(server);
    // Reached at another address (localhost for 127.0.0.1): sign in from the issuer's GraphiQL, which starts at once.
    if (page !== redirectUri) return location.assign(redirectUri + location.search + '#sign-in');
    var pending = { verifier: randomString(), state: randomString(), nonce: randomString(), search: location.search };
    var challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pending.verifier)));
    sessionStorage.setItem(pendingKey, JSON.stringify(pending));
    var url = new URL(server.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      nonce: pending.nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: pending.state,
    }).toString();
    location.assign(url.href);
  }

  async function finishSignIn(pending, answer) {
    var server = await discovery();
    if (answer.get('state') !== pending.state || answer.get('iss') !== server.issuer)
      throw new Error('The sign-in answer is not for this page: sign in again');
    if (answer.has('error')) throw new Error(answer.get('error_description') || answer.get('error'));
    var response = await fetch(server.token_endpoint, form({
      grant_type: 'authorization_code',
      client_id: clientId,
      redirect_uri: redirectUriOf(server),
      code: answer.get('code'),
      code_verifier: pending.verifier,
    }));
    var tokens = await response.json();
    if (!response.ok) throw new Error(tokens.error_description || tokens.error);
    // Straight from the token endpoint, so its signature need not be checked (OpenID Connect Core 3.1.3.7): its claims are.
    var claims = JSON.parse(atob(tokens.id_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    if (claims.iss !== server.issuer || claims.aud !== clientId || claims.nonce !== pending.nonce)
      throw new Error('The ID token is not for this sign-in: sign in again');
    var viewer = await fetch(page, {
      method: 'POST',
      headers: { authorization: 'Bearer ' + tokens.access_token, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { nameDisplay } }' }),
    }).then(function (answered) { return answered.json(); });
    signedIn = { token: tokens.access_token, name: viewer.data.viewer.nameDisplay };
    problem = '';
    draw();
  }

  async function signOut() {
    var token = signedIn.token;
    signedIn = null;
    draw();
    var server = await discovery();
    await fetch(server.revocation_endpoint, form({ token: token, token_type_hint: 'access_token', client_id: clientId }));
  }

  // Back from the authorization server: the code is exchanged, and the address bar gets the link's query back.
  var answer = new URLSearchParams(location.search);
  var pending = JSON.parse(sessionStorage.getItem(pendingKey) || 'null');
  if (pending && answer.has('state')) {
    sessionStorage.removeItem(pendingKey);
    history.replaceState(null, '', location.pathname + pending.search);
    finishSignIn(pending, answer).catch(fail);
  } else if (location.hash === '#sign-in') {
    history.replaceState(null, '', location.pathname + location.search);
    signIn().catch(fail);
  }

  var url = location.origin + location.pathname;
  var link = new URLSearchParams(location.search);
  var graphqlFetcher = GraphiQL.createFetcher({ url: url, subscriptionUrl: url.replace(/^http/, 'ws') });
  function fetcher(params, options) {
    var headers = (options && options.headers) || {};
    var typed = Object.keys(headers).some(function (name) { return name.toLowerCase() === 'authorization'; });
    if (!signedIn || typed) return graphqlFetcher(params, options);
    return graphqlFetcher(params, Object.assign({}, options, {
      headers: Object.assign({ Authorization: 'Bearer ' + signedIn.token }, headers),
    }));
  }
  var runHistory = /^graphiql:(queries|favorites)$/;
  var storage = {
    getItem: function (key) { return localStorage.getItem(key); },
    setItem: function (key, value) {
      if (runHistory.test(key) && localStorage.getItem('graphiql:shouldPersistHeaders') !== 'true') {
        var stored = JSON.parse(value);
        stored.queries = (stored.queries || []).map(function (item) {
          return Object.assign({}, item, { headers: undefined });
        });
        value = JSON.stringify(stored);
      }
      localStorage.setItem(key, value);
    },
    removeItem: function (key) { localStorage.removeItem(key); },
    clear: function () {
      Object.keys(localStorage).forEach(function (key) {
        if (key.indexOf('graphiql:') === 0) localStorage.removeItem(key);
      });
    },
    get length() {
      return Object.keys(localStorage).filter(function (key) { return key.indexOf('graphiql:') === 0; }).length;
    },
  };

  function account() {
    var e = React.createElement;
    if (signedIn)
      return e('span', { className: 'lectern-account' }, 'Signed in as ', e('strong', null, signedIn.name),
        e('button', { type: 'button', className: 'graphiql-button', onClick: function () { signOut().catch(fail); } }, 'Sign out'));
    return e('span', { className: 'lectern-account' }, problem && e('span', { role: 'alert' }, problem),
      e('button', { type: 'button', className: 'graphiql-button', onClick: function () { signIn().catch(fail); } }, 'Sign in'));
  }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var operationName = link.get('operationName') || undefined;
  function draw() {
    root.render(React.createElement(GraphiQL, {
      fetcher: fetcher,
      storage: storage,
      plugins: [GraphiQLPluginExplorer.explorerPlugin()],
      defaultEditorToolsVisibility: 'headers',
      query: link.get('query') || undefined,
      variables: link.get('variables') || undefined,
      operationName: operationName,
      onEditQuery: function (query) {
        if (operationName && query !== link.get('query')) {
          operationName = undefined;
          draw();
        }
      },
    }, React.createElement(GraphiQL.Logo, null, 'Lectern', account())));
  }
  draw();
})();
`;
