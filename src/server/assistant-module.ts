// Assistant module: the /assistant page and its socket, over the A2A conversations (after the A2A module).
import type { ServiceModule } from './service-module.js';
import { ownOriginsOf } from './own-origins.js';
import { proxyOptions } from '../transport/proxy-options.js';
import { AssistantSocket } from '../web/assistant/assistant-socket.js';
import { assistantRouter } from '../web/assistant/assistant-router.js';

export const assistantModule: ServiceModule = (ctx) => {
  const socket = new AssistantSocket({
    auth: ctx.auth,
    conversations: () => ctx.conversations,
    logger: ctx.logger.child({ component: 'assistant' }),
    koaOptions: proxyOptions(ctx.config.env.TRUST_PROXY),
    ownOrigins: ownOriginsOf(ctx),
    sockets: ctx.websockets,
  });
  return {
    routers: [assistantRouter({ auth: ctx.auth })],
    upgrades: [socket.route()],
    stop: () => socket.close(),
  };
};
