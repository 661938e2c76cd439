// Reads a top-level number of a JSON text as written, before JSON.parse rounds integers above 2^53 (platform order ids).

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The literal text of the number at top-level `key` of the JSON object `text`, or undefined when
 * that member is absent or not a number. Strings are skipped with their escapes; only members
 * of the outermost object count (a nested `"id"` is not the order's id). Storefront platforms
 * send 64-bit ids (e.g. 820982911946154508) that a JavaScript number would round.
 */
export function topLevelNumberLiteral(text: string, key: string): string | undefined {
  let depth = 0;
  let i = 0;
  let expectKey = false;
  let found: string | undefined;
  if (!text.trimStart().startsWith('{')) return undefined;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (depth === 1 && expectKey) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        let j = end + 1;
        while (j < text.length && /\s/.test(text[j])) j += 1;
        if (text[j] === ':') {
          j += 1;
          while (j < text.length && /\s/.test(text[j])) j += 1;
          if (name === key) {
            NUMBER.lastIndex = j;
            const match = NUMBER.exec(text);
            // The last duplicate member wins, as in JSON.parse.
            found = match ? match[0] : undefined;
          }
          expectKey = false;
          i = j;
          continue;
        }
      }
      i = end + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      depth += 1;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
    i += 1;
  }
  return found;
}

/** Index of the closing quote of the string opening at `start`, or -1 when unterminated. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return -1;
}
