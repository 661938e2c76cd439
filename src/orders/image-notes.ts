// What assess_order says about the images it was given: each read (format, size) or unavailable (why), and one sentence for a basis.
import type { ImageFormat } from './image-bytes.js';
import type { ImageSource } from './image-reference.js';

/**
 * What became of one image, never a failure of the call: read (its format, and its size when known),
 * unavailable (why), or not fetched (a fetch limit of contract 11 left it alone: why).
 */
export interface ImageNote {
  /** Position in `images`, from 0. */
  index: number;
  source: ImageSource;
  status: 'read' | 'unavailable' | 'not_fetched';
  format?: ImageFormat;
  /** Its size in bytes; absent for a URL that declared none (only its head is read). */
  bytes?: number;
  /** Why it could not be read, or was not fetched. */
  detail?: string;
}

/** One sentence about the images, for an answer's basis. */
export function describeImages(notes: readonly ImageNote[]): string {
  if (notes.length === 0) return '';
  const read = notes.filter((n) => n.status === 'read');
  const missing = notes.filter((n) => n.status === 'unavailable');
  const skipped = notes.filter((n) => n.status === 'not_fetched');
  const images = (n: number) => `${n} image${n === 1 ? '' : 's'}`;
  const size = (n: ImageNote) => (n.bytes === undefined ? 'size not declared' : `${n.bytes} bytes`);
  const parts = [];
  if (read.length) parts.push(`${images(read.length)} received (${read.map((n) => `${n.format?.toUpperCase()} ${size(n)}`).join(', ')}), not interpreted without a model`);
  if (missing.length) parts.push(`${images(missing.length)} could not be read (${missing.map((n) => `#${n.index + 1}: ${n.detail}`).join('; ')})`);
  if (skipped.length) parts.push(`${images(skipped.length)} not fetched (${skipped.map((n) => `#${n.index + 1}: ${n.detail}`).join('; ')})`);
  return `${parts.join('; ')}.`;
}
