// assess_order's input and output (contract section 11): typed questions, up to 4 images, probabilities with their basis.
import { z } from 'zod';
import { decodeDataUrl } from './data-url.js';
import { IMAGE_MAX_BYTES, sniffImage } from './image-bytes.js';
import { IMAGE_URL_MAX, imageSource } from './image-reference.js';

/** Limits of the spec's "Limits" table, and our own bounds on text. */
export const ASSESSMENT_LIMITS = {
  images: 4,
  questions: 20,
  question: 1000,
  choiceOptions: { min: 2, max: 255 },
  scoreLevels: { min: 2, max: 10 },
  label: 200,
  id: 100,
  /** A data URL of the largest image, in base64 with a short header. */
  dataUrl: Math.ceil(IMAGE_MAX_BYTES / 3) * 4 + 100,
} as const;

const label = z.string().trim().min(1).max(ASSESSMENT_LIMITS.label);
/** Probabilities are keyed by the labels, so two equal labels (after trimming) would share a key. */
const distinct = (values: string[]) => new Set(values).size === values.length;
const id = z.string().min(1).max(ASSESSMENT_LIMITS.id).optional().describe('Echoed on the answer');
const question = z.string().trim().min(1).max(ASSESSMENT_LIMITS.question);

export const assessmentQuestionSchema = z.discriminatedUnion('type', [
  z.strictObject({ id, type: z.literal('noul'), question }).describe('A yes/no question: probabilities of `yes` and `no`'),
  z
    .strictObject({
      id,
      type: z.literal('choice'),
      question,
      options: z.array(label).min(ASSESSMENT_LIMITS.choiceOptions.min).max(ASSESSMENT_LIMITS.choiceOptions.max).refine(distinct, 'options must be distinct'),
    })
    .describe('One of 2 to 255 options: a probability per option'),
  z
    .strictObject({
      id,
      type: z.literal('score'),
      question,
      levels: z.array(label).min(ASSESSMENT_LIMITS.scoreLevels.min).max(ASSESSMENT_LIMITS.scoreLevels.max).refine(distinct, 'levels must be distinct'),
    })
    .describe('An ordered rubric of 2 to 10 levels, lowest first: a probability per level'),
]);

export type AssessmentQuestion = z.infer<typeof assessmentQuestionSchema>;

/**
 * One image: a document of the order (`doc_…`), an https URL, or a base64 data URL. A data URL is
 * decoded here and refused unless its bytes are PNG, JPEG or WebP; documents and URLs are checked
 * the same way once read (src/orders/assessment-images.ts).
 */
export const imageReferenceSchema = z
  .string()
  .min(1)
  .max(ASSESSMENT_LIMITS.dataUrl)
  .superRefine((text, ctx) => {
    const source = imageSource(text);
    if (source === null)
      ctx.addIssue({ code: 'custom', message: `must be a document id of the order (doc_…), an https URL (at most ${IMAGE_URL_MAX} characters, no user name or password) or a base64 data URL` });
    if (source !== 'data') return;
    const decoded = decodeDataUrl(text);
    if (typeof decoded === 'string') ctx.addIssue({ code: 'custom', message: decoded });
    else if (decoded.bytes.length > IMAGE_MAX_BYTES) ctx.addIssue({ code: 'custom', message: `is larger than ${IMAGE_MAX_BYTES} bytes` });
    else if (!sniffImage(decoded.bytes)) ctx.addIssue({ code: 'custom', message: 'is not a PNG, JPEG or WebP image by its bytes' });
  });

export const assessOrderInputSchema = z.strictObject({
  orderId: z.string().min(1).max(100).describe('The order id (ord_…)'),
  questions: z.array(assessmentQuestionSchema).min(1).max(ASSESSMENT_LIMITS.questions),
  images: z
    .array(imageReferenceSchema)
    .max(ASSESSMENT_LIMITS.images)
    .optional()
    .describe('Up to 4: document ids of the order, https URLs or base64 data URLs; PNG, JPEG or WebP by their bytes'),
});

export type AssessOrderInput = z.infer<typeof assessOrderInputSchema>;

export const imageNoteSchema = z.object({
  index: z.number().int(),
  source: z.enum(['document', 'url', 'data']),
  status: z.enum(['read', 'unavailable', 'not_fetched']).describe('not_fetched: a fetch limit left it alone (at most 8 image fetches per request)'),
  format: z.enum(['png', 'jpeg', 'webp']).optional(),
  bytes: z.number().int().optional(),
  detail: z.string().optional(),
});

export const assessmentBasisSchema = z.object({
  summary: z.string().describe('What the estimate rests on, in one or two sentences'),
  method: z.enum(['observed', 'estimated', 'prior']).describe('observed: the order already shows the answer; estimated: counted from comparable orders and signals; prior: no recognised topic'),
  topic: z.string().nullable().describe('The recognised question topic (docs/agents.md "assess_order"), or null'),
  inverted: z.boolean().describe('The question asks for the opposite of the topic ("late", "reject", "not")'),
  sampleSize: z.number().int().describe('Distinct past items counted (see sampleOf)'),
  sampleOf: z.string().describe('What was counted: finished comparable orders, their decided approvals, decided seller orders'),
  cohorts: z.array(
    z.object({
      cohort: z.enum(['model', 'flow', 'seller', 'customer']),
      match: z.string(),
      size: z.number().int(),
      positive: z.number().int().optional().describe('For a yes/no topic: how many of them the event held for'),
    }),
  ),
  signals: z.array(z.object({ code: z.string(), detail: z.string() })).describe('Signals of the order itself'),
  smoothing: z.string(),
  images: z.array(imageNoteSchema),
});

export const assessmentAnswerSchema = z.object({
  id: z.string().optional(),
  type: z.enum(['noul', 'choice', 'score']),
  probabilities: z.record(z.string(), z.number().min(0).max(1)).describe('yes/no, each option or each level to a probability; they sum to 1'),
  basis: assessmentBasisSchema,
});

export const assessOrderOutputSchema = z.object({ answers: z.array(assessmentAnswerSchema) });

export type AssessmentAnswer = z.input<typeof assessmentAnswerSchema>;
export type AssessmentBasis = z.input<typeof assessmentBasisSchema>;
