// Values as SQL literals, for the simple-protocol messages that carry several statements in one round trip (order-lock.ts, named-statements.ts).
//
// The simple query protocol takes no parameters, so values are written as literals: quotes doubled, and with a
// backslash present an E'' string with backslashes doubled (as pg's escapeLiteral), which PostgreSQL reads the same
// whatever standard_conforming_strings says. A prepared statement's parameters are written in the text form the
// driver binds them in (a string as is, a number in decimal, a boolean as true/false, an array of strings as an
// array literal); PostgreSQL coerces each to the type the statement's parameter was inferred with, as it does for a
// bound text value.

/** Quotes a string as a SQL literal. A NUL character is refused, as PostgreSQL refuses it in text. */
export function sqlString(s: string): string {
  if (s.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
  const quoted = s.replace(/'/g, "''");
  return s.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** An array element in an array literal: NULL, or double-quoted with backslashes and quotes escaped (as pg writes arrays). */
function arrayElement(value: unknown): string | null {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
  return text === null ? null : `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A parameter as a SQL literal in the text form the driver binds it in; null for a kind not written this way (binary data, a date, an object). */
export function parameterLiteral(value: unknown): string | null {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return sqlString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? `'${value}'` : null;
  if (typeof value === 'bigint' || typeof value === 'boolean') return `'${value}'`;
  if (Array.isArray(value)) {
    const elements: string[] = [];
    for (const element of value) {
      const written = arrayElement(element);
      if (written === null) return null;
      elements.push(written);
    }
    return sqlString(`{${elements.join(',')}}`);
  }
  return null;
}

/** `EXECUTE name(…)` of a prepared statement with `values` as literals; null when one of them is not written as a literal. */
export function executeText(name: string, values: readonly unknown[]): string | null {
  const args: string[] = [];
  for (const value of values) {
    const literal = parameterLiteral(value);
    if (literal === null) return null;
    args.push(literal);
  }
  return args.length ? `EXECUTE ${name}(${args.join(', ')})` : `EXECUTE ${name}`;
}
