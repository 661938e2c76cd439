// Test helpers for identity: cookie sessions through the real forms, people and tokens through REST.
import { expect } from 'vitest';
import { totpCode } from '../../../src/auth/totp.js';
import type { TestService } from '../../support/test-service.js';

export const COOKIE = 'svc_session';
export const CHALLENGE_COOKIE = 'svc_2fa';

export interface FormResponse {
  status: number;
  location: string | null;
  text: string;
  headers: Headers;
  /** name=value pairs from Set-Cookie (value '' when cleared). */
  cookies: Record<string, string>;
}

export interface FormOptions {
  cookie?: string | null;
  /** Defaults to the service's own origin; `null` sends no Origin header. */
  origin?: string | null;
  headers?: Record<string, string>;
}

function parseSetCookies(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of headers.getSetCookie()) {
    const [pair] = c.split(';');
    const eq = pair.indexOf('=');
    out[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
  }
  return out;
}

/** Sends an HTML form POST (urlencoded) as a browser would. */
export async function postForm(t: TestService, path: string, fields: Record<string, string>, o: FormOptions = {}): Promise<FormResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...o.headers };
  if (o.cookie) headers.cookie = o.cookie;
  const origin = o.origin === undefined ? new URL(t.url).origin : o.origin;
  if (origin) headers.origin = origin;
  const res = await fetch(t.url + path, { method: 'POST', headers, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers, cookies: parseSetCookies(res.headers) };
}

/** A page load with a cookie. */
export async function getPage(t: TestService, path: string, cookie: string | null, headers: Record<string, string> = {}): Promise<FormResponse> {
  const h: Record<string, string> = { accept: 'text/html', ...headers };
  if (cookie) h.cookie = cookie;
  const res = await fetch(t.url + path, { headers: h, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text(), headers: res.headers, cookies: parseSetCookies(res.headers) };
}

/** Reads a `data-<name>="…"` attribute value from a page (first match or all). */
export function dataAttr(html: string, name: string): string | null {
  return new RegExp(`data-${name}="([^"]*)"`).exec(html)?.[1] ?? null;
}
export function dataAttrs(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`data-${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
}

/** Password step; returns the response (session cookie in `cookies` on success). */
export function login(t: TestService, email: string, password: string, o: FormOptions & { ip?: string } = {}): Promise<FormResponse> {
  return postForm(t, '/login', { email, password }, o);
}

/** Signs in with a password only and returns the `svc_session=…` cookie header value. */
export async function sessionCookie(t: TestService, email: string, password: string): Promise<string> {
  const res = await login(t, email, password);
  expect(res.status, res.text.slice(0, 300)).toBe(303);
  expect(res.cookies[COOKIE]).toBeTruthy();
  return `${COOKIE}=${res.cookies[COOKIE]}`;
}

let counter = 0;
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

export interface TestPerson {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

/** Adds a person over REST (workspace password), signs in with the temporary password and chooses a real one. */
export async function makePerson(t: TestService, role: 'viewer' | 'approver' | 'operator', label: string = role): Promise<TestPerson> {
  const email = uniqueEmail(label);
  const added = await t.call('POST', '/api/v1/team', { email, role });
  expect(added.status, added.text).toBe(201);
  const cookie = await sessionCookie(t, email, added.body.temporaryPassword);
  const password = `Correct-Horse-${Math.random().toString(36).slice(2, 10)}-Staple`;
  const changed = await postForm(t, '/account/password', { current: added.body.temporaryPassword, password }, { cookie });
  expect(changed.status, changed.text.slice(0, 500)).toBe(200);
  return { id: added.body.person.id, email, password, cookie };
}

/** Adds a person and leaves them on their temporary password. */
export async function makeTemporaryPerson(t: TestService, role: 'viewer' | 'approver' | 'operator') {
  const email = uniqueEmail(`temp-${role}`);
  const added = await t.call('POST', '/api/v1/team', { email, role });
  expect(added.status, added.text).toBe(201);
  return { id: added.body.person.id as string, email, temporaryPassword: added.body.temporaryPassword as string };
}

export async function makeToken(t: TestService, role: 'viewer' | 'approver' | 'operator', expiresIn = 'never', name = `${role}-${expiresIn}`) {
  const res = await t.call('POST', '/api/v1/api-tokens', { name, role, expiresIn });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.token.id as string, secret: res.body.secret as string, token: res.body.token };
}

/** The service clock now (epoch ms), read by a zero advance. */
export function serverNow(t: TestService): Promise<number> {
  return t.advance(0);
}

/**
 * The enrolment page's pending secret: presses Start (a POST; the page load itself never creates
 * one) when none is pending yet, then loads the page it redirects to.
 */
export async function pendingTotpSecret(t: TestService, cookie: string): Promise<string> {
  const pageRes = await getPage(t, '/account/two-factor', cookie);
  expect(pageRes.status).toBe(200);
  const secret = dataAttr(pageRes.text, 'totp-secret')!;
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  return secret;
}

/** Enrols two-factor through the Account page; returns the secret and the recovery codes. */
export async function enrolTwoFactor(t: TestService, person: TestPerson): Promise<{ secret: string; codes: string[] }> {
  const secret = await pendingTotpSecret(t, person.cookie);
  const now = await serverNow(t);
  const code = totpCode(secret, Math.floor(now / 1000));
  const res = await postForm(t, '/account/two-factor', { password: person.password, code }, { cookie: person.cookie });
  expect(res.status, res.text.slice(0, 800)).toBe(200);
  const codes = dataAttrs(res.text, 'recovery-code');
  expect(codes).toHaveLength(10);
  return { secret, codes };
}

/** Moves the test clock to the middle of a TOTP step well in the future, so real seconds passing cannot change the step. */
export async function toMiddleOfStep(t: TestService, stepsAhead = 10): Promise<number> {
  const now = await serverNow(t);
  const target = (Math.floor(now / 30_000) + stepsAhead) * 30_000 + 15_000;
  const res = await t.call('POST', '/api/v1/test/clock', { now: target });
  expect(res.status).toBe(200);
  return target;
}
