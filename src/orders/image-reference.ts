// What an image reference of assess_order names: a stored document of the order, an https URL, or a data URL.
import { isDataUrl } from './data-url.js';

export type ImageSource = 'document' | 'url' | 'data';

/** A document of the order is named by its id: `doc_` and 24 hex digits (src/orders/order-documents.ts). */
const DOCUMENT_KEY = /^doc_[0-9a-f]{24}$/;

/** Longest https URL taken (as for webhook subscriptions). */
export const IMAGE_URL_MAX = 2048;

/** The kind of reference `text` is, or null when it is none of them (an http URL, a path, a name). */
export function imageSource(text: string): ImageSource | null {
  if (isDataUrl(text)) return 'data';
  if (DOCUMENT_KEY.test(text)) return 'document';
  if (text.length > IMAGE_URL_MAX) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && !url.username && !url.password ? 'url' : null;
  } catch {
    return null;
  }
}
