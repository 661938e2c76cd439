// MCP module: the agents' tools served to MCP clients at /mcp (contract section 11).
import type { ServiceModule } from './service-module.js';
import { ownOriginsOf } from './own-origins.js';
import { mcpRouter } from '../mcp/mcp-endpoint.js';
import { bearerChallenge } from '../oauth/oauth-resources.js';

export const agentsMcpModule: ServiceModule = (ctx) => ({
  routers: [
    mcpRouter({
      registry: ctx.operations,
      auth: ctx.auth,
      logger: ctx.logger.child({ component: 'mcp' }),
      serverName: ctx.config.env.SERVICE_NAME,
      version: '1.0.0',
      ownOrigins: ownOriginsOf(ctx),
      challenge: (_c, error) => bearerChallenge(ctx.baseUrl(), 'mcp', error),
    }),
  ],
});
