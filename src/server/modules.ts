// The feature modules of the service, in start order (each file registers its own routes).
// The engine comes first: later modules read `ctx.engine`.
import type { ServiceModule } from './service-module.js';
import { engineModule } from './engine-service-module.js';
import { identityModule } from './identity-module.js';
import { ordersModule } from './orders-module.js';
import { notificationsModule } from './notifications-module.js';
import { commerceModule } from './commerce-module.js';
import { channelsModule } from './channels-module.js';
import { observabilityModule } from './observability-module.js';
import { agentsMcpModule } from './agents-mcp-module.js';
import { oauthModule } from './oauth-module.js';
import { assistantModule } from './assistant-module.js';
import { agentsA2aModule } from './agents-a2a-module.js';
import { dashboardModule } from './dashboard-module.js';
import { batchesModule } from './batches-module.js';

export const serviceModules: ServiceModule[] = [engineModule, observabilityModule, identityModule, oauthModule, ordersModule, batchesModule, dashboardModule, notificationsModule, commerceModule, channelsModule, agentsMcpModule, agentsA2aModule, assistantModule];
