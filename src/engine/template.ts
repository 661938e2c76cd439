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
