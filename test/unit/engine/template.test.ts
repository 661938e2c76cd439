// Tests for templates over {{order.*}} and {{vars.*}} (runtime contract section 5, approval title).
import { describe, expect, it } from 'vitest';
import { readPath, renderTemplate } from '../../../src/engine/template.js';

const scope = {
  order: { id: 'ord_1', total: 12345, input: { lines: [{ sku: 'SKU-1' }] } },
  vars: { fraud: { score: 95 }, tags: ['a', 'b'], flag: false, none: null },
};

describe('template', () => {
  it('spec Approval: the default title renders the order id', () => {
    expect(renderTemplate('Approve order {{order.id}}', scope)).toBe('Approve order ord_1');
  });

  it('contract 5: nested vars, array indexes and spaces inside braces are filled', () => {
    expect(renderTemplate('Risk {{ vars.fraud.score }} on {{order.input.lines.0.sku}}', scope)).toBe('Risk 95 on SKU-1');
  });

  it('contract 5: numbers, booleans and objects render as text; missing and null render empty', () => {
    expect(renderTemplate('{{order.total}}|{{vars.flag}}|{{vars.tags}}|{{vars.nope}}|{{vars.none}}', scope)).toBe(
      '12345|false|["a","b"]||',
    );
  });

  it('contract 5: a placeholder with a root other than order/vars stays verbatim', () => {
    expect(renderTemplate('Hello {{user.name}}', scope)).toBe('Hello {{user.name}}');
  });

  it('contract 5: inherited properties are not readable (no prototype leaks)', () => {
    expect(renderTemplate('{{vars.constructor}}{{order.__proto__}}{{vars.fraud.hasOwnProperty}}', scope)).toBe('');
    expect(readPath(scope, 'vars.toString')).toBeUndefined();
  });
});
