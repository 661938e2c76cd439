// The two protected resources of connected apps (/mcp and /a2a), their addresses and metadata (RFC 9728, contract 12).
import { roles } from '../auth/roles.js';
import type { AppKind } from '../auth/connected-apps.js';

export type { AppKind };
export const APP_KINDS: readonly AppKind[] = ['mcp', 'a2a'];

/** The resource indicator of an endpoint: BASE_URL + path, no trailing slash (RFC 8707). */
export function resourceUrl(baseUrl: string, kind: AppKind): string {
  return `${baseUrl.replace(/\/+$/, '')}/${kind}`;
}

/** Which endpoint a resource indicator names, or null when it is neither. */
export function kindOfResource(baseUrl: string, resource: string): AppKind | null {
  return APP_KINDS.find((kind) => resourceUrl(baseUrl, kind) === resource) ?? null;
}

/** The metadata document's address (path-inserted, RFC 9728 section 3.1). */
export function resourceMetadataUrl(baseUrl: string, kind: AppKind): string {
  return `${baseUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource/${kind}`;
}

/** RFC 9728 protected-resource metadata: the resource, its authorization server, the roles as scopes. */
export function protectedResourceMetadata(baseUrl: string, kind: AppKind): Record<string, unknown> {
  return {
    resource: resourceUrl(baseUrl, kind),
    authorization_servers: [baseUrl.replace(/\/+$/, '')],
    scopes_supported: [...roles],
    bearer_methods_supported: ['header'],
    resource_name: kind === 'mcp' ? 'Order orchestration MCP server' : 'Order orchestration A2A agent',
  };
}

/** The 401 challenge of a resource: where its metadata is, and why the token (if any) was refused. */
export function bearerChallenge(baseUrl: string, kind: AppKind, error?: 'invalid_token'): string {
  return `Bearer resource_metadata="${resourceMetadataUrl(baseUrl, kind)}"${error ? `, error="${error}"` : ''}`;
}
