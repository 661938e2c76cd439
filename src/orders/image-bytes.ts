// Which image format a byte string is, by its magic bytes (assess_order takes PNG, JPEG and WebP only).

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** Largest image assess_order reads, after decoding (a data URL) or fetching (an https URL). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const RIFF = [0x52, 0x49, 0x46, 0x46]; // "RIFF", then 4 bytes of length, then "WEBP"
const WEBP = [0x57, 0x45, 0x42, 0x50];

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);

/** The format by the leading bytes, whatever a name or a declared media type says; null for anything else (GIF, SVG, PDF, text). */
export function sniffImage(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  return null;
}

/** Bytes of an image assess_order reads over the network: the longest signature (WebP's, 12 bytes) and a little to spare. */
export const IMAGE_HEAD_BYTES = 16;
