// Order documents (contract section 10): stored in PostgreSQL with the order, served to signed-in people.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.js';

/** What a document is to the order: the inbound text the extract step reads, an invoice, a purchase order. */
export type OrderDocumentKind = 'inbound' | 'invoice' | 'po' | (string & {});

export interface NewOrderDocument {
  orderId: string;
  kind: OrderDocumentKind;
  name: string;
  contentType: string;
  body: Buffer | string;
}

export interface OrderDocument {
  id: string;
  orderId: string;
  kind: string;
  name: string;
  contentType: string;
  body: Buffer;
  createdAt: number;
}

/** Document ids are `doc_` + 24 hex characters (unguessable; the route also checks the order id). */
export function newDocumentId(): string {
  return `doc_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** Stores a document in the caller's transaction; returns its id. */
export async function storeOrderDocument(q: Queryable, doc: NewOrderDocument, now: number): Promise<string> {
  const id = newDocumentId();
  const body = typeof doc.body === 'string' ? Buffer.from(doc.body, 'utf8') : doc.body;
  await q.query(
    'INSERT INTO order_documents (id, order_id, kind, name, content_type, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [id, doc.orderId, doc.kind, doc.name, doc.contentType, body, now],
  );
  return id;
}

/** An `order_documents` row as pg returns it (bytea as a Buffer, bigint as text). */
interface OrderDocumentDbRow {
  id: string;
  order_id: string;
  kind: string;
  name: string;
  content_type: string;
  body: Buffer;
  created_at: string;
}

function toDocument(r: OrderDocumentDbRow): OrderDocument {
  return {
    id: r.id,
    orderId: r.order_id,
    kind: r.kind,
    name: r.name,
    contentType: r.content_type,
    body: r.body,
    createdAt: Number(r.created_at),
  };
}

/** One document of one order; null when either id does not match. */
export async function readOrderDocument(q: Queryable, orderId: string, documentId: string): Promise<OrderDocument | null> {
  const { rows } = await q.query<OrderDocumentDbRow>('SELECT * FROM order_documents WHERE id = $1 AND order_id = $2', [documentId, orderId]);
  return rows[0] ? toDocument(rows[0]) : null;
}

/** Every document of an order, oldest first (restart copies them; the extract step reads the inbound one, commerce/inbound-documents-repo.ts). */
export async function listOrderDocuments(q: Queryable, orderId: string): Promise<OrderDocument[]> {
  const { rows } = await q.query<OrderDocumentDbRow>('SELECT * FROM order_documents WHERE order_id = $1 ORDER BY created_at, id', [orderId]);
  return rows.map(toDocument);
}
