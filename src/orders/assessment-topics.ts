// The question topics assess_order recognises, matched by keywords (docs/agents.md "assess_order"), and the options they name.

/** A yes/no event about an order that past orders can count. */
export type AssessmentTopic = 'sellers_accept' | 'ships_on_time' | 'fraud' | 'approved' | 'cancelled' | 'declined' | 'fails' | 'completes';

/** How an order can end, as an option of a `choice` question may name it. */
export type OutcomeOption = 'completed' | 'declined' | 'cancelled' | 'failed' | 'rolled_back';

export interface TopicMatch {
  topic: AssessmentTopic;
  /** The question asks for the opposite event ("will it ship late", "will the approver reject it", "will it not complete"). */
  inverted: boolean;
}

interface TopicRule {
  topic: AssessmentTopic;
  /** Words the question must also contain (the subject), when the event words alone are ambiguous. */
  requires?: RegExp;
  /** Words naming the event. */
  event: RegExp;
  /** Words naming its opposite (the answer is flipped). */
  opposite?: RegExp;
}

/** Tried in this order, most specific first: "will the seller reject it" is about sellers, not the approval. */
const RULES: readonly TopicRule[] = [
  {
    topic: 'sellers_accept',
    requires: /\b(sellers?|vendors?|merchants?|suppliers?)\b/,
    event: /\b(accept\w*|confirm\w*)\b/,
    opposite: /\b(reject\w*|refus\w*|declin\w*)\b/,
  },
  {
    topic: 'ships_on_time',
    requires: /\b(ship\w*|dispatch\w*|deliver\w*|sent|send)\b/,
    event: /\b(on time|in time|promptly|quickly)\b/,
    opposite: /\b(late|delay\w*|overdue|slow)\b/,
  },
  { topic: 'fraud', event: /\b(fraud\w*|risk\w*|scam\w*|suspicious|chargebacks?|stolen)\b/, opposite: /\b(legit\w*|genuine|trustworthy)\b/ },
  { topic: 'approved', event: /\b(approv\w*|sign(ed)? off|pass(es)? review)\b/, opposite: /\breject\w*\b/ },
  { topic: 'cancelled', event: /\b(cancel\w*|abandon\w*)\b/ },
  { topic: 'declined', event: /\bdeclin\w*\b/ },
  { topic: 'fails', event: /\b(fail\w*|errors?|roll(ed|s)?[ -]?back|rollback)\b/ },
  { topic: 'completes', event: /\b(complet\w*|succe\w*|fulfil\w*|finish\w*|go(es)? through|deliver(ed|y)?)\b/ },
];

/** One plain sentence per topic: what "yes" means and what it is counted from. */
export const TOPIC_MEANING: Record<AssessmentTopic, string> = {
  completes: 'the order ends completed',
  fails: 'the order ends failed or rolled back',
  cancelled: 'the order ends cancelled',
  declined: 'the order ends declined',
  approved: 'its approvals are approved (not rejected, escalated or timed out)',
  sellers_accept: 'its third-party sellers accept their seller orders',
  fraud: 'the order is high risk (fraud)',
  ships_on_time: 'the order ships within 2 days of being placed',
};

/** "not", "never", "won't", "isn't": the question asks for the opposite (a trailing "or not" does not count). */
const NEGATION = /\b(not|never|no longer)\b|n['’]t\b/;

/** The recognised topic of a question, or null (the answer is then the smoothed prior). */
export function matchTopic(question: string): TopicMatch | null {
  const text = question.toLowerCase().replace(/\bor not\b/g, ' ');
  const negated = NEGATION.test(text);
  for (const rule of RULES) {
    if (rule.requires && !rule.requires.test(text)) continue;
    const opposite = rule.opposite?.test(text) ?? false;
    if (!rule.event.test(text) && !opposite) continue;
    return { topic: rule.topic, inverted: opposite !== negated };
  }
  return null;
}

const OUTCOME_WORDS: readonly [OutcomeOption, RegExp][] = [
  ['rolled_back', /\b(roll(ed|s)?[ -_]?back|rollback|undone)\b/],
  ['cancelled', /\bcancel\w*\b/],
  ['declined', /\b(declin\w*|reject\w*)\b/],
  ['failed', /\b(fail\w*|errors?)\b/],
  ['completed', /\b(complet\w*|succe\w*|fulfil\w*|deliver\w*|done|finished)\b/],
];

/** The outcome an option names ("Completed", "gets cancelled", "rolled back"), or null. */
export function outcomeOfOption(option: string): OutcomeOption | null {
  const text = option.toLowerCase();
  return OUTCOME_WORDS.find(([, words]) => words.test(text))?.[0] ?? null;
}

/** Whether an option means yes ("yes", "true", "likely") or no ("no", "false", "unlikely"), or neither. */
export function optionPolarity(option: string): 'yes' | 'no' | null {
  const text = option.trim().toLowerCase().replace(/[.!]$/, '');
  if (/^(yes|y|true|likely|it will|will)$/.test(text)) return 'yes';
  if (/^(no|n|false|unlikely|it won['’]t|won['’]t|will not)$/.test(text)) return 'no';
  return null;
}
