// The business-event payloads the built-in node types read (their `eventPayload`), written out for senders.
import type { EventPayloadDoc } from '../engine/node-type.js';
import { builtinNodeTypes } from './builtin-node-types.js';

/** Every declared payload, by event name (the first node type declaring an event names its fields). */
const PAYLOADS = new Map<string, EventPayloadDoc>();
for (const def of builtinNodeTypes)
  if (def.eventPayload && !PAYLOADS.has(def.eventPayload.event)) PAYLOADS.set(def.eventPayload.event, def.eventPayload);

/** The payload a built-in step reads of `event`, or undefined when none declares one. */
export function eventPayloadOf(event: string): EventPayloadDoc | undefined {
  return PAYLOADS.get(event);
}

/** `{ "sellerId": "<the seller's id>", "decision": "accepted" | "rejected", "reason"?: "<…>" }`: the payload's fields as a sender writes them. */
export function payloadShape(doc: EventPayloadDoc): string {
  return `{ ${doc.fields.map((f) => `"${f.name}"${f.required ? '' : '?'}: ${f.value}`).join(', ')} }`;
}

/** The reply that delivers `event`: with its payload's fields when a step reads them, else the event alone. */
export function eventReply(event: string): string {
  const doc = eventPayloadOf(event);
  return doc ? `{ "event": "${event}", "payload": ${payloadShape(doc)} }` : `{ "event": "${event}" }`;
}

/** One sentence naming every declared payload, for tool descriptions. */
export function declaredPayloadsText(): string {
  const docs = [...PAYLOADS.values()];
  if (docs.length === 0) return '';
  return `Payloads the built-in steps read (a payload missing a required field fails the step that reads it): ${docs.map((d) => `${d.event} ${payloadShape(d)}`).join('; ')}.`;
}
