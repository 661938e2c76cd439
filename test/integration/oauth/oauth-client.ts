// A scripted OAuth client for the connected-apps tests: discovery, registration, PKCE, the consent forms followed like a browser.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { TestService } from '../../support/test-service.js';

export const REDIRECT_URI = 'http://127.0.0.1:47999/callback';

/** A minimal cookie jar: the authorization server's interaction and session cookies across redirects. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      if (/max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface PageVisit {
  status: number;
  url: string;
  html: string;
  /** The redirect that left the server for the client (the callback), when the flow ended. */
  callback: URL | null;
}

/** GET (or POST a form) and follow redirects on the service, stopping at a page or at the client's callback. */
export async function visit(t: TestService, jar: CookieJar, url: string, form?: Record<string, string>): Promise<PageVisit> {
  let next = new URL(url, t.url).toString();
  let init: RequestInit = form
    ? { method: 'POST', body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
    : { method: 'GET' };
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(REDIRECT_URI)) return { status: 302, url: next, html: '', callback: new URL(next) };
    const res = await fetch(next, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      next = new URL(location, next).toString();
      init = { method: 'GET' };
      continue;
    }
    return { status: res.status, url: next, html: await res.text(), callback: null };
  }
  throw new Error('too many redirects');
}

/** The action of the page's form that posts to the consent pages. */
export function formAction(html: string): string {
  const m = /<form method="post" action="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form on the page: ${html.slice(0, 500)}`);
  return m[1].replace(/&amp;/g, '&');
}

export interface RegisteredClient {
  clientId: string;
  metadata: Record<string, any>;
}

let nextLoopback = 2;
/**
 * A loopback source address of its own (127.0.0.2 to 127.0.0.250, in turn): registrations are limited per address
 * (contract 12), and tests that are not about that limit register from different addresses.
 */
export function freshLoopbackAddress(): string {
  const n = nextLoopback;
  nextLoopback = n >= 250 ? 2 : n + 1;
  return `127.0.0.${n}`;
}

/** POSTs a JSON body (or raw text) from the given local address; answers the status, headers and parsed body. */
export function postJsonFrom(url: string, body: unknown, localAddress: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any; text: string }> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Discovery from the resource's metadata, then dynamic registration of a public client. */
export async function registerClient(t: TestService, kind: 'mcp' | 'a2a', name = `Test ${kind} client`): Promise<RegisteredClient> {
  const prm = await (await fetch(new URL(`/.well-known/oauth-protected-resource/${kind}`, t.url))).json();
  const issuer = prm.authorization_servers[0] as string;
  const metadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
  const reg = await postJsonFrom(
    metadata.registration_endpoint,
    {
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    },
    freshLoopbackAddress(),
  );
  const body = reg.body;
  if (reg.status !== 201) throw new Error(`registration: ${reg.status} ${JSON.stringify(body)}`);
  return { clientId: body.client_id, metadata };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(client: RegisteredClient, o: { resource: string; challenge?: string; method?: string; scope?: string; state?: string }): string {
  const u = new URL(client.metadata.authorization_endpoint);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', client.clientId);
  u.searchParams.set('redirect_uri', REDIRECT_URI);
  u.searchParams.set('state', o.state ?? 'state-1');
  u.searchParams.set('scope', o.scope ?? 'operator offline_access');
  if (o.resource) u.searchParams.set('resource', o.resource);
  if (o.challenge) {
    u.searchParams.set('code_challenge', o.challenge);
    u.searchParams.set('code_challenge_method', o.method ?? 'S256');
  }
  return u.toString();
}

export async function tokenRequest(client: RegisteredClient, params: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(client.metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: client.clientId, ...params }).toString(),
  });
  return { status: res.status, body: await res.json() };
}

/** The whole connection as a person would do it: sign in (and the code), pick a role, allow. Answers the tokens. */
export async function connect(
  t: TestService,
  client: RegisteredClient,
  o: { email: string; password: string; role: string; resource: string; code?: () => string },
): Promise<{ access_token: string; refresh_token?: string; scope?: string }> {
  const jar = new CookieJar();
  const { verifier, challenge } = pkce();
  let page = await visit(t, jar, authorizeUrl(client, { resource: o.resource, challenge }));
  page = await visit(t, jar, formAction(page.html), { email: o.email, password: o.password });
  if (page.html.includes('name="code"')) page = await visit(t, jar, formAction(page.html), { code: o.code!() });
  page = await visit(t, jar, formAction(page.html), { role: o.role, decision: 'allow' });
  if (!page.callback) throw new Error(`no callback: ${page.status} ${page.url} ${page.html.slice(500, 1500)}`);
  const code = page.callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${page.callback.toString()}`);
  const token = await tokenRequest(client, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, resource: o.resource });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
  return token.body;
}
