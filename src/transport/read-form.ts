// Reads an application/x-www-form-urlencoded body (the dashboard's and the consent pages' forms) within the JSON size cap.
import type { Context } from 'koa';
import { readRawBody } from './read-body.js';

const FORM_LIMIT = 64 * 1024;

/** The form fields as strings (a missing field reads as ''). */
export async function readForm(ctx: Context): Promise<(name: string) => string> {
  const body = await readRawBody(ctx, FORM_LIMIT);
  const params = new URLSearchParams(body.toString('utf8'));
  return (name) => params.get(name) ?? '';
}

/** A local path to go to after sign-in; anything else (another host, `//x`) becomes null. */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/login') || value.startsWith('/logout')) return null;
  return value.slice(0, 500);
}
