// Channels module: integration operations, the signed inbound routes, the storefront-platform and EDI 850 adapters.
import type { ServiceModule } from './service-module.js';
import { integrationSealKey } from '../channels/integrations/integration-store.js';
import { purgeReceipts } from '../channels/signed/event-receipts.js';
import { integrationOperations } from '../application/operations/integration-operations.js';
import { signedWebhookRoutes } from '../http/routes/signed-webhook-routes.js';
import { channelAdapterRoutes } from '../http/routes/channel-adapter-routes.js';

/** Receipts of signed events outlive their 5-minute window by at most this long. */
const RECEIPT_PURGE_INTERVAL_MS = 10 * 60 * 1000;

export const channelsModule: ServiceModule = (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the channels module needs the engine module first');
  const { db, clock, logger } = ctx;
  const sealKey = integrationSealKey(ctx.secretKey);
  const log = logger.child({ component: 'channels' });
  ctx.operations.add(...integrationOperations({ db, clock, logger, sealKey }));
  ctx.routes.push(
    ...signedWebhookRoutes({ db, clock, engine, sealKey }),
    ...channelAdapterRoutes({ db, clock, engine, logger: log }),
  );

  let timer: NodeJS.Timeout | null = null;
  // A backlog (the first purge after downtime) may take longer than the statement timeout: maintenance runs without it.
  const purge = () =>
    db.maintenanceTx((c) => purgeReceipts(c, clock.now())).catch((err) => log.warn({ err: (err as Error).message }, 'signed event receipt purge failed'));
  return {
    start: async () => {
      await purge();
      timer = setInterval(() => void purge(), RECEIPT_PURGE_INTERVAL_MS);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
    },
  };
};
