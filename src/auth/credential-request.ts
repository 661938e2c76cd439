// What authentication reads of a request, whatever transport carries it (REST, pages, A2A, MCP, websocket upgrades).

/**
 * The method, the headers and the client address: nothing else. A Koa context satisfies it as it
 * is (`ctx.method`, `ctx.get`, `ctx.ip`), and any other transport builds one from its own request,
 * so the authenticator serves every face without depending on a web framework.
 */
export interface CredentialRequest {
  method: string;
  /** A header's value by name (case-insensitive), '' when absent. */
  get(name: string): string;
  /** The client address, after the TRUST_PROXY rule (`docs/security.md`). */
  ip: string;
  /** The request path, for credentials bound to one endpoint (a connected app's token is for /mcp or /a2a). */
  path?: string;
}
