// `npm run mail-catcher`: a local SMTP server (the test helper) that prints every notification mail it receives.
// Run the service with SMTP_URL=smtp://127.0.0.1:2525 beside it (docs/notifications.md).
import { startSmtpCatcher } from '../test/support/smtp-catcher.js';

const port = Number(process.env.MAIL_CATCHER_PORT ?? 2525);
const catcher = await startSmtpCatcher(port);
process.stdout.write(`mail catcher listening: SMTP_URL=${catcher.url}\n`);
let shown = 0;
setInterval(() => {
  for (; shown < catcher.mails.length; shown++) {
    const mail = catcher.mails[shown];
    const text = /Content-Type: text\/plain[^\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n--/i.exec(mail.text)?.[1] ?? mail.text;
    process.stdout.write(`\n--- to ${mail.to.join(', ')} from ${mail.from}\nSubject: ${mail.subject}\n\n${text.trim()}\n`);
  }
}, 250);
const stop = () => void catcher.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
