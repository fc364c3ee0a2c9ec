// Arbiter web: the one place that speaks HTTP to /api/v1.
// Every request goes through request(); it turns non-2xx answers into ApiError
// carrying the server's JSON error body, and retries requests that are safe to
// repeat (reads, and writes made idempotent by the caller, such as a move that
// names its ply) when the network or a restarting daemon drops them.

export const BASE = '/api/v1';

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && typeof body.error === 'object' && body.error) || body || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = err.code || '';
  }
}

// Sessions are cookies; unsafe requests made with one must echo the CSRF token
// the login (or /auth/me) returned.
let csrf = null;
export function setCsrf(token) { csrf = token || null; }

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const transient = (status) => status === 0 || status === 502 || status === 503 || status === 504;

// request(method, path, body, {retry, first}) -> parsed JSON (or text for non-JSON).
// retry: how many extra attempts after a network failure or 502/503/504; only
// pass it for requests whose repetition cannot do anything twice.
export async function request(method, path, body, opts = {}) {
  const retry = opts.retry ?? (method === 'GET' ? 4 : 0);
  const headers = { Accept: 'application/json' };
  if (body !== undefined && !(body instanceof FormData) && typeof body !== 'string') headers['Content-Type'] = 'application/json';
  if (csrf && method !== 'GET') headers['X-CSRF-Token'] = csrf;
  const init = {
    method, headers, credentials: 'same-origin', cache: 'no-store',
    body: body === undefined ? undefined : (typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body)),
  };
  let delay = 300;
  let limited = 0;
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      // opts.first: this read's first answer, asked for already (sentEarly).
      res = await (attempt === 0 && opts.first ? opts.first : fetch(path.startsWith('/') ? path : `${BASE}/${path}`, init));
    } catch {
      if (attempt < retry) { await sleep(delay); delay = Math.min(delay * 2, 4000); continue; }
      throw new ApiError(0, { message: 'network', code: 'network' });
    }
    if (transient(res.status) && attempt < retry) { await sleep(delay); delay = Math.min(delay * 2, 4000); continue; }
    // Over the server's request rate limit: nothing was done, so any request
    // may be sent again after the wait the server names (a few times).
    if (res.status === 429 && limited < 3) {
      const err = await res.clone().json().catch(() => null);
      if (err && err.error && err.error.code === 'rate_limited') {
        limited++;
        await sleep(Math.min(Number(res.headers.get('Retry-After')) || 1, 5) * 1000);
        continue;
      }
    }
    const type = res.headers.get('Content-Type') || '';
    const data = type.includes('json') ? await res.json().catch(() => null) : await res.text();
    if (!res.ok) throw new ApiError(res.status, typeof data === 'object' ? data : { message: data });
    return data;
  }
}

// Who am I: {role, user, player, game_id, colour, csrf_token}; remembers the CSRF token.
export async function whoami() {
  const me = await get('auth/me');
  setCsrf(me.csrf_token);
  return me;
}

export async function login(username, password) {
  const me = await request('POST', 'auth/login', { username, password });
  setCsrf(me.csrf_token);
  return me;
}

// By tournament and PIN, or by the player's token alone.
export async function playerLogin(tournamentId, pin, token) {
  const body = token ? { token } : { tournament_id: Number(tournamentId), pin: String(pin) };
  const me = await request('POST', 'auth/player', body);
  setCsrf(me.csrf_token);
  return me;
}

export async function logout() {
  try { await request('POST', 'auth/logout', {}); } finally { setCsrf(null); }
}

// The reads the page's first script (js/early.js) sent before any module
// ran: the promise of PATH's Response, taken once, if sent in the last ten
// seconds.
function sentEarly(path) {
  const sent = window.arbiterEarly;
  const e = sent && sent[path];
  if (!e) return null;
  delete sent[path];
  return Date.now() - e.at < 10000 ? e.res : null;
}

export const get = (p, o) => request('GET', p, undefined, { ...o, first: sentEarly(p) });
export const post = (p, b, o) => request('POST', p, b ?? {}, o);
export const put = (p, b, o) => request('PUT', p, b ?? {}, o);
export const patch = (p, b, o) => request('PATCH', p, b ?? {}, o);
export const del = (p, o) => request('DELETE', p, undefined, o);
