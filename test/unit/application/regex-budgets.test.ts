// Rule (security review 2, M-1): every grammar and parser of caller text stays linear or bounded. Each runs on
// adversarial inputs of the largest size a caller may send (4,000 characters of chat, 50,000 of documentText) built
// for the shapes regular expressions backtrack on, and each call stays within a wide CPU budget.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { instructionOf } from '../../../src/application/assistant/instruction-text.js';
import { matchIntent } from '../../../src/application/assistant/chat-intents.js';
import { DATE_WINDOW_CHARS, readDateBounds } from '../../../src/application/assistant/question-dates.js';
import { readSlots } from '../../../src/application/assistant/question-slots.js';
import { proposeFlowChange } from '../../../src/application/flow-change/flow-change-proposal.js';
import { parseFlowInstruction } from '../../../src/application/flow-change/parse-flow-instruction.js';
import { mapX12850 } from '../../../src/channels/x12/x12-850-mapper.js';
import { parseOrderText } from '../../../src/domain/order-text-parser.js';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { commerceNodeTypes } from '../../../src/nodes/commerce-node-types.js';
import { searchCondition } from '../../../src/orders/order-search.js';
import { envelope, interchange, po850, transaction } from '../channels/channel-fixtures.js';

/**
 * CPU time one call may take. Every parser here answers these inputs in a few tens of ms; before the fixes the chat
 * grammar took 6-11 s, chrono 0.4 s, the flow-change step matcher 0.35 s and the order text parser seconds (50,000
 * characters) on them. Measured as this process's CPU time, so a busy machine does not make it flake.
 */
const BUDGET_MS = 200;
const CHAT_CHARS = 4_000;
const DOCUMENT_CHARS = 50_000;

/** `prefix`, then `body` repeated, then `suffix`: exactly `size` characters (the suffix makes a match fail late). */
function fill(prefix: string, body: string, suffix: string, size = CHAT_CHARS): string {
  const room = size - prefix.length - suffix.length;
  return prefix + body.repeat(Math.ceil(room / body.length)).slice(0, room) + suffix;
}

/** Every body after the first prefix, and every prefix with the first few bodies, each with every suffix. */
function shapes(prefixes: string[], bodies: string[], suffixes: string[], size = CHAT_CHARS): string[] {
  const out = new Set<string>();
  for (const suffix of suffixes) {
    for (const body of bodies) out.add(fill(prefixes[0]!, body, suffix, size));
    for (const prefix of prefixes) for (const body of bodies.slice(0, 6)) out.add(fill(prefix, body, suffix, size));
  }
  return [...out];
}

/** Shapes regular expressions backtrack on: overlapping whitespace, digit, code and word runs, unicode, separators. */
const GENERIC = [' ', ' in', '1', 'a', 'x1', 'a-', 'A-', 'a.', 'a_', '$', '-', '.', ',', '1,', '1.', '\t', ' \u00a0', 'é', '日', '🙂', '()', '((a)', '*', '~'];
const SUFFIXES = ['!', '_', ' flow!'];

function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  try {
    run();
  } catch {
    /* a refusal is an answer too */
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** Runs `parse` on every input (after one warm-up call) and returns those over budget with their cost. */
function overBudget(parse: (text: string) => unknown, inputs: string[]): string[] {
  cpuMs(() => parse('warm up'));
  const slow: string[] = [];
  for (const text of inputs) {
    const ms = cpuMs(() => parse(text));
    if (ms > BUDGET_MS) slow.push(`${ms.toFixed(0)} ms: ${JSON.stringify(text.slice(0, 40))}…${JSON.stringify(text.slice(-12))} (${text.length} chars)`);
  }
  return slow;
}

const NOW = Date.UTC(2026, 10, 27, 9);
const FLOWS = Array.from({ length: 20 }, (_, i) => ({ id: `flow-${i}`, name: `Flow number ${i}` })).concat([
  { id: 'tpl-storefront-order', name: 'Storefront order' },
  { id: 'tpl-marketplace-order', name: 'Marketplace order' },
]);

describe('chat grammar on 4,000 adversarial characters', () => {
  /** What answerQuestion does with a question before it calls any tool. */
  const chat = (text: string) => {
    const slots = readSlots(text, { now: NOW, flows: FLOWS });
    matchIntent(text, slots, true);
    instructionOf(text);
  };
  const prefixes = ['', 'add approval tpl-storefront-order', 'add an approval before capture', 'how many orders ', 'orders between ', 'orders over $', 'mark ord_1 ', 'publish the ', 'since ', 'show flow ', 'ord_'];
  const bodies = [
    ...GENERIC,
    ' in' + ' '.repeat(650),
    ' in the',
    ' flow',
    ' to x',
    ' of the storefront',
    ' between 1 and',
    ' over',
    ' mark',
    ' as',
    ' monday',
    ' 3 d',
    ' ord_1',
    ' tpl-',
    ' a.b',
    ' MUG-',
    ' the storefront order',
    ' stock review',
    ' via the',
    ' how many',
  ];

  it('the M-1 probe (" in" and 650 spaces, six times) is answered within budget', () => {
    const probe = 'add approval tpl-storefront-order' + (' in' + ' '.repeat(650)).repeat(6) + '!';
    expect(overBudget(chat, [probe])).toEqual([]);
  });

  it('every intent and slot reader stays within budget', () => {
    expect(overBudget(chat, shapes(prefixes, bodies, SUFFIXES))).toEqual([]);
  });

  it('the flow name still leaves the instruction: "... in the storefront flow" goes, the edit stays', () => {
    expect(instructionOf('add an approval before capture in the storefront flow')).toBe('add an approval before capture');
    expect(instructionOf('remove the fraud check from the storefront flow please')).toBe('remove the fraud check from the storefront flow please');
    expect(instructionOf('send rejected orders to cancel in the tpl-storefront-order flow')).toBe('send rejected orders to cancel');
    expect(instructionOf('wait 3 days for sellers in the marketplace order flow')).toBe('wait 3 days for sellers');
    expect(instructionOf('add   an approval\tbefore capture')).toBe('add an approval before capture');
  });
});

describe('dates (chrono-node) on 4,000 adversarial characters', () => {
  const dateBodies = [' 3 d', ' 3', ' 3 days ago', ' monday', ' nov 1', ' 1/2', ' 2026-11-01', ' 3pm', ' since yesterday', ' 1-2', ' at 3', ' 12:00', ' last week', ...GENERIC];

  it('chrono reads only the first characters of a question, so its cost is bounded', () => {
    expect(overBudget((text) => readDateBounds(text, NOW), shapes(['', 'orders since ', 'before '], dateBodies, ['!', ' yesterday']))).toEqual([]);
  });

  it(`a date phrase within the first ${DATE_WINDOW_CHARS} characters is read; one further on is not`, () => {
    expect(readDateBounds(`${'x '.repeat(100)}orders since yesterday`, NOW).after).toBe(Date.UTC(2026, 10, 26));
    expect(readDateBounds(`${'x '.repeat(DATE_WINDOW_CHARS)}orders since yesterday`, NOW)).toEqual({});
  });
});

describe('flow-change instructions on 4,000 adversarial characters', () => {
  const catalogue = createCatalogue([...genericNodeTypes, ...commerceNodeTypes]);
  const draft = JSON.parse(fs.readFileSync('machines/tpl-storefront-order.json', 'utf8')).graph;
  const prefixes = ['', 'add x', 'set ', 'make the approval ', 'send ', 'send rejected ', 'connect ', 'on rejected ', 'when ', 'give ', 'wait ', 'remove ', 'notify ', 'please '];
  const bodies = [
    ...GENERIC,
    ' to',
    ' x to',
    ' before x',
    ' after',
    ' of x',
    ' at',
    ' rejected',
    ' on rejection',
    ', ',
    ' then',
    ' 3 days',
    ' 3 d',
    ' =',
    ' into',
    ' be',
    ' it is',
    ' sellers',
    ' for the',
    ' payment.received',
    ' a.b.c',
    ' timeout',
    ' in the storefront',
    'x1x1',
  ];
  const inputs = shapes(prefixes, bodies, ['!', '_', ' flow']);

  it('the grammar reads or refuses each within budget', () => {
    expect(overBudget(parseFlowInstruction, inputs)).toEqual([]);
  });

  it('proposing the change (step and type matching included) answers each within budget', () => {
    expect(overBudget((text) => proposeFlowChange(draft, text, catalogue), inputs)).toEqual([]);
  });
});

describe('EDI X12 850 with adversarial element values', () => {
  const pad = (body: string) => fill('', body, '', 3_600);
  const interchanges = [' ', '1', '1.', '.1', '+1', '-', 'a', 'A-', '2024011', '\u0001', '~', '*', '>', ':', 'é'].flatMap((body) => [
    interchange(envelope([transaction('0001', po850({ beg: `BEG*00*SA*${pad(body)}**20240115` }))])),
    interchange(envelope([transaction('0001', po850({ lines: [`PO1*1*${pad(body)}*EA*9.5**VP*ABC-1`] }))])),
    interchange(envelope([transaction('0001', po850({ lines: [`PO1*1*2*EA*${pad(body)}**VP*ABC-1`] }))])),
    interchange(envelope([transaction('0001', po850({ header: [`DTM*002*${pad(body)}`, `REF*ZZ*${pad(body)}`] }))])),
    interchange(envelope([transaction('0001', po850({ ctt: `CTT*${pad(body)}` }))])),
    `ISA*00*${pad(body)}`,
  ]);

  it('the mapper reads or refuses each within budget', () => {
    expect(overBudget((text) => mapX12850(text), interchanges)).toEqual([]);
  });
});

describe('order text (documentText) parser on adversarial lines', () => {
  const prefixes = ['', '2 x ', 'qty ', 'SKU: MUG-1 Qty', 'MUG-1', '- 2 ', 'Please send 4 x MUG-1 and ', 'price'];
  const bodies = [...GENERIC, ' x', ' 1 x', ' x 1', ' pcs', ' units of', ' each', ' @', ' at', '1 ', ' qty', ' sku:', '|', ';', 'Ax', '1x', ' -'];

  it('4,000-character lines are read within budget', () => {
    expect(overBudget((text) => parseOrderText(text, ['MUG-1']), shapes(prefixes, bodies, ['!', '_', ' x', '\n2 x MUG-1']))).toEqual([]);
  });

  it('a 50,000-character document (the documentText limit) in one line is read within budget', () => {
    const inputs = ['1', 'a', 'x1', 'a-', '1,', ' ', ' 1', 'A1-'].flatMap((body) => [fill('', body, '!', DOCUMENT_CHARS), fill('2 x ', body, ' x', DOCUMENT_CHARS), fill('qty', body, '_', DOCUMENT_CHARS)]);
    expect(overBudget((text) => parseOrderText(text, ['MUG-1']), inputs)).toEqual([]);
  });

  it('bounding runs keeps every layout: a long run of code characters is no SKU, the lines around it still are', () => {
    const text = `2 x MUG-1 @ 12.50\n${'A1-'.repeat(100)} x 3\nTEE-BLK-M x 3\nPlease send 4 x MUG-1 and 2 pcs TEE-BLK-M.`;
    expect(parseOrderText(text, ['MUG-1', 'TEE-BLK-M']).lines).toEqual([
      { sku: 'MUG-1', qty: 2, unitPrice: 12.5 },
      { sku: 'TEE-BLK-M', qty: 3 },
      { sku: 'MUG-1', qty: 4 },
      { sku: 'TEE-BLK-M', qty: 2 },
    ]);
  });
});

describe('order search on 4,000 adversarial characters', () => {
  it('the search needle is built within budget', () => {
    const inputs = [...GENERIC, '%', '\\', '_%'].map((body) => fill('', body, '!'));
    expect(overBudget((q) => [searchCondition('substring', q, 1), searchCondition('prefix', q, 1)], inputs)).toEqual([]);
  });
});
