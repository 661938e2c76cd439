// Detects post-office boxes in a ship-to address (read by the no_po_box policy rule and fraud scoring).
import type { ShipTo } from './ship-to.js';

/**
 * Patterns over a normalised line (lowercase, accents stripped, punctuation as spaces), so
 * "P.O. Box", "PO Box", "P O Box", "POBox", "P.O.B.", "PO Bx", "GPO Box", "Post Office Box",
 * "Postal Box", "Post Box", "Box 12" (line start), "Locked Bag", "Private Bag", and common
 * non-English forms (Postfach, Postfack, Postbus, Postboks, Apartado, Apdo, Casilla,
 * Caixa Postal, Casella Postale, Boite Postale, Skrytka Pocztowa, Postilokero) all match,
 * while words like "Boxwood", "Box Hill Road" or "Post Road" do not.
 */
const PATTERNS: readonly RegExp[] = [
  /\bg?\s?p\s?o\s?(box|bx|b)\b/, // po box, p o box, pobox, pob, po bx, gpo box
  /\bpost\s?(office\s?)?box\b/, // post office box, post box, postbox
  /\bpostal\s?(office\s?)?box\b/,
  /^box\s*(no\s*)?\d/, // "Box 123" as the whole line start
  /\b(locked|private)\s?bag\s*\d/,
  /\bpostfa(ch|ck)\b/, // German, Swedish
  /\bpostbus\b/, // Dutch
  /\bpostboks\b/, // Danish, Norwegian
  /\bpostilokero\b/, // Finnish
  /\bapartado\s+(de\s+correos?|postal|\d)/, // Spanish
  /\bapdo\s*\d/,
  /\bcasilla\s+(de\s+correos?\s*)?\d/, // Chile, Argentina
  /\bcaixa\s+postal\b/, // Portuguese
  /\bcasella\s+postale\b/, // Italian
  /\bboite\s+postale\b/, // French
  /^b\s?p\s*\d/, // French "BP 12" as the line start
  /\bskrytka\s+pocztowa\b/, // Polish
];

/** Lowercases, strips accents and turns punctuation into spaces: "P.O. Box" becomes "p o  box". */
function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** True when one line of address text names a PO box. */
export function isPoBoxText(text: string): boolean {
  // Each line (and each comma-separated part of a one-line address) is checked on its own so
  // line-start patterns such as "Box 12" also work inside "Jane Doe, Box 12, Springfield".
  return text
    .split(/[\n\r,;]+/)
    .map(normalise)
    .some((part) => part.length > 0 && PATTERNS.some((re) => re.test(part)));
}

/** True when the ship-to (string, or the structured address's line1/line2) is a PO box. */
export function isPoBox(shipTo: ShipTo | string | null | undefined): boolean {
  if (!shipTo) return false;
  if (typeof shipTo === 'string') return isPoBoxText(shipTo);
  return [shipTo.line1, shipTo.line2].some((line) => typeof line === 'string' && isPoBoxText(line));
}
