// A string as a SQL literal, for the one simple-protocol message a command opens with (order-lock.ts).
//
// The simple query protocol (several statements in one round trip) takes no parameters, so the
// order id is written as a literal: quotes doubled, and with a backslash present an E'' string
// with backslashes doubled (as pg's escapeLiteral), which PostgreSQL reads the same whatever
// standard_conforming_strings says.

/** Quotes a string as a SQL literal. A NUL character is refused, as PostgreSQL refuses it in text. */
export function sqlString(s: string): string {
  if (s.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
  const quoted = s.replace(/'/g, "''");
  return s.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}
