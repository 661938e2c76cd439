// assess_order's images are PNG, JPEG or WebP by their magic bytes (contract 11); data URLs must be base64.
import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../../src/orders/image-bytes.js';
import { decodeDataUrl } from '../../../src/orders/data-url.js';
import { imageSource } from '../../../src/orders/image-reference.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');

describe('sniffImage', () => {
  it('recognises PNG, JPEG and WebP by their leading bytes', () => {
    expect([PNG, JPEG, WEBP].map(sniffImage)).toEqual(['png', 'jpeg', 'webp']);
  });

  it('refuses GIF, SVG, a RIFF that is not WebP, truncated headers and nothing', () => {
    const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVE')]);
    for (const bytes of [GIF, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), wav, PNG.subarray(0, 7), Buffer.alloc(0)])
      expect(sniffImage(bytes)).toBeNull();
  });
});

describe('decodeDataUrl', () => {
  it('decodes base64 and keeps the declared type for information only', () => {
    const decoded = decodeDataUrl(`data:image/gif;base64,${PNG.toString('base64')}`);
    expect(decoded).toEqual({ mediaType: 'image/gif', bytes: PNG });
    expect(sniffImage((decoded as { bytes: Buffer }).bytes)).toBe('png');
  });

  it('refuses percent-encoded payloads, broken base64 and text that is no data URL', () => {
    expect(decodeDataUrl('data:image/png,%89PNG')).toMatch(/base64/);
    expect(decodeDataUrl('data:image/png;base64,abc')).toMatch(/not valid base64/);
    expect(decodeDataUrl('data:image/png;base64,ab$=')).toMatch(/not valid base64/);
    expect(decodeDataUrl('data:nothing')).toMatch(/not a data URL/);
  });
});

describe('imageSource', () => {
  it('tells document ids, https URLs and data URLs apart; anything else is none of them', () => {
    expect(imageSource('doc_0123456789abcdef01234567')).toBe('document');
    expect(imageSource('https://images.example.com/a.png')).toBe('url');
    expect(imageSource('DATA:image/png;base64,AAAA')).toBe('data');
    for (const other of ['http://images.example.com/a.png', 'https://user:pw@example.com/a.png', 'doc_123', 'a.png', `https://e.com/${'a'.repeat(2100)}`])
      expect(imageSource(other)).toBeNull();
  });
});
