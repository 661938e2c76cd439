// Structural limits of a JSON request text, checked before it is parsed: nesting depth, NUL characters and
// unpaired surrogates (PostgreSQL can store neither, and deep nesting exhausts recursive code and jsonb input).

/** A NUL character or an unpaired surrogate: text PostgreSQL cannot store (path and query values are checked with it). */
// eslint-disable-next-line no-control-regex -- NUL is the character PostgreSQL cannot store.
export const UNSTORABLE_TEXT = /\u0000|[\ud800-\udfff]/u;

/** Deepest nesting of arrays and objects accepted (our own cap; no business document comes near it). */
export const MAX_JSON_DEPTH = 64;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * The first problem of `text` as a JSON document, or null. Scans the text once without parsing it
 * (so a megabyte of `[` costs no recursion): brackets outside strings count towards the depth;
 * inside strings the escapes `\u0000` and unpaired `\uD800`-`\uDFFF` are refused. Other syntax is
 * left to JSON.parse.
 */
export function jsonTextProblem(text: string): string | null {
  let depth = 0;
  let inString = false;
  /** The code unit of the last `\u` escape when it was a high surrogate still waiting for its low half. */
  let pendingHigh = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (!inString) {
      if (ch === 0x22) inString = true;
      else if (ch === 0x5b || ch === 0x7b) {
        if (++depth > MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
      } else if (ch === 0x5d || ch === 0x7d) depth--;
      continue;
    }
    if (ch === 0x5c) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x75 /* u */) {
        const code = Number.parseInt(text.slice(i + 2, i + 6), 16);
        if (code === 0) return 'a string contains a NUL character (\\u0000)';
        if (pendingHigh && !isLow(code)) return 'a string contains an unpaired surrogate';
        if (!pendingHigh && isLow(code)) return 'a string contains an unpaired surrogate';
        pendingHigh = isHigh(code);
        i += 5;
        continue;
      }
      if (pendingHigh) return 'a string contains an unpaired surrogate';
      i += 1;
      continue;
    }
    if (pendingHigh) return 'a string contains an unpaired surrogate';
    if (ch === 0x22) inString = false;
    else if (ch === 0) return 'a string contains a NUL character';
    else if (isHigh(ch) ? !isLow(text.charCodeAt(i + 1)) : isLow(ch) && !isHigh(text.charCodeAt(i - 1))) return 'a string contains an unpaired surrogate';
  }
  return null;
}
