// A local SMTP catcher (the smtp-server package) for notification tests and for seeing the mails locally:
// accepts every message on 127.0.0.1, keeps them decoded, and can refuse the next N messages.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface CaughtMail {
  from: string;
  to: string[];
  /** The raw message with quoted-printable soft breaks and escapes undone (enough to search its text). */
  text: string;
  raw: string;
  /** The Subject header as sent (RFC 2047 words left as they are). */
  subject: string;
}

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  port: number;
  mails: CaughtMail[];
  /** Messages sent to `address`. */
  to(address: string): CaughtMail[];
  /** Refuses the next `n` messages with a temporary 451 (the sender must retry). */
  failNext(n: number): void;
  /** Messages refused so far. */
  refused: number;
  close(): Promise<void>;
}

/** Undoes quoted-printable: soft line breaks, then `=XX` escapes (byte-wise, read as UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

export async function startSmtpCatcher(port = 0): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  let failing = 0;
  const state = { refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failing > 0) {
          failing -= 1;
          state.refused += 1;
          const err = new Error('Try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          text: decodeQuotedPrintable(raw),
          raw,
          subject,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    mails,
    to: (address) => mails.filter((m) => m.to.includes(address)),
    failNext: (n) => {
      failing = n;
    },
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
