// Which A2A protocol a request speaks (contract section 10): the A2A-Version header, else the method names.
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';

export type WireVersion = '1.0' | '0.3';

/**
 * The protocol of a request: `A2A-Version` normalised to Major.Minor (`1.0.0` is 1.0: a patch
 * never changes negotiation, TCK VER-CLIENT-002); without the header 0.3 (A2A 1.0 §3.6.2) unless
 * the method is a 1.0 name. Any other version: null (JSON-RPC -32009).
 */
export function requestVersion(header: string, method: unknown): WireVersion | null {
  const text = header.trim();
  if (text === '') return isV1JsonRpcMethod(method) && !isLegacyJsonRpcMethod(method) ? '1.0' : '0.3';
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(text);
  if (!match) return null;
  const version = `${Number(match[1])}.${Number(match[2])}`;
  return version === '1.0' || version === '0.3' ? version : null;
}

/** The wire version of a call (the context carries it from the edge). */
export function wireVersionOf(context: ServerCallContext): WireVersion {
  return context.requestedVersion === '1.0' ? '1.0' : '0.3';
}
