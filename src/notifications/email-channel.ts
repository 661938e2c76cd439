// Email adapter of the notification channel port: one SMTP message (nodemailer) per notification, bodies from the template files.
import { createTransport } from 'nodemailer';
import type { NotificationChannel, NotificationMessage, SendResult } from './notification-channel.js';
import { renderEmail } from './email-templates.js';
import { notificationLinks } from './notification-links.js';
import { isEmailAddress } from './email-address.js';

export interface EmailChannelOptions {
  /** SMTP_URL (`smtp://user:pass@host:port`, `smtps://…`): never logged, never put in an error. */
  smtpUrl: string;
  /** MAIL_FROM. */
  from: string;
  /** The public address the links point at. */
  baseUrl(): string;
  serviceName: string;
  /** Every SMTP step (connect, greeting, each command) gives up after this long: OUTBOUND_TIMEOUT_MS. */
  timeoutMs: number;
}

/** Removes anything that looks like credentials in a URL from an error text (an SMTP library may echo its options). */
export function withoutCredentials(text: string, smtpUrl: string): string {
  let out = text.replace(/(\w+:\/\/)[^/\s@]*@/g, '$1***@');
  try {
    const url = new URL(smtpUrl);
    for (const secret of [url.password, decodeURIComponent(url.password)]) if (secret.length >= 3) out = out.split(secret).join('***');
  } catch {
    /* the URL was validated at start */
  }
  return out;
}

export class EmailChannel implements NotificationChannel {
  readonly name = 'email' as const;
  private readonly transport;
  private readonly host: string;

  constructor(private readonly options: EmailChannelOptions) {
    this.transport = createTransport({
      url: options.smtpUrl,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
      // One connection per message: no idle pooled socket outlives a stop.
      pool: false,
    });
    this.host = options.from.split('@')[1] || 'localhost';
  }

  async refusals(_q: unknown, messages: readonly NotificationMessage[]): Promise<(string | null)[]> {
    return messages.map((m) => (isEmailAddress(m.address) ? null : `No email address for ${m.recipient}`));
  }

  async send(message: NotificationMessage): Promise<SendResult> {
    if (!isEmailAddress(message.address)) return { ok: false, error: `No email address for ${message.recipient}` };
    const links = notificationLinks(this.options.baseUrl(), message.orderId);
    const { text, html } = renderEmail(message.audience, {
      orderId: message.orderId,
      recipient: message.recipient,
      message: message.body,
      orderPage: links.orderPage,
      answerRoute: links.answerRoute,
      apiDocs: links.apiDocs,
      serviceName: this.options.serviceName,
    });
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: message.address,
        subject: message.subject,
        text,
        html,
        // The same id on every attempt: a mail client shows a resend after a crash as the same message.
        messageId: `<${message.id}@${this.host}>`,
        headers: { 'X-Order-Id': message.orderId, 'X-Notification-Id': message.id },
      });
      return { ok: true, error: null };
    } catch (err) {
      return { ok: false, error: withoutCredentials((err as Error).message || String(err), this.options.smtpUrl).slice(0, 1000) };
    }
  }

  close(): void {
    this.transport.close();
  }
}
