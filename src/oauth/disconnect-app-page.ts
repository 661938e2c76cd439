// The page that asks before a person disconnects one of their connected apps (OAuth clients: MCP, A2A).
import type { Principal } from '../auth/principal.js';
import type { ConnectedApp } from '../auth/connected-apps.js';
import { html, page } from '../transport/html.js';

/** Disconnect asks first: the app stops working at once, and connecting it again needs the whole consent. */
export function disconnectAppPage(o: { nonce: string; principal: Principal; app: ConnectedApp }): string {
  return page({
    title: 'Disconnect app',
    nonce: o.nonce,
    principal: o.principal,
    body: html`<p>Disconnect <strong>${o.app.appName}</strong> (${o.app.kind === 'mcp' ? 'MCP' : 'A2A'}, <code>${o.app.resource}</code>, ${o.app.role})?
Its tokens stop working at once; to use it again you connect it again.</p>
<form method="post" action="/account/apps/${encodeURIComponent(o.app.id)}/disconnect">
  <button type="submit">Disconnect</button>
</form>
<p><a href="/account">Keep it connected</a></p>`,
  });
}
