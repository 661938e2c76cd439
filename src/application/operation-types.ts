// The registry's operations by name, for the typed `call`: each operations file adds its definitions to `OperationModules`.
import type { z } from 'zod';
import type { AnyOperation } from './operation.js';

/**
 * One entry per operations file, added by declaration merging next to the definitions
 * (`declare module '../operation-types.js' { interface OperationModules { orders: ReturnType<typeof orderOperations> } }`),
 * so this file imports none of them (the registry would otherwise import every feature, and the chat tool the registry).
 * An entry is an operation, a list of them or a record of them by name; an operation whose name is not a literal (typed `AnyOperation`) is left out.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, one entry per operations file
export interface OperationModules {}

type Defined = OperationModules[keyof OperationModules] extends infer E
  ? E extends readonly (infer Op)[]
    ? Op
    : E extends AnyOperation
      ? E
      : E[keyof E]
  : never;
type Named<Op> = Op extends AnyOperation ? (string extends Op['name'] ? never : Op) : never;

/** Every typed operation by its name. */
export type OperationMap = { [Op in Named<Defined> as Op['name']]: Op };
export type OperationName = keyof OperationMap;
/** What `call(name, …)` accepts: the input schema's input (the registry parses it, coercions and defaults apply). */
export type OperationInput<N extends OperationName> = z.input<OperationMap[N]['input']>;
/** What `call(name, …)` answers: the type `run` produces (answered unparsed), which the output schema documents. */
export type OperationOutput<N extends OperationName> = Awaited<ReturnType<OperationMap[N]['run']>>;
