// assess_order's estimates (docs/agents.md "assess_order"): every answer sums to 1; observed facts, cohort counts, signals and the prior.
import { describe, expect, it } from 'vitest';
import { assessOrder, SHIP_ON_TIME_MS, type AssessedOrder, type AssessmentEvidence, type PastOrder } from '../../../src/orders/order-assessment.js';
import type { AssessmentQuestion } from '../../../src/orders/assessment-schemas.js';

const HOUR = 3_600_000;
const order = (over: Partial<AssessedOrder> = {}): AssessedOrder => ({
  id: 'ord_1',
  status: 'waiting',
  finished: false,
  flowId: 'flow-a',
  model: 'b2c',
  customerId: 'cus_1',
  sellerIds: [],
  createdAt: 0,
  fraud: { score: 15, recorded: false, signals: [{ code: 'guest', detail: 'no customer account' }] },
  approvals: { approved: 0, refused: 0, open: 0 },
  sellerOrders: { accepted: 0, rejected: 0, pending: 0 },
  shippedAt: null,
  ...over,
});
const past = (status: string, cohorts: Partial<PastOrder['cohorts']> = {}, over: Partial<PastOrder> = {}): PastOrder => ({
  status,
  cohorts: { model: true, flow: true, seller: false, customer: false, ...cohorts },
  approvalsApproved: 0,
  approvalsRefused: 0,
  fraudHigh: null,
  shippedAfterMs: null,
  ...over,
});
const evidence = (over: Partial<AssessmentEvidence> = {}): AssessmentEvidence => ({ now: HOUR, order: order(), past: [], pastSellerOrders: [], images: [], ...over });
const one = (q: AssessmentQuestion, ev: AssessmentEvidence) => assessOrder([q], ev).answers[0];
const total = (p: Record<string, number>) => Object.values(p).reduce((s, x) => s + x, 0);

const history = [...Array.from({ length: 8 }, () => past('completed')), past('cancelled'), past('failed'), past('rolled_back', { customer: true })];

describe('probabilities sum to 1 for every question type', () => {
  const questions: AssessmentQuestion[] = [
    { type: 'noul', question: 'Will it complete?' },
    { type: 'noul', question: 'Is it fraud?' },
    { type: 'noul', question: 'What colour is it?' },
    { type: 'choice', question: 'How will it end?', options: ['completed', 'cancelled', 'failed'] },
    { type: 'choice', question: 'Will it be approved?', options: ['yes', 'no'] },
    { type: 'choice', question: 'Which box?', options: Array.from({ length: 255 }, (_, i) => `box ${i}`) },
    { type: 'score', question: 'How likely is it to ship on time?', levels: ['low', 'medium', 'high'] },
    { type: 'score', question: 'Rate the mug', levels: Array.from({ length: 10 }, (_, i) => `${i}`) },
  ];
  it.each(questions.map((q) => [q.question, q] as const))('%s', (_q, question) => {
    const answer = one(question, evidence({ past: history }));
    expect(total(answer.probabilities)).toBeCloseTo(1, 12);
    for (const p of Object.values(answer.probabilities)) expect(p).toBeGreaterThanOrEqual(0);
  });
});

describe('estimates from comparable orders', () => {
  it('counts finished comparable orders with Laplace smoothing and names the sample size per cohort', () => {
    const answer = one({ id: 'c', type: 'noul', question: 'Will it complete?' }, evidence({ past: history }));
    // model 8/11, flow 8/11 shrunk on it, customer 0/1 shrunk on that.
    const model = (8 + 1) / (11 + 2);
    const flow = (8 + 2 * model) / (11 + 2);
    expect(answer.probabilities.yes).toBeCloseTo((0 + 2 * flow) / (1 + 2), 12);
    expect(answer.id).toBe('c');
    expect(answer.basis).toMatchObject({ method: 'estimated', topic: 'completes', sampleSize: 11, sampleOf: 'finished comparable orders' });
    expect(answer.basis.cohorts).toEqual([
      { cohort: 'model', match: 'b2c', size: 11, positive: 8 },
      { cohort: 'flow', match: 'flow-a', size: 11, positive: 8 },
      { cohort: 'customer', match: 'cus_1', size: 1, positive: 0 },
    ]);
    expect(answer.basis.summary).toMatch(/from 11 finished comparable orders/);
  });

  it('with no comparable order the estimate is Laplace’s 1/2 over a sample of 0', () => {
    const answer = one({ type: 'noul', question: 'Will it be cancelled?' }, evidence());
    expect(answer.probabilities).toEqual({ yes: 0.5, no: 0.5 });
    expect(answer.basis.sampleSize).toBe(0);
  });

  it('an inverted question swaps yes and no ("will it ship late")', () => {
    const shipped = [past('completed', {}, { shippedAfterMs: HOUR }), past('completed', {}, { shippedAfterMs: HOUR })];
    const onTime = one({ type: 'noul', question: 'Will it ship on time?' }, evidence({ past: shipped })).probabilities.yes;
    const late = one({ type: 'noul', question: 'Will it ship late?' }, evidence({ past: shipped }));
    expect(late.probabilities.yes).toBeCloseTo(1 - onTime, 12);
    expect(late.basis.inverted).toBe(true);
  });

  it('the fraud topic starts from the order’s fraud score and lists its signals', () => {
    const low = one({ type: 'noul', question: 'Is it fraud?' }, evidence()).probabilities.yes;
    const high = one({ type: 'noul', question: 'Is it fraud?' }, evidence({ order: order({ fraud: { score: 80, recorded: true, signals: [] } }) }));
    expect(low).toBeCloseTo(0.15, 12);
    expect(high.probabilities.yes).toBeCloseTo(0.8, 12);
    expect(high.basis.signals.map((s) => s.code)).toContain('fraud_score');
  });

  it('a choice of outcomes counts each comparable order for the option its status names (rolled back counts as failed)', () => {
    const answer = one({ type: 'choice', question: 'How will it end?', options: ['Completed', 'Cancelled', 'Failed'] }, evidence({ past: history }));
    expect(answer.basis).toMatchObject({ method: 'estimated', topic: 'outcome', sampleSize: 11 });
    expect(answer.probabilities.Completed).toBeGreaterThan(answer.probabilities.Failed);
  });
});

describe('what the order already shows', () => {
  it('a finished order answers its outcome with certainty', () => {
    const ev = evidence({ order: order({ status: 'cancelled', finished: true }), past: history });
    expect(one({ type: 'noul', question: 'Will it complete?' }, ev).probabilities).toEqual({ yes: 0, no: 1 });
    expect(one({ type: 'score', question: 'Will it be cancelled?', levels: ['no', 'maybe', 'yes'] }, ev).probabilities).toEqual({ no: 0, maybe: 0, yes: 1 });
    expect(one({ type: 'choice', question: 'End?', options: ['completed', 'cancelled'] }, ev).basis.method).toBe('observed');
  });

  it('decided approvals and seller orders, and a shipment, answer their topics', () => {
    const ev = evidence({ order: order({ approvals: { approved: 1, refused: 0, open: 0 }, sellerOrders: { accepted: 1, rejected: 1, pending: 0 }, shippedAt: SHIP_ON_TIME_MS + 1 }) });
    expect(one({ type: 'noul', question: 'Will it be approved?' }, ev).probabilities.yes).toBe(1);
    expect(one({ type: 'noul', question: 'Will the sellers accept?' }, ev).probabilities.yes).toBe(0);
    expect(one({ type: 'noul', question: 'Will it ship on time?' }, ev).probabilities.yes).toBe(0);
  });
});

describe('unrecognised questions', () => {
  it('get the uniform prior with a basis saying so', () => {
    const answer = one({ type: 'score', question: 'How nice is the mug?', levels: ['1', '2', '3', '4'] }, evidence({ past: history }));
    expect(answer.probabilities).toEqual({ 1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25 });
    expect(answer.basis).toMatchObject({ method: 'prior', topic: null, sampleSize: 0 });
    expect(answer.basis.summary).toMatch(/no recognised topic/);
  });

  it('keeps an option named __proto__ an ordinary key', () => {
    const answer = one({ type: 'choice', question: 'Which?', options: ['__proto__', 'b'] }, evidence());
    expect(Object.keys(answer.probabilities)).toEqual(['__proto__', 'b']);
    expect(total(answer.probabilities)).toBe(1);
  });
});

describe('images in the basis', () => {
  it('summarises read images and reports those that could not be read', () => {
    const images = [
      { index: 0, source: 'data' as const, status: 'read' as const, format: 'png' as const, bytes: 12 },
      { index: 1, source: 'url' as const, status: 'unavailable' as const, detail: 'Refused: localhost resolves to a loopback address' },
    ];
    const answer = one({ type: 'noul', question: 'Will it complete?' }, evidence({ images }));
    expect(answer.basis.images).toEqual(images);
    expect(answer.basis.summary).toMatch(/1 image received \(PNG 12 bytes\).*1 image could not be read \(#2: Refused/);
  });
});
