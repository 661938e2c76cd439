// assess_order's estimates, pure: a question, the order's own signals and its comparable past orders -> probabilities and their basis.
import { betaBinomialLevels, normalise, shrinkThroughCohorts } from './probability-smoothing.js';
import { matchTopic, optionPolarity, outcomeOfOption, TOPIC_MEANING, type AssessmentTopic, type OutcomeOption, type TopicMatch } from './assessment-topics.js';
import type { AssessmentAnswer, AssessmentBasis, AssessmentQuestion } from './assessment-schemas.js';
import { describeImages, type ImageNote } from './image-notes.js';

/** An order "ships on time" when its first shipment is made within this long of its creation. */
export const SHIP_ON_TIME_MS = 2 * 24 * 3_600_000;
/** Pseudo-observations each cohort's prior is worth for a yes/no topic (Beta(1, 1) at the start: Laplace). */
export const BINARY_STRENGTH = 2;
/** Pseudo-observations the order's fraud score is worth as the prior of the fraud topic. */
export const FRAUD_SCORE_STRENGTH = 10;

export type CohortName = 'model' | 'flow' | 'seller' | 'customer';

/** The order itself, as assess_order reads it (src/orders/assessment-evidence.ts). */
export interface AssessedOrder {
  id: string;
  status: string;
  finished: boolean;
  flowId: string;
  model: string;
  customerId: string | null;
  /** Third-party sellers of its lines. */
  sellerIds: string[];
  createdAt: number;
  /** Its fraud score 0..100: the one the fraud step recorded, else computed by the same documented rules. */
  fraud: { score: number; recorded: boolean; signals: { code: string; detail: string }[] };
  approvals: { approved: number; refused: number; open: number };
  sellerOrders: { accepted: number; rejected: number; pending: number };
  /** Epoch ms of its first shipment, or null. */
  shippedAt: number | null;
}

/** A finished order comparable to the assessed one (it shares at least one cohort with it). */
export interface PastOrder {
  status: string;
  cohorts: Record<CohortName, boolean>;
  approvalsApproved: number;
  approvalsRefused: number;
  /** The fraud step's verdict, or null when no fraud step ran. */
  fraudHigh: boolean | null;
  /** From creation to its first shipment, or null when it never shipped. */
  shippedAfterMs: number | null;
}

/** A decided seller order of another order, for "will the sellers accept". */
export interface PastSellerOrder {
  accepted: boolean;
  sameFlow: boolean;
  sameSeller: boolean;
}

export interface AssessmentEvidence {
  now: number;
  order: AssessedOrder;
  past: readonly PastOrder[];
  pastSellerOrders: readonly PastSellerOrder[];
  images: readonly ImageNote[];
}

/** A yes-probability with its Beta parameters (how much it rests on) and what it was counted from. */
interface BinaryEstimate {
  method: 'observed' | 'estimated';
  a: number;
  b: number;
  sampleSize: number;
  sampleOf: string;
  cohorts: AssessmentBasis['cohorts'];
  signals: AssessmentBasis['signals'];
  smoothing: string;
  note: string;
}

const LAPLACE = `Laplace: a Beta(1, 1) prior, then each cohort from the broadest (model) to the most specific (customer) counted on top of ${BINARY_STRENGTH} pseudo-observations spread as the estimate of the broader one`;
const FINISHED_ORDERS = 'finished comparable orders';

/** The answer to one question. */
export function assessQuestion(question: AssessmentQuestion, evidence: AssessmentEvidence): AssessmentAnswer {
  const match = matchTopic(question.question);
  if (question.type === 'choice') return { id: question.id, type: 'choice', ...answerChoice(question.options, match, evidence) };
  if (!match) {
    const labels = question.type === 'noul' ? ['yes', 'no'] : question.levels;
    return { id: question.id, type: question.type, ...priorAnswer(labels, evidence, 'The question matches no recognised topic') };
  }
  const estimate = binaryEstimate(match.topic, evidence);
  const [a, b] = match.inverted ? [estimate.b, estimate.a] : [estimate.a, estimate.b];
  const basis = basisOf(estimate, match, evidence);
  if (question.type === 'noul') {
    const yes = a + b > 0 ? a / (a + b) : 0.5;
    return { id: question.id, type: 'noul', probabilities: { yes, no: 1 - yes }, basis };
  }
  return { id: question.id, type: 'score', probabilities: keyed(question.levels, betaBinomialLevels(a, b, question.levels.length)), basis };
}

/** Every question of a call, in order. */
export function assessOrder(questions: readonly AssessmentQuestion[], evidence: AssessmentEvidence): { answers: AssessmentAnswer[] } {
  return { answers: questions.map((q) => assessQuestion(q, evidence)) };
}

/** Probabilities keyed by label; `Object.fromEntries` keeps a label like `__proto__` an ordinary key. */
function keyed(labels: readonly string[], values: readonly number[]): Record<string, number> {
  return Object.fromEntries(labels.map((l, i) => [l, values[i]]));
}

function priorAnswer(labels: readonly string[], evidence: AssessmentEvidence, why: string): Pick<AssessmentAnswer, 'probabilities' | 'basis'> {
  return {
    probabilities: keyed(labels, normalise(labels.map(() => 1))),
    basis: {
      summary: joinSentences(`${why}: the smoothed prior, the same probability for each of the ${labels.length} answers.`, describeImages(evidence.images)),
      method: 'prior',
      topic: null,
      inverted: false,
      sampleSize: 0,
      sampleOf: 'nothing (no recognised topic)',
      cohorts: [],
      signals: [],
      smoothing: 'Laplace with no observations: uniform',
      images: [...evidence.images],
    },
  };
}

/** Which cohorts apply to the order, broadest first (a guest order has no customer cohort, a first-party one no seller cohort). */
function orderCohorts(order: AssessedOrder): { name: CohortName; match: string }[] {
  const cohorts: { name: CohortName; match: string }[] = [
    { name: 'model', match: order.model },
    { name: 'flow', match: order.flowId },
  ];
  if (order.sellerIds.length > 0) cohorts.push({ name: 'seller', match: order.sellerIds.join(', ') });
  if (order.customerId) cohorts.push({ name: 'customer', match: order.customerId });
  return cohorts;
}

/** [event held, event did not hold] for one past order and a topic; [0, 0] when the order says nothing about it. */
function pastCounts(topic: AssessmentTopic, p: PastOrder): [number, number] {
  const one = (held: boolean): [number, number] => (held ? [1, 0] : [0, 1]);
  switch (topic) {
    case 'completes':
      return one(p.status === 'completed');
    case 'fails':
      return one(p.status === 'failed' || p.status === 'rolled_back');
    case 'cancelled':
      return one(p.status === 'cancelled');
    case 'declined':
      return one(p.status === 'declined');
    case 'approved':
      return [p.approvalsApproved, p.approvalsRefused];
    case 'fraud':
      return p.fraudHigh === null ? [0, 0] : one(p.fraudHigh);
    case 'ships_on_time':
      return p.shippedAfterMs === null ? [0, 0] : one(p.shippedAfterMs <= SHIP_ON_TIME_MS);
    case 'sellers_accept':
      return [0, 0];
  }
}

const SAMPLE_OF: Record<AssessmentTopic, string> = {
  completes: FINISHED_ORDERS,
  fails: FINISHED_ORDERS,
  cancelled: FINISHED_ORDERS,
  declined: FINISHED_ORDERS,
  approved: 'decided approvals of finished comparable orders',
  fraud: 'finished comparable orders scored by a fraud step',
  ships_on_time: 'finished comparable orders that shipped',
  sellers_accept: 'decided seller orders of the same flow or sellers',
};

/** A yes-estimate from cohorts of past items, with the prior (mean, strength) it starts from. */
function fromCohorts(
  cohorts: { name: CohortName; match: string; counts: [number, number] }[],
  sampleSize: number,
  topic: AssessmentTopic,
  prior: { mean: number; strength: number; smoothing: string },
  signals: AssessmentBasis['signals'],
  note: string,
): BinaryEstimate {
  const smoothed = shrinkThroughCohorts([prior.mean, 1 - prior.mean], prior.strength, cohorts.map((c) => c.counts));
  return {
    method: 'estimated',
    a: smoothed.concentration[0],
    b: smoothed.concentration[1],
    sampleSize,
    sampleOf: SAMPLE_OF[topic],
    cohorts: cohorts.map((c) => ({ cohort: c.name, match: c.match, size: c.counts[0] + c.counts[1], positive: c.counts[0] })),
    signals,
    smoothing: prior.smoothing,
    note,
  };
}

/** An answer the order already shows: all the weight on one side. */
function observed(topic: AssessmentTopic, held: boolean, note: string, signals: AssessmentBasis['signals'] = []): BinaryEstimate {
  return { method: 'observed', a: held ? 1 : 0, b: held ? 0 : 1, sampleSize: 0, sampleOf: SAMPLE_OF[topic], cohorts: [], signals, smoothing: 'none: observed on the order', note };
}

/** The yes-estimate of a topic for this order. */
function binaryEstimate(topic: AssessmentTopic, evidence: AssessmentEvidence): BinaryEstimate {
  const { order } = evidence;
  const status = { code: 'status', detail: `the order is ${order.status.replace('_', ' ')}` };
  if (topic === 'sellers_accept') return sellersEstimate(evidence);
  const outcome: Partial<Record<AssessmentTopic, (s: string) => boolean>> = {
    completes: (s) => s === 'completed',
    fails: (s) => s === 'failed' || s === 'rolled_back',
    cancelled: (s) => s === 'cancelled',
    declined: (s) => s === 'declined',
  };
  const ended = outcome[topic];
  if (ended && order.finished) return observed(topic, ended(order.status), `The order has already ended ${order.status.replace('_', ' ')}.`, [status]);
  if (topic === 'approved' && order.approvals.open === 0 && order.approvals.approved + order.approvals.refused > 0) {
    const held = order.approvals.refused === 0;
    return observed(topic, held, `Its approval${order.approvals.approved + order.approvals.refused === 1 ? ' was' : 's were'} ${held ? 'approved' : 'not all approved'}.`, [
      { code: 'approvals', detail: `${order.approvals.approved} approved, ${order.approvals.refused} rejected, escalated or timed out` },
    ]);
  }
  if (topic === 'ships_on_time') {
    if (order.shippedAt !== null) {
      const held = order.shippedAt - order.createdAt <= SHIP_ON_TIME_MS;
      return observed(topic, held, `It shipped ${held ? 'within' : 'later than'} 2 days of being placed.`, [{ code: 'shipped', detail: 'the order has a shipment' }]);
    }
    if (order.finished) return observed(topic, false, 'It ended without a shipment.', [status]);
    if (evidence.now - order.createdAt > SHIP_ON_TIME_MS) return observed(topic, false, 'It has not shipped and was placed over 2 days ago.', [status]);
  }

  const cohorts = orderCohorts(order).map((c) => ({ ...c, counts: [0, 0] as [number, number] }));
  let sampleSize = 0;
  for (const p of evidence.past) {
    const [yes, no] = pastCounts(topic, p);
    if (yes + no === 0) continue;
    let counted = false;
    for (const c of cohorts) {
      if (!p.cohorts[c.name]) continue;
      c.counts[0] += yes;
      c.counts[1] += no;
      counted = true;
    }
    if (counted) sampleSize += yes + no;
  }
  const signals: AssessmentBasis['signals'] = [status];
  if (topic === 'fraud') {
    const score = order.fraud.score;
    signals.push(
      { code: 'fraud_score', detail: `fraud score ${score} of 100 (${order.fraud.recorded ? 'recorded by the fraud step' : 'computed by the documented rules'})` },
      ...order.fraud.signals,
    );
    const mean = Math.min(0.99, Math.max(0.01, score / 100));
    return fromCohorts(cohorts, sampleSize, topic, {
      mean,
      strength: FRAUD_SCORE_STRENGTH,
      smoothing: `the fraud score as a Beta prior of mean ${mean.toFixed(2)} worth ${FRAUD_SCORE_STRENGTH} orders, then each cohort counted on top of ${FRAUD_SCORE_STRENGTH} pseudo-observations spread as the estimate so far`,
    }, signals, '');
  }
  if (topic === 'approved') signals.push({ code: 'approvals', detail: `${order.approvals.open} open approval${order.approvals.open === 1 ? '' : 's'}` });
  return fromCohorts(cohorts, sampleSize, topic, { mean: 0.5, strength: BINARY_STRENGTH, smoothing: LAPLACE }, signals, '');
}

/** "Will the sellers accept": the order's own seller orders when all are decided, else decided seller orders of the same flow and sellers. */
function sellersEstimate(evidence: AssessmentEvidence): BinaryEstimate {
  const { order } = evidence;
  const own = order.sellerOrders;
  const signal = { code: 'seller_orders', detail: `${own.accepted} accepted, ${own.rejected} rejected, ${own.pending} pending` };
  if (own.pending === 0 && own.accepted + own.rejected > 0)
    return observed('sellers_accept', own.rejected === 0, own.rejected === 0 ? 'Every seller accepted.' : 'A seller rejected its seller order.', [signal]);
  const flow = { name: 'flow' as const, match: order.flowId, counts: [0, 0] as [number, number] };
  const seller = { name: 'seller' as const, match: order.sellerIds.join(', '), counts: [0, 0] as [number, number] };
  let sampleSize = 0;
  for (const so of evidence.pastSellerOrders) {
    const inc = (c: typeof flow | typeof seller) => (so.accepted ? c.counts[0]++ : c.counts[1]++);
    if (so.sameFlow) inc(flow);
    if (so.sameSeller && order.sellerIds.length > 0) inc(seller);
    if (so.sameFlow || (so.sameSeller && order.sellerIds.length > 0)) sampleSize++;
  }
  const cohorts = order.sellerIds.length > 0 ? [flow, seller] : [flow];
  const note = order.sellerIds.length === 0 ? 'The order has no third-party seller; the estimate is the flow’s.' : 'Pooled over the order’s sellers: the chance a seller order of theirs is accepted.';
  return fromCohorts(cohorts, sampleSize, 'sellers_accept', { mean: 0.5, strength: BINARY_STRENGTH, smoothing: LAPLACE.replace('(model) to the most specific (customer)', '(flow) to the most specific (seller)') }, [signal], note);
}

function basisOf(estimate: BinaryEstimate, match: TopicMatch, evidence: AssessmentEvidence): AssessmentBasis {
  const meaning = `${match.inverted ? 'not: ' : ''}${TOPIC_MEANING[match.topic]}`;
  const rests =
    estimate.method === 'observed'
      ? `Observed on the order (${meaning}). ${estimate.note}`
      : `Estimated that ${meaning} from ${estimate.sampleSize} ${estimate.sampleOf}` +
        (estimate.cohorts.length ? ` (${estimate.cohorts.map((c) => `${c.cohort} ${c.size}`).join(', ')})` : '') +
        ` with smoothing, and the order's own signals.${estimate.note ? ` ${estimate.note}` : ''}`;
  return {
    summary: joinSentences(rests, describeImages(evidence.images)),
    method: estimate.method,
    topic: match.topic,
    inverted: match.inverted,
    sampleSize: estimate.sampleSize,
    sampleOf: estimate.sampleOf,
    cohorts: estimate.cohorts,
    signals: estimate.signals,
    smoothing: estimate.smoothing,
    images: [...evidence.images],
  };
}

/**
 * A choice: options that each name an outcome (completed, declined, cancelled, failed, rolled back)
 * get the outcome distribution of comparable finished orders; two options meaning yes and no get the
 * question's topic; anything else the uniform prior.
 */
function answerChoice(options: readonly string[], match: TopicMatch | null, evidence: AssessmentEvidence): Pick<AssessmentAnswer, 'probabilities' | 'basis'> {
  const outcomes = options.map(outcomeOfOption);
  if (outcomes.every((o): o is OutcomeOption => o !== null) && new Set(outcomes).size === outcomes.length) return outcomeChoice(options, outcomes, evidence);
  const polarity = options.map(optionPolarity);
  if (match && options.length === 2 && polarity.includes('yes') && polarity.includes('no')) {
    const estimate = binaryEstimate(match.topic, evidence);
    const [a, b] = match.inverted ? [estimate.b, estimate.a] : [estimate.a, estimate.b];
    const yes = a + b > 0 ? a / (a + b) : 0.5;
    return { probabilities: keyed(options, polarity.map((p) => (p === 'yes' ? yes : 1 - yes))), basis: basisOf(estimate, match, evidence) };
  }
  return priorAnswer(options, evidence, match ? 'The options name neither outcomes nor yes and no' : 'The question and its options match no recognised topic');
}

/** Which option a finished status counts for: its own outcome, or a rolled-back order for "failed" when no option names rollback. */
function optionOfStatus(status: string, outcomes: readonly OutcomeOption[]): number {
  const direct = outcomes.indexOf(status as OutcomeOption);
  if (direct >= 0 || status !== 'rolled_back') return direct;
  return outcomes.indexOf('failed');
}

function outcomeChoice(options: readonly string[], outcomes: readonly OutcomeOption[], evidence: AssessmentEvidence): Pick<AssessmentAnswer, 'probabilities' | 'basis'> {
  const { order } = evidence;
  const status = { code: 'status', detail: `the order is ${order.status.replace('_', ' ')}` };
  const base = {
    topic: 'outcome',
    inverted: false,
    sampleOf: `${FINISHED_ORDERS} ending in one of the options`,
    images: [...evidence.images],
  };
  if (order.finished) {
    const index = optionOfStatus(order.status, outcomes);
    if (index >= 0) {
      return {
        probabilities: keyed(options, options.map((_, i) => (i === index ? 1 : 0))),
        basis: {
          ...base,
          summary: joinSentences(`Observed on the order: it has already ended ${order.status.replace('_', ' ')}.`, describeImages(evidence.images)),
          method: 'observed',
          sampleSize: 0,
          cohorts: [],
          signals: [status],
          smoothing: 'none: observed on the order',
        },
      };
    }
  }
  const cohorts = orderCohorts(order).map((c) => ({ ...c, counts: options.map(() => 0) }));
  let sampleSize = 0;
  for (const p of evidence.past) {
    const index = optionOfStatus(p.status, outcomes);
    if (index < 0) continue;
    let counted = false;
    for (const c of cohorts) {
      if (!p.cohorts[c.name]) continue;
      c.counts[index]++;
      counted = true;
    }
    if (counted) sampleSize++;
  }
  const smoothed = shrinkThroughCohorts(options.map(() => 1), options.length, cohorts.map((c) => c.counts));
  const ended = order.finished ? ` The order ended ${order.status.replace('_', ' ')}, which no option names.` : '';
  return {
    probabilities: keyed(options, smoothed.probabilities),
    basis: {
      ...base,
      summary: joinSentences(
        `Estimated from the outcomes of ${sampleSize} ${FINISHED_ORDERS} (${cohorts.map((c) => `${c.name} ${c.counts.reduce((s, n) => s + n, 0)}`).join(', ')}) with smoothing.${ended}`,
        describeImages(evidence.images),
      ),
      method: 'estimated',
      sampleSize,
      cohorts: cohorts.map((c) => ({ cohort: c.name, match: c.match, size: c.counts.reduce((s, n) => s + n, 0) })),
      signals: [status],
      smoothing: `Laplace over the ${options.length} options (a Dirichlet prior of one pseudo-observation each), then each cohort from the broadest (model) to the most specific (customer) counted on top of ${options.length} pseudo-observations spread as the estimate of the broader one`,
    },
  };
}

function joinSentences(...parts: string[]): string {
  return parts.filter(Boolean).join(' ');
}
