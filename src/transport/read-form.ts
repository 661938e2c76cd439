// Reads an application/x-www-form-urlencoded body (the dashboard's and the consent pages' forms) within the JSON size cap.
import type { Context } from 'koa';
import { readRawBody } from './read-body.js';

const FORM_LIMIT = 64 * 1024;

/** The form fields as strings (a missing field reads as ''). */
export async function readForm(ctx: Context): Promise<(name: string) => string> {
  const params = await readFormFields(ctx);
  return (name) => params.get(name) ?? '';
}

/** Every field of the form, in the order sent (a form whose field names carry data: one quantity per line). */
export async function readFormFields(ctx: Context): Promise<URLSearchParams> {
  const body = await readRawBody(ctx, FORM_LIMIT);
  return new URLSearchParams(body.toString('utf8'));
}

/** A local path to go to after sign-in; anything else (another host, `//x`) becomes null. */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith('/login') || value.startsWith('/logout')) return null;
  return value.slice(0, 500);
}
