// Reads the channel fixtures (test/fixtures, copied from ../shared/fixtures) and builds synthetic X12.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
export const X12_DIR = `${FIXTURES}x12-850/`;
export const PLATFORM_DIR = `${FIXTURES}shopify-orders-create/`;

/** Raw bytes of an X12 fixture, exactly as stored (BOMs and line breaks included). */
export function x12Fixture(name: string): Uint8Array {
  return readFileSync(`${X12_DIR}${name}`);
}

/** A storefront-platform fixture, parsed as the route would parse the raw body. */
export function platformFixture(name: string): unknown {
  return JSON.parse(readFileSync(`${PLATFORM_DIR}${name}`, 'utf8'));
}

/** Data files of a fixture folder (SOURCES.md left out). */
export function fixtureFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== 'SOURCES.md').sort();
}

export interface SyntheticDelimiters {
  element?: string;
  component?: string;
  segment?: string;
  sender?: string;
}

/** A valid 106-character ISA (105 characters plus the terminator) with the given delimiters. */
export function isaHeader({ element = '*', component = '>', segment = '~', sender = 'SENDER' }: SyntheticDelimiters = {}): string {
  const fields = ['ISA', '00', ' '.repeat(10), '00', ' '.repeat(10), 'ZZ', sender.padEnd(15), 'ZZ', 'RECEIVER'.padEnd(15),
    '240101', '1200', 'U', '00401', '000000001', '0', 'P', component];
  return fields.join(element) + segment;
}

/**
 * An interchange from segments written with `*` between elements and `>` between components;
 * they are rewritten to the requested delimiters and each ends with the terminator.
 */
export function interchange(segments: string[], delimiters: SyntheticDelimiters = {}): string {
  const { element = '*', component = '>', segment = '~' } = delimiters;
  const body = segments.map((s) => s.replaceAll('*', element).replaceAll('>', component) + segment).join('');
  return isaHeader(delimiters) + body;
}

/** ST..SE around `content`, with SE01 as the real count unless `se01` overrides it. */
export function transaction(control: string, content: string[], { type = '850', se01 }: { type?: string; se01?: number } = {}): string[] {
  return [`ST*${type}*${control}`, ...content, `SE*${se01 ?? content.length + 2}*${control}`];
}

/** GS..GE around transactions, then IEA. */
export function envelope(transactions: string[][], gs01 = 'PO'): string[] {
  return [`GS*${gs01}*SENDER*RECEIVER*20240101*1200*1*X*004010`, ...transactions.flat(), `GE*${transactions.length}*1`, 'IEA*1*000000001'];
}

/** A minimal valid 850 body (between ST and SE). */
export function po850(overrides: { beg?: string; lines?: string[]; ctt?: string | null; header?: string[] } = {}): string[] {
  const lines = overrides.lines ?? ['PO1*1*2*EA*9.5**VP*ABC-1', 'PID*F****Widget'];
  const count = lines.filter((l) => l.startsWith('PO1*')).length;
  const ctt = overrides.ctt === undefined ? `CTT*${count}` : overrides.ctt;
  return [overrides.beg ?? 'BEG*00*SA*PO-1**20240115', ...(overrides.header ?? []), ...lines, ...(ctt === null ? [] : [ctt])];
}
