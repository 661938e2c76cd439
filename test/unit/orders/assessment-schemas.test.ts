// assess_order's input (contract 11, spec "Limits"): strict objects, 2-255 options, 2-10 levels, at most 4 images, PNG/JPEG/WebP data URLs.
import { describe, expect, it } from 'vitest';
import { assessOrderInputSchema } from '../../../src/orders/assessment-schemas.js';

const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64')}`;
const GIF = `data:image/gif;base64,${Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64')}`;
const base = { orderId: 'ord_1', questions: [{ type: 'noul', question: 'Will it complete?' }] };
const issues = (input: unknown) => {
  const r = assessOrderInputSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('assess_order input', () => {
  it('takes the three question types and up to 4 images of the three kinds', () => {
    const input = {
      ...base,
      questions: [
        { id: 'a', type: 'noul', question: 'Will it complete?' },
        { type: 'choice', question: 'End?', options: ['completed', 'cancelled'] },
        { type: 'score', question: 'Risk?', levels: ['low', 'high'] },
      ],
      images: [PNG, 'https://images.example.com/a.webp', 'doc_0123456789abcdef01234567', PNG],
    };
    expect(issues(input)).toEqual([]);
  });

  it('refuses a 5th image and a GIF data URL', () => {
    expect(issues({ ...base, images: [PNG, PNG, PNG, PNG, PNG] })).toEqual([expect.stringMatching(/^images: /)]);
    expect(issues({ ...base, images: [PNG, GIF] })).toEqual(['images.1: is not a PNG, JPEG or WebP image by its bytes']);
  });

  it('refuses http URLs and plain names as images', () => {
    expect(issues({ ...base, images: ['http://images.example.com/a.png', 'a.png'] })).toHaveLength(2);
  });

  it('refuses unknown keys, 1 or 256 options, 1 or 11 levels, repeated options, an unknown type and no question', () => {
    expect(issues({ ...base, extra: 1 })).toHaveLength(1);
    expect(issues({ ...base, questions: [{ type: 'noul', question: 'q', colour: 'red' }] })).toHaveLength(1);
    expect(issues({ ...base, questions: [{ type: 'choice', question: 'q', options: ['a'] }] })).toHaveLength(1);
    expect(issues({ ...base, questions: [{ type: 'choice', question: 'q', options: Array.from({ length: 256 }, (_, i) => `${i}`) }] })).toHaveLength(1);
    expect(issues({ ...base, questions: [{ type: 'choice', question: 'q', options: Array.from({ length: 255 }, (_, i) => `${i}`) }] })).toEqual([]);
    expect(issues({ ...base, questions: [{ type: 'score', question: 'q', levels: ['a'] }] })).toHaveLength(1);
    expect(issues({ ...base, questions: [{ type: 'score', question: 'q', levels: Array.from({ length: 11 }, (_, i) => `${i}`) }] })).toHaveLength(1);
    expect(issues({ ...base, questions: [{ type: 'choice', question: 'q', options: ['a', ' a '] }] })).toEqual(['questions.0.options: options must be distinct']);
    expect(issues({ ...base, questions: [{ type: 'maybe', question: 'q' }] })).toHaveLength(1);
    expect(issues({ ...base, questions: [] })).toHaveLength(1);
  });
});
