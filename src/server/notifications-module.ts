// Notifications module: the channels (email over SMTP_URL, the notification.requested webhook), the dispatcher of
// committed notifications and the attempt worker on durable timers, the delivery-log operation, and the start-up line when nothing sends.
import type { ServiceModule } from './service-module.js';
import { notificationOperations } from '../application/operations/notification-operations.js';
import type { NotificationChannel } from '../notifications/notification-channel.js';
import { EmailChannel } from '../notifications/email-channel.js';
import { WebhookNotificationChannel } from '../notifications/webhook-notification-channel.js';
import { NotificationWorker } from '../notifications/notification-worker.js';
import { NotificationDispatcher } from '../notifications/notification-dispatcher.js';
import { NOTIFICATION_TIMER_KIND } from '../notifications/notification-timer.js';
import { webhookSealKey } from '../webhooks/subscription-store.js';
import { NOTIFICATION_REQUESTED_EVENT } from '../webhooks/webhook-events.js';

/** How long a wake-up of the notification dispatcher waits for more commits (docs/notifications.md). */
const NOTIFICATION_COALESCE_MS = 100;

export const notificationsModule: ServiceModule = async (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the notifications module needs the engine module first');
  const { db, clock, logger } = ctx;
  const env = ctx.config.env;
  const log = logger.child({ component: 'notifications' });
  ctx.operations.add(...notificationOperations({ db }));

  const email = env.SMTP_URL
    ? new EmailChannel({
        smtpUrl: env.SMTP_URL,
        from: env.MAIL_FROM ?? `orders@${new URL(ctx.baseUrl()).hostname}`,
        baseUrl: () => ctx.baseUrl(),
        serviceName: env.SERVICE_NAME,
        timeoutMs: env.OUTBOUND_TIMEOUT_MS,
      })
    : null;
  const webhook = new WebhookNotificationChannel({
    db,
    clock,
    sealKey: webhookSealKey(ctx.secretKey),
    baseUrl: () => ctx.baseUrl(),
    timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    allowLoopback: env.OUTBOUND_ALLOW_LOOPBACK,
    userAgent: `${env.SERVICE_NAME}-webhooks/1`,
  });
  const channels: NotificationChannel[] = email ? [email, webhook] : [webhook];
  const worker = new NotificationWorker({
    db,
    clock,
    logger: log,
    channels: new Map(channels.map((c) => [c.name, c])),
    timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    notify: (entries) => engine.scheduler.notify(entries),
  });
  engine.timerHandlers.set(NOTIFICATION_TIMER_KIND, (timerId) => worker.fireTimer(timerId));
  const dispatcher = new NotificationDispatcher({
    db,
    clock,
    worker,
    channels,
    unconfigured: email ? [] : ['SMTP_URL is not set'],
    timeoutMs: env.OUTBOUND_TIMEOUT_MS,
    onError: (err) => log.error({ err }, 'notification dispatch failed'),
    // Pauses with the engine's outbox (shutdown, or a harness that stops background work).
    active: () => engine.outbox.started,
    // Every commit wakes it, and few write a notification: under load one round per 100 ms takes them all, where
    // 20 ms (the order outbox's window) cost a round trip set every few commits. A mail 100 ms later is no loss.
    coalesceMs: NOTIFICATION_COALESCE_MS,
  });
  // Every commit on this node may have queued a notification or opened an approval; other nodes' are polled.
  engine.runtime.changes.on('local', () => dispatcher.wake());
  // Test clock: what the advance committed is dispatched and first attempts are made before it returns;
  // retries are durable timers the advance fires itself.
  ctx.testClock?.onAdvanced(async () => {
    await dispatcher.drain();
    await worker.idle();
  });

  return {
    start: async () => {
      dispatcher.start();
      // One line at start (never the SMTP URL: it may hold credentials).
      if (email) log.info({ from: env.MAIL_FROM ?? 'default' }, 'notifications are sent by email (SMTP_URL is set)');
      else if (await webhook.configured(db)) log.info(`notifications are sent as ${NOTIFICATION_REQUESTED_EVENT} webhook events (SMTP_URL is not set)`);
      else
        log.warn(
          `notifications are not being sent: SMTP_URL is not set and no webhook subscription lists ${NOTIFICATION_REQUESTED_EVENT}; they stay queued in the order`,
        );
    },
    stop: async () => {
      await dispatcher.stop();
      await worker.stop();
      email?.close();
    },
  };
};
