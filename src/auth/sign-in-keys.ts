// The throttling keys and limits of the spec table: per email+address, address, email, code step, Account page, bearer (an IPv6 address counted by its /64).
import { addressGroup } from '../platform/address-group.js';
import type { ThrottleRule } from './failure-throttle.js';

export const LIMIT_EMAIL_AND_ADDRESS = 5;
export const LIMIT_ADDRESS = 30;
export const LIMIT_EMAIL = 50;
export const LIMIT_CODE_STEP = 5;
export const LIMIT_ACCOUNT_PAGE = 5;
export const LIMIT_BEARER_GUESSES = 20;

/** The email as counted: lower-cased; the workspace password (empty email) counts as `workspace`. */
export function throttleEmail(email: string): string {
  const e = email.trim().toLowerCase();
  return e === '' ? 'workspace' : e;
}

export const pairKey = (email: string, ip: string): string => `pair:${throttleEmail(email)}|${addressGroup(ip)}`;

/** The three sign-in rows, checked together before the password is looked at. */
export function signInRules(email: string, ip: string): ThrottleRule[] {
  return [
    { key: pairKey(email, ip), limit: LIMIT_EMAIL_AND_ADDRESS },
    { key: `address:${addressGroup(ip)}`, limit: LIMIT_ADDRESS },
    { key: `email:${throttleEmail(email)}`, limit: LIMIT_EMAIL },
  ];
}

export const codeStepRule = (personId: string): ThrottleRule => ({ key: `code:${personId}`, limit: LIMIT_CODE_STEP });
export const accountPageRule = (personId: string): ThrottleRule => ({ key: `account:${personId}`, limit: LIMIT_ACCOUNT_PAGE });
export const bearerRule = (ip: string): ThrottleRule => ({ key: `bearer:${addressGroup(ip)}`, limit: LIMIT_BEARER_GUESSES });
