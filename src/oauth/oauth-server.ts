// The authorization server of this service, made on first use (its issuer is BASE_URL, known once the server listens).
import type Provider from 'oidc-provider';
import type { Queryable } from '../db/db.js';
import { createOauthProvider } from './oauth-provider.js';
import { oauthCookieKeys, oauthSigningJwk } from './oauth-keys.js';

export interface OauthServerOptions {
  db: Queryable;
  secretKey: Buffer;
  baseUrl: () => string;
  proxy: boolean;
  now: () => number;
}

export class OauthServer {
  private provider: Promise<Provider> | null = null;

  constructor(private readonly o: OauthServerOptions) {}

  /** The issuer: the service's public origin, without a trailing slash. */
  issuer(): string {
    return this.o.baseUrl().replace(/\/+$/, '');
  }

  /** The provider, created once (concurrent first requests share the creation). */
  get(): Promise<Provider> {
    this.provider ??= (async () => {
      const signingJwk = await oauthSigningJwk(this.o.db, this.o.secretKey, this.o.now());
      return createOauthProvider({ db: this.o.db, issuer: this.issuer(), signingJwk, cookieKeys: oauthCookieKeys(this.o.secretKey), proxy: this.o.proxy, now: this.o.now });
    })();
    this.provider.catch(() => (this.provider = null));
    return this.provider;
  }
}
