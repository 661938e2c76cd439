// The registry typed by operation name (issue 30): `tsc --noEmit -p .` checks this file, so a wrong input that stops failing to compile fails CI.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { OperationRegistry } from '../../../src/application/operation-registry.js';
import type { OperationInput, OperationName, OperationOutput } from '../../../src/application/operation-types.js';
import type { Principal } from '../../../src/auth/principal.js';
import type { OrderView } from '../../../src/orders/order-view.js';
import type { ProductStock } from '../../../src/commerce/product-stock.js';

/** Never run: tsc checks these lines (each `@ts-expect-error` must keep erroring), vitest only loads the file. */
function typedCalls(registry: OperationRegistry, caller: Principal): void {
  const call = { ip: null };
  // The answer is the operation's: startOrder answers an order id, getOrder the order's live view.
  expectTypeOf(registry.call('startOrder', caller, { flowId: 'tpl-storefront-order', input: { model: 'b2c' } }, call)).resolves.toHaveProperty('orderId').toEqualTypeOf<string>();
  expectTypeOf(registry.call('getOrder', caller, { id: 'ord_1' }, call)).resolves.toEqualTypeOf<OrderView>();
  // @ts-expect-error a wrong input does not compile: flowId is a string
  void registry.call('startOrder', caller, { flowId: 1, input: { model: 'b2c' } }, call);
  // @ts-expect-error a missing required field does not compile: addPerson needs email and role
  void registry.call('addPerson', caller, { name: 'Ada' }, call);
  // @ts-expect-error an unknown field does not compile (revokeApiToken takes the id only)
  void registry.call('revokeApiToken', caller, { id: 'tok_1', reason: 'x' }, call);
  // @ts-expect-error an unknown operation name does not compile
  void registry.call('startOder', caller, {}, call);
  // A form's raw values go through callRaw: the name is still checked and the answer still typed.
  expectTypeOf(registry.callRaw('addPerson', caller, { email: 'x', role: 'nobody' }, call)).resolves.toHaveProperty('temporaryPassword').toEqualTypeOf<string>();
  // @ts-expect-error callRaw checks the name too
  void registry.callRaw('addPersons', caller, {}, call);
}

describe('OperationRegistry.call is typed by operation name', () => {
  it('every operation defined with defineOperation is in the map under its literal name, none under a plain string', () => {
    expectTypeOf<'startOrder'>().toMatchTypeOf<OperationName>();
    expectTypeOf<'addPerson'>().toMatchTypeOf<OperationName>();
    expectTypeOf<'list_flows'>().toMatchTypeOf<OperationName>();
    // An operation typed as AnyOperation would add an index signature and let any name through.
    expectTypeOf<string>().not.toMatchTypeOf<OperationName>();
    expectTypeOf<OperationInput<'updatePerson'>>().toHaveProperty('id').toEqualTypeOf<string>();
    // The back office's products are the commerce type, not a copy declared in the page (review D18).
    expectTypeOf<OperationOutput<'listProducts'>['products'][number]>().toEqualTypeOf<ProductStock>();
    expect(typeof typedCalls).toBe('function');
  });
});
