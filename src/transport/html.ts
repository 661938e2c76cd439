// Tiny HTML helpers for the server-rendered pages of every face (dashboard, identity, OAuth consent): escaping, the page frame, times.
import type { Principal } from '../auth/principal.js';

/** Escapes text for element content and quoted attribute values. */
export function esc(value: unknown): string {
  // Whatever a page interpolates (text, numbers, the odd Date) reads as its String(); null and undefined as nothing.
  const text: unknown = value ?? '';
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A trusted HTML fragment (already escaped). */
export interface Html {
  readonly html: string;
}
export const raw = (html: string): Html => ({ html });

/** Tagged template that escapes every interpolated value unless it is Html (or a list of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((v, i) => {
    if (Array.isArray(v)) out += v.map((x) => (x && typeof x === 'object' && 'html' in x ? (x as Html).html : esc(x))).join('');
    else if (v && typeof v === 'object' && 'html' in v) out += (v as Html).html;
    else if (v === null || v === undefined || v === false) out += '';
    else out += esc(v);
    out += strings[i + 1];
  });
  return raw(out);
}

export function formatTime(ms: number | null): string {
  if (ms === null) return '—';
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
}

export interface PageOptions {
  title: string;
  /** The CSP nonce of this response (every inline script carries it). */
  nonce: string;
  principal?: Principal | null;
  body: Html;
  /** Loads the dashboard's bundled script (a file of our own origin), which keeps the page live. */
  live?: boolean;
  /** Wider main column (the order page's drawing). */
  wide?: boolean;
  /** Inline script, emitted with the nonce. */
  script?: string;
}

/** The whole document: skip link, navigation for a signed-in person, main content. */
export function page(o: PageOptions): string {
  const p = o.principal;
  const nav = p
    ? html`<nav aria-label="Main"><ul>
        ${p.restricted ? '' : html`<li><a href="/orders">Orders</a></li><li><a href="/batches">Batches</a></li><li><a href="/approvals">Approvals</a></li><li><a href="/flows">Flows</a></li><li><a href="/back-office">Back office</a></li><li><a href="/assistant">Assistant</a></li>`}
        ${p.role === 'operator' && !p.restricted ? html`<li><a href="/team">Team</a></li><li><a href="/audit">Audit log</a></li>` : ''}
        <li><a href="/account">Account</a></li>
        <li><form method="post" action="/logout" class="inline"><button type="submit">Sign out</button></form></li>
      </ul><p class="who">Signed in as <strong data-actor>${p.actor}</strong> (${p.role})</p></nav>`
    : html``;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)} · Order orchestration</title>
<link rel="stylesheet" href="/assets/identity.css">
<link rel="stylesheet" href="/assets/dashboard.css">
${o.live ? '<script type="module" src="/assets/dashboard.js"></script>' : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>${nav.html}</header>
<main id="main"${o.wide ? ' class="wide"' : ''}>
<h1>${esc(o.title)}</h1>
${o.body.html}
</main>
${o.script ? `<script nonce="${esc(o.nonce)}">${o.script}</script>` : ''}
</body>
</html>`;
}

/** A status message: an error is announced to screen readers as an alert. */
export function notice(kind: 'error' | 'ok' | 'warn', text: string | null | undefined): Html {
  if (!text) return raw('');
  return kind === 'error'
    ? html`<p class="notice error" role="alert" data-error>${text}</p>`
    : html`<p class="notice ${kind}" role="status" data-notice>${text}</p>`;
}
