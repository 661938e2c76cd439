// The workspace file's `adapters` (docs/integrations.md): optional, https (http only to loopback), no credentials, timeout at most 2 minutes.
import { describe, expect, it } from 'vitest';
import { workspaceSchema } from '../../../src/config/workspace-schema.js';

const base = { name: 'W', exchangeRates: { USD: 1 } };
const parse = (adapters: unknown) => workspaceSchema.safeParse({ ...base, adapters });

describe('workspace adapters', () => {
  it('absent means the ledger for both ports', () => {
    expect(workspaceSchema.parse(base).adapters).toEqual({});
  });

  it('a port takes an https URL (trailing slash dropped), an optional integration id and a timeout defaulting to 10s', () => {
    const got = parse({ payments: { url: 'https://pay.example.com/v1/', secret: 'int_1' }, carrier: { url: 'http://127.0.0.1:9000', timeout: '30s' } });
    expect(got.success && got.data.adapters).toEqual({
      payments: { url: 'https://pay.example.com/v1', secret: 'int_1', timeout: '10s' },
      carrier: { url: 'http://127.0.0.1:9000', timeout: '30s' },
    });
  });

  it('refuses plain http to a public host, credentials in the URL, a timeout over 2 minutes and unknown keys', () => {
    for (const payments of [
      { url: 'http://pay.example.com' },
      { url: 'https://user:pw@pay.example.com' },
      { url: 'https://pay.example.com', timeout: '3m' },
      { url: 'https://pay.example.com', apiKey: 'x' },
    ]) {
      const got = parse({ payments });
      expect(got.success, JSON.stringify(payments)).toBe(false);
      expect(got.error!.issues[0].path.slice(0, 2)).toEqual(['adapters', 'payments']);
    }
    expect(parse({ fraud: { url: 'https://x.example.com' } }).success).toBe(false);
  });
});
