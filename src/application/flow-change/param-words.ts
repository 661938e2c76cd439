// The words people use for node params ("timeout", "approver", "max passes"), mapped to param keys of the catalogue.

/** Per param key, the phrases that name it besides the key itself in words. */
export const PARAM_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  timeout: ['timeout', 'time out', 'time limit', 'deadline', 'wait'],
  duration: ['duration', 'delay', 'length', 'wait'],
  maxPasses: ['max passes', 'maximum passes', 'passes', 'pass limit', 'max pass'],
  assignee: ['assignee', 'approver', 'owner', 'assigned team'],
  to: ['audience', 'recipient', 'recipients'],
  termsDays: ['terms', 'payment terms', 'terms days'],
  maxUsd: ['max usd', 'limit', 'max total', 'threshold'],
  title: ['title'],
  event: ['event', 'event name'],
  subject: ['subject'],
  message: ['message', 'text'],
  reason: ['reason'],
  outcome: ['outcome'],
  supplier: ['supplier'],
  method: ['method'],
  service: ['service', 'shipping service'],
  prefer: ['preference', 'prefer'],
  mode: ['mode'],
  rule: ['rule'],
};

/** Every param phrase, longest first (so "max passes" is found before "passes"). */
export const PARAM_PHRASES: readonly string[] = [...new Set(Object.values(PARAM_SYNONYMS).flat())].sort((a, b) => b.length - a.length);
