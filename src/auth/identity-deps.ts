// What the identity services share: database, clock, logger, keys, throttle, two-factor policy, audit writer, token cache.
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import { writeAuditEvent, type AuditInput } from './audit-log.js';
import { FailureThrottle } from './failure-throttle.js';
import { TwoFactorPolicy } from './two-factor-policy.js';
import { ApiTokenCache } from './api-token-cache.js';
import { IdentityChanges } from './identity-changes.js';

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Encrypts TOTP secrets at rest. */
  secretKey: Buffer;
  /** PBKDF2 iterations for new hashes. */
  iterations: number;
  /** The workspace password, null when there is none (the last-active-operator rule). */
  workspacePassword: string | null;
  throttle: FailureThrottle;
  policy: TwoFactorPolicy;
  audit(event: AuditInput): Promise<void>;
  /** Resolved API tokens (the hot path of every API request); forgets everything on an identity change. */
  tokenCache: ApiTokenCache;
  /**
   * Every committed write that changes what a token resolves to (revocation; its owner's role,
   * enabled flag, password state or two-factor) is announced here before its response.
   */
  changes: IdentityChanges;
}

/** Where a request came from, as audit rows and sessions record it. */
export interface RequestInfo {
  ip: string;
  userAgent: string | null;
}

export function createIdentityDeps(o: {
  db: Db;
  clock: Clock;
  logger: Logger;
  secretKey: Buffer;
  iterations: number;
  workspacePassword: string | null;
}): IdentityDeps {
  const tokenCache = new ApiTokenCache();
  const changes = new IdentityChanges();
  changes.subscribe(() => tokenCache.invalidate());
  return {
    ...o,
    throttle: new FailureThrottle(o.db, o.clock),
    policy: new TwoFactorPolicy(o.db, o.clock),
    audit: (event) => writeAuditEvent(o.db, o.clock, o.logger, event),
    tokenCache,
    changes,
  };
}
