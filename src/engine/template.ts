// Text templates in node params: `{{order.x}}` and `{{vars.x.y}}` placeholders filled from the run.

/** The values a template may read; each key is a placeholder root (`order`, `vars`). */
export type TemplateScope = Record<string, unknown>;

/** A placeholder: `{{ root.a.b }}`, segments of letters, digits, `_` or `-` (array indexes are digits). */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/**
 * Reads a dotted path (`vars.a.b`, `order.input.lines.0.sku`) from a scope.
 * Only own properties are followed, so `constructor`/`__proto__` never leak; a missing step gives undefined.
 */
export function readPath(scope: unknown, path: string): unknown {
  let current: unknown = scope;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** How a value is written into text: strings as-is, missing as '', objects as JSON. */
function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * Fills every placeholder whose root is a key of `scope`; a known root with a missing value
 * renders as ''. A placeholder with an unknown root stays verbatim so the mistake is visible.
 */
export function renderTemplate(template: string, scope: TemplateScope): string {
  return template.replace(PLACEHOLDER, (whole, root: string, rest: string) => {
    if (!Object.prototype.hasOwnProperty.call(scope, root)) return whole;
    return toText(readPath(scope, root + rest));
  });
}

/** A string that is exactly one placeholder (`"{{order.total}}"`): it keeps the value's JSON type. */
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/;

/**
 * Fills a JSON template (http.call's `body`): every string is a text template, except a string
 * that is one placeholder and nothing else, which becomes the value itself (a number stays a
 * number, an object an object; missing becomes null). Keys are kept as written.
 */
export function renderJsonTemplate(template: unknown, scope: TemplateScope): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole && Object.prototype.hasOwnProperty.call(scope, whole[1])) return readPath(scope, whole[1] + whole[2]) ?? null;
    return renderTemplate(template, scope);
  }
  if (Array.isArray(template)) return template.map((item) => renderJsonTemplate(item, scope));
  if (template !== null && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) out[key] = renderJsonTemplate(value, scope);
    return out;
  }
  return template;
}
