// Email bodies from the template files in ./templates (plain text and HTML per recipient kind), filled with {{name}} values.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { NotificationAudience } from './notification-channel.js';

/** The values a template may name; HTML templates get them escaped. */
export interface TemplateValues {
  orderId: string;
  recipient: string;
  message: string;
  orderPage: string;
  answerRoute: string;
  apiDocs: string;
  serviceName: string;
}

export interface RenderedEmail {
  text: string;
  html: string;
}

const templateDir = new URL('./templates/', import.meta.url);
const cache = new Map<string, string>();

function template(audience: NotificationAudience, kind: 'txt' | 'html'): string {
  const file = `${audience}.${kind}`;
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(fileURLToPath(new URL(file, templateDir)), 'utf8');
    cache.set(file, text);
  }
  return text;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Replaces `{{name}}` with the value (escaped for HTML); an unknown name is left empty. */
export function fillTemplate(text: string, values: TemplateValues, html: boolean): string {
  return text.replace(/\{\{\s*([a-zA-Z]+)\s*\}\}/g, (_m, name: string) => {
    const value = (values as unknown as Record<string, string | undefined>)[name] ?? '';
    return html ? escapeHtml(value) : value;
  });
}

/** The plain-text and HTML bodies of a notification to `audience`. */
export function renderEmail(audience: NotificationAudience, values: TemplateValues): RenderedEmail {
  return { text: fillTemplate(template(audience, 'txt'), values, false), html: fillTemplate(template(audience, 'html'), values, true) };
}
