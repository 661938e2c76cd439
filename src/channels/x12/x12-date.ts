// X12 date elements (CCYYMMDD, or YYMMDD in pre-4010 versions) as ISO `YYYY-MM-DD`.

/**
 * Converts an X12 date to `YYYY-MM-DD`, or returns undefined when it is not a real calendar date.
 * Six-digit dates use the POSIX `%y` pivot: 00-68 are 20xx, 69-99 are 19xx.
 */
export function x12DateToIso(raw: string): string | undefined {
  let year: number;
  let rest: string;
  if (/^\d{8}$/.test(raw)) {
    year = Number(raw.slice(0, 4));
    rest = raw.slice(4);
  } else if (/^\d{6}$/.test(raw)) {
    const yy = Number(raw.slice(0, 2));
    year = yy <= 68 ? 2000 + yy : 1900 + yy;
    rest = raw.slice(2);
  } else {
    return undefined;
  }
  const month = Number(rest.slice(0, 2));
  const day = Number(rest.slice(2, 4));
  // setUTCFullYear keeps years 0-99 as written (Date.UTC would map them to 1900-1999).
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${rest.slice(0, 2)}-${rest.slice(2, 4)}`;
}
