// What assess_order says about the images it was given: each read (format, size) or unavailable (why), and one sentence for a basis.
import type { ImageFormat } from './image-bytes.js';
import type { ImageSource } from './image-reference.js';

/** What became of one image: read (its format and size) or unavailable (why), never a failure of the call. */
export interface ImageNote {
  /** Position in `images`, from 0. */
  index: number;
  source: ImageSource;
  status: 'read' | 'unavailable';
  format?: ImageFormat;
  bytes?: number;
  /** Why it could not be read. */
  detail?: string;
}

/** One sentence about the images, for an answer's basis. */
export function describeImages(notes: readonly ImageNote[]): string {
  if (notes.length === 0) return '';
  const read = notes.filter((n) => n.status === 'read');
  const missing = notes.filter((n) => n.status === 'unavailable');
  const parts = [];
  if (read.length) parts.push(`${read.length} image${read.length === 1 ? '' : 's'} received (${read.map((n) => `${n.format?.toUpperCase()} ${n.bytes} bytes`).join(', ')}), not interpreted without a model`);
  if (missing.length) parts.push(`${missing.length} image${missing.length === 1 ? '' : 's'} could not be read (${missing.map((n) => `#${n.index + 1}: ${n.detail}`).join('; ')})`);
  return `${parts.join('; ')}.`;
}
