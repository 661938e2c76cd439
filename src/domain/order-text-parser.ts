// Deterministic parser turning PO or email text into order lines (the default of the extract-order node).
//
// Layouts it reads, line by line:
//   tables     a header row naming a SKU column (sku, item, item no, part no, product code, code, article) and a
//              quantity column (qty, quantity, units, pcs), cells split by |, tab, ; or , ; optional price
//              (unit price, price, unit cost, each, rate) and name (description, name, product) columns;
//              markdown separator rows (|---|) are skipped; a blank or delimiter-less line ends the table
//   labelled   "SKU: MUG-1  Qty: 2  Price: 12.50" (labels in any order, `#`, `:` or `=` after them)
//   quantity   "2 x MUG-1", "2x MUG-1", "2 × MUG-1", "2 pcs MUG-1", "qty 2 MUG-1"
//   trailing   "MUG-1 x 2", "MUG-1 - 2 units", "MUG-1 (2)", "MUG-1: 2 pcs"
//   inline     inside a sentence, with an explicit multiplier: "please send 4 x MUG-1 and 2 pcs TEE-BLK-M"
// An optional unit price follows as "@ 12.50", "at $12.50 each" or "12.50 each". Outside tables and labels only
// known catalogue SKUs (case-insensitive) or code-shaped tokens (letters and digits joined by - . / _) count,
// so prose like "2 x the usual" is ignored. Quantities are positive integers up to 1,000,000.

export interface ParsedLine {
  sku: string;
  qty: number;
  /** Decimal unit price in the order currency, when the text gives one. */
  unitPrice?: number;
  name?: string;
}

export interface ParseResult {
  lines: ParsedLine[];
  /** 1-based text line numbers that looked like order lines but could not be read. */
  skipped: number[];
}

const MAX_QTY = 1_000_000;
const SKU_HEADER = /^(sku|item|item ?(no\.?|number|#|code)|part ?(no\.?|number|#)?|product ?code|code|article( ?no\.?)?|vp|catalog(ue)? ?(no\.?|number|#))$/i;
const QTY_HEADER = /^(qty\.?|quantity|units|pcs|ordered|order qty)$/i;
const PRICE_HEADER = /^(unit ?price|price|unit ?cost|each|rate|price ?each)$/i;
const NAME_HEADER = /^(description|name|product|item ?description|title)$/i;
const CODE_SHAPED = /^(?=[A-Za-z0-9._/-]*[A-Za-z])(?=[A-Za-z0-9._/-]*[0-9-])[A-Za-z0-9][A-Za-z0-9._/-]{1,39}$/;
const PRICE = String.raw`(?:[$€£¥]\s?)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`;
/** Longer runs of SKU or number characters than this are no SKU, quantity or price (a SKU is at most 100). */
const MAX_RUN = 100;
const LONG_RUN = new RegExp(String.raw`[A-Za-z0-9._/,-]{${MAX_RUN + 1},}`, 'g');

/**
 * A line as the free-text layouts read it: whitespace runs as one space and runs of SKU or number characters longer
 * than any SKU dropped. The layouts' patterns backtrack over a run of spaces, digits or code characters (a cost that
 * grows with the square of its length); bounded so, a 50,000-character document costs linear time (docs/commerce.md).
 */
function freeTextLine(line: string): string {
  return line.replace(/\s+/g, ' ').replace(LONG_RUN, ' ');
}

function toQty(text: string): number | null {
  const n = Number(text.replace(/,/g, ''));
  return Number.isInteger(n) && n > 0 && n <= MAX_QTY ? n : null;
}

function toPrice(text: string | undefined): number | undefined {
  const cleaned = text?.replace(/[$€£¥\s]/g, '').replace(/,/g, '');
  if (!cleaned) return undefined;
  const n = Number(cleaned);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function splitCells(line: string, delimiter: string): string[] {
  let cells = line.split(delimiter).map((c) => c.trim());
  if (delimiter === '|') cells = cells.filter((_, i, all) => !((i === 0 || i === all.length - 1) && all[i] === ''));
  return cells;
}

function detectDelimiter(line: string): string | null {
  for (const d of ['|', '\t', ';', ',']) if (line.includes(d)) return d;
  return null;
}

interface TableColumns {
  delimiter: string;
  sku: number;
  qty: number;
  price: number;
  name: number;
}

function headerColumns(line: string): TableColumns | null {
  const delimiter = detectDelimiter(line);
  if (!delimiter) return null;
  const cells = splitCells(line, delimiter);
  const sku = cells.findIndex((c) => SKU_HEADER.test(c));
  const qty = cells.findIndex((c) => QTY_HEADER.test(c));
  if (sku < 0 || qty < 0) return null;
  return { delimiter, sku, qty, price: cells.findIndex((c) => PRICE_HEADER.test(c)), name: cells.findIndex((c) => NAME_HEADER.test(c)) };
}

/**
 * Parses `text` into lines. `knownSkus` (catalogue SKUs) lets free-text layouts match products
 * and returns them in catalogue spelling.
 */
export function parseOrderText(text: string, knownSkus: Iterable<string> = []): ParseResult {
  const known = new Map<string, string>();
  for (const sku of knownSkus) known.set(sku.toUpperCase(), sku);
  const skuToken = (token: string): string | null => {
    const cleaned = token.replace(/^[#:]+|[,.;:)]+$/g, '');
    const hit = known.get(cleaned.toUpperCase());
    if (hit) return hit;
    return CODE_SHAPED.test(cleaned) ? cleaned.toUpperCase() : null;
  };
  const lines: ParsedLine[] = [];
  const skipped: number[] = [];
  let table: TableColumns | null = null;
  const rows = text.replace(/\r\n?/g, '\n').split('\n');

  rows.forEach((raw, index) => {
    const line = raw.trim();
    if (table) {
      if (line === '' || !line.includes(table.delimiter)) table = null;
      else {
        if (/^[|:\-\s+]+$/.test(line)) return; // markdown separator row
        const cells = splitCells(line, table.delimiter);
        const sku = cells[table.sku]?.trim();
        const qty = toQty(cells[table.qty] ?? '');
        if (!sku || qty === null) {
          skipped.push(index + 1);
          return;
        }
        const parsed: ParsedLine = { sku: known.get(sku.toUpperCase()) ?? sku, qty };
        const price = table.price >= 0 ? toPrice(cells[table.price]) : undefined;
        if (price !== undefined) parsed.unitPrice = price;
        const name = table.name >= 0 ? cells[table.name]?.trim() : undefined;
        if (name) parsed.name = name.slice(0, 200);
        lines.push(parsed);
        return;
      }
    }
    if (line === '') return;
    const header = headerColumns(line);
    if (header) {
      table = header;
      return;
    }
    const free = freeTextLine(line);

    // Labelled: SKU: X ... Qty: n ... Price: p
    const labelledSku = /\b(?:sku|item(?:\s?(?:no\.?|#|number))?|part\s?(?:no\.?|#|number))\s*[:#=]\s*([A-Za-z0-9][A-Za-z0-9._/-]*)/i.exec(free);
    const labelledQty = /\b(?:qty|quantity|units)\s*[:#=]?\s*(\d[\d,]*)/i.exec(free);
    if (labelledSku && labelledQty) {
      const qty = toQty(labelledQty[1]);
      if (qty === null) {
        skipped.push(index + 1);
        return;
      }
      const parsed: ParsedLine = { sku: known.get(labelledSku[1].toUpperCase()) ?? labelledSku[1], qty };
      const price = new RegExp(String.raw`\b(?:unit\s?price|price|each|@)\s*[:=]?\s*${PRICE}`, 'i').exec(free);
      if (price) parsed.unitPrice = toPrice(price[1]);
      lines.push(parsed);
      return;
    }

    const priceAfter = (rest: string): number | undefined => {
      const m = new RegExp(String.raw`(?:@|\bat)\s*${PRICE}|${PRICE}\s*(?:each|ea\.?|/\s?(?:unit|pc|ea))\b`, 'i').exec(rest);
      return m ? toPrice(m[1] ?? m[2]) : undefined;
    };

    // Quantity first: "2 x SKU", "2 pcs SKU", "qty 2 SKU"
    const lead = /^(?:[-*•]\s*)?(?:qty\s*)?(\d[\d,]*)\s*(?:x|×|pcs?\.?|units?|ea\.?|of)?\s+([A-Za-z0-9][A-Za-z0-9._/-]*)(.*)$/i.exec(free);
    if (lead) {
      const sku = skuToken(lead[2]);
      const qty = toQty(lead[1]);
      if (sku && qty !== null) {
        const parsed: ParsedLine = { sku, qty };
        const price = priceAfter(lead[3]);
        if (price !== undefined) parsed.unitPrice = price;
        lines.push(parsed);
        return;
      }
    }

    // Code first: "SKU x 2", "SKU - 2 units", "SKU (2)", "SKU: 2 pcs"
    const trail = /^(?:[-*•]\s*)?([A-Za-z0-9][A-Za-z0-9._/-]*)(?:\s*[x×]\s*|\s+[-–]\s*|\s*:\s*|\s*\(\s*)(\d[\d,]*)\s*\)?\s*(?:pcs?\.?|units?|ea\.?)?(.*)$/i.exec(free);
    if (trail) {
      const sku = skuToken(trail[1]);
      const qty = toQty(trail[2]);
      if (sku && qty !== null) {
        const parsed: ParsedLine = { sku, qty };
        const price = priceAfter(trail[3]);
        if (price !== undefined) parsed.unitPrice = price;
        lines.push(parsed);
        return;
      }
    }

    // Inside a sentence ("Please send 4 x MUG-1 and 2 pcs TEE-BLK-M."): only with an explicit multiplier.
    const inline = /(\d[\d,]*)\s*(?:x|×|pcs?\.?|units?\s+of|units?)\s+([A-Za-z0-9][A-Za-z0-9._/-]*)|([A-Za-z0-9][A-Za-z0-9._/-]*)\s*[x×]\s*(\d[\d,]*)\b/gi;
    for (const m of free.matchAll(inline)) {
      const sku = skuToken(m[2] ?? m[3]);
      const qty = toQty(m[1] ?? m[4]);
      if (!sku || qty === null) continue;
      const parsed: ParsedLine = { sku, qty };
      const rest = free.slice(m.index + m[0].length).split(/[,;]| and /i)[0];
      const price = priceAfter(rest);
      if (price !== undefined) parsed.unitPrice = price;
      lines.push(parsed);
    }
  });
  return { lines, skipped };
}
