// The images of an assess_order call, read and summarised: stored documents of the order, https URLs, data URLs.
import type { Queryable } from '../db/db.js';
import { ValidationError } from '../domain/errors.js';
import { readOrderDocument } from './order-documents.js';
import { decodeDataUrl } from './data-url.js';
import { imageSource, type ImageSource } from './image-reference.js';
import { IMAGE_MAX_BYTES, sniffImage } from './image-bytes.js';
import type { ImageFetchResult } from './image-fetch.js';
import type { ImageNote } from './image-notes.js';

export interface ImageReadDeps {
  db: Queryable;
  /** The guarded GET of the head of an image (`fetchImage` with the service's outbound settings, under `ImageFetchLimits`). */
  fetch: (url: string) => Promise<ImageFetchResult>;
}

/**
 * Reads every image (fetches run side by side). Bytes that are not PNG, JPEG or WebP are invalid
 * input (the caller chose them): a ValidationError naming `images.<i>`. An image that cannot be
 * had (no such document on this order, a refused or failing fetch, too large) is only noted, as is
 * one the fetch limits left unfetched (`not_fetched`). Of a URL only the head is read: the format
 * by its signature, the size as declared.
 */
export async function readAssessmentImages(deps: ImageReadDeps, orderId: string, refs: readonly string[]): Promise<ImageNote[]> {
  const reads = await Promise.all(refs.map((ref, index) => readOne(deps, orderId, ref, index)));
  const invalid = reads.filter((r): r is NotAnImage => 'notAnImage' in r);
  if (invalid.length > 0)
    throw new ValidationError(
      invalid.map((r) => ({ path: `images.${r.index}`, message: 'is not a PNG, JPEG or WebP image by its bytes' })),
      'Invalid input',
    );
  return reads as ImageNote[];
}

/** Bytes were had but are no image of the three formats: the call is refused. */
interface NotAnImage {
  index: number;
  notAnImage: true;
}

type Read = ImageNote | NotAnImage;

async function readOne(deps: ImageReadDeps, orderId: string, ref: string, index: number): Promise<Read> {
  const source = imageSource(ref);
  if (source === 'data') {
    const decoded = decodeDataUrl(ref);
    // The input schema already refused a bad data URL; this stays for callers that skip it.
    if (typeof decoded === 'string') return { index, source: 'data', status: 'unavailable', detail: `The data URL ${decoded}` };
    return judge(index, 'data', decoded.bytes);
  }
  if (source === 'document') {
    const doc = await readOrderDocument(deps.db, orderId, ref);
    if (!doc) return { index, source: 'document', status: 'unavailable', detail: 'No such document on this order' };
    if (doc.body.length > IMAGE_MAX_BYTES) return { index, source: 'document', status: 'unavailable', detail: `Larger than ${IMAGE_MAX_BYTES} bytes` };
    return judge(index, 'document', doc.body);
  }
  if (source === null) return { index, source: 'url', status: 'unavailable', detail: 'Not a document id, https URL or data URL' };
  const fetched = await deps.fetch(ref);
  if (!fetched.ok) return { index, source: 'url', status: fetched.notFetched ? 'not_fetched' : 'unavailable', detail: fetched.error };
  return judge(index, 'url', fetched.head, fetched.size);
}

/** `size` null: not known (a URL whose length was not declared and whose body was not read to its end). */
function judge(index: number, source: ImageSource, head: Buffer, size: number | null = head.length): Read {
  const format = sniffImage(head);
  if (!format) return { index, notAnImage: true };
  return { index, source, status: 'read', format, ...(size === null ? {} : { bytes: size }) };
}
