// The words people use for a node's branches ("rejection", "timed out", "high risk") mapped to branch names.

/** Each entry: a pattern over the whole phrase and the branch names it may mean, most likely first. */
const BRANCH_WORDS: [RegExp, readonly string[]][] = [
  [/^(reject|rejects|rejected|rejection|refused|refusal|denied|denial)$/, ['rejected']],
  [/^(approve|approves|approved|approval|accepted by the approver)$/, ['approved']],
  [/^(time ?out|timeouts?|timed ?out|times ?out|expiry|expired|expires|escalat(e|ed|es|ion)|no answer|no decision)$/, ['escalated', 'timeout']],
  [/^(fail|fails|failed|failure|error|errors)$/, ['failed']],
  [/^(high|high risk|high score|high fraud score|risky|suspicious|fraudulent)$/, ['high']],
  [/^(violation|violates|violated|policy violation|breach|breaches)$/, ['violation']],
  [/^(accept|accepts|accepted|acceptance)$/, ['accepted']],
  [/^(partial|partly accepted|partially accepted)$/, ['partial']],
  [/^(pending|still pending)$/, ['pending']],
  [/^(awaiting|waiting)$/, ['awaiting']],
  [/^(exhausted|out of passes|too many passes)$/, ['exhausted']],
  [/^(received|arrives|arrived|arrival|delivered)$/, ['received']],
  [/^(ok|success|succeeds|succeeded|successful)$/, ['ok']],
  [/^(true|yes)$/, ['true']],
  [/^(false|no)$/, ['false']],
];

/** A regex source matching any branch phrase (for the grammar's patterns). */
export const BRANCH_PHRASE_SOURCE = BRANCH_WORDS.map(([re]) => re.source.slice(1, -1)).join('|');

/** The branch names a phrase may mean (most likely first), or null when it names no branch. */
export function branchNamesFor(phrase: string): readonly string[] | null {
  const text = phrase.trim().toLowerCase().replace(/\s+/g, ' ');
  // A branch name itself always counts ("the escalated branch").
  for (const [re, names] of BRANCH_WORDS) if (re.test(text) || names.includes(text)) return names;
  return null;
}

/** The branches a node takes when all goes well, in order of preference (the one an inserted step continues on). */
export const PRIMARY_BRANCHES: readonly string[] = ['ok', 'approved', 'received', 'accepted', 'next', 'true'];
