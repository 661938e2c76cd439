// The authorization server's error page (oidc-provider's renderError) in the service's own page frame.
import { html, notice, page } from '../transport/html.js';

export interface OauthErrorPageOptions {
  nonce: string;
  /** The OAuth error code, e.g. `invalid_request`, `invalid_client`. */
  error: string;
  /** The provider's description of what was wrong (escaped like every value). */
  description?: string | null;
}

/** A request the authorization server refuses without sending it back to an app: what went wrong, and what to do. */
export function oauthErrorPage(o: OauthErrorPageOptions): string {
  return page({
    title: 'Connect an app',
    nonce: o.nonce,
    body: html`${notice('error', o.description || 'This request to connect an app is not valid.')}
<p>Error code: <code data-oauth-error>${o.error}</code></p>
<p>Start connecting again from the app. If it keeps failing, the app may not support this service.</p>`,
  });
}
