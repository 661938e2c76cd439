// Decoding a `data:` URL (RFC 2397) carrying base64 bytes, as assess_order takes inline images.

export interface DataUrl {
  /** The declared media type (informative only: the bytes decide what an image is). */
  mediaType: string;
  bytes: Buffer;
}

const DATA_URL = /^data:([^,;]*)((?:;[^,;]*)*),(.*)$/is;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when `text` is meant as a data URL (the scheme is case-insensitive). */
export function isDataUrl(text: string): boolean {
  return /^data:/i.test(text);
}

/**
 * The bytes of a base64 data URL, or a sentence saying why not. Only base64 is taken (binary
 * images are never sent percent-encoded in practice); the payload must be canonical base64.
 */
export function decodeDataUrl(text: string): DataUrl | string {
  const match = DATA_URL.exec(text);
  if (!match) return 'is not a data URL (data:<type>;base64,<bytes>)';
  const params = match[2].toLowerCase().split(';').filter(Boolean);
  if (!params.includes('base64')) return 'must be base64 (data:<type>;base64,<bytes>)';
  const payload = match[3];
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return 'has bytes that are not valid base64';
  return { mediaType: match[1].toLowerCase() || 'text/plain', bytes: Buffer.from(payload, 'base64') };
}
