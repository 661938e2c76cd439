// Node type `ai.extract_order`: turns the order's documentText (PO, email) into lines when it has none.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { toMinor } from '../domain/money.js';
import { parseOrderText, type ParsedLine } from '../domain/order-text-parser.js';

export const extractOrderParams = z.strictObject({
  /** Ask the language-model port (when the deployment configures one) instead of the deterministic parser. */
  useModel: z.boolean().default(false),
});

export type ExtractOrderParams = z.infer<typeof extractOrderParams>;

export const aiExtractOrder: NodeTypeDef<ExtractOrderParams> = {
  type: 'ai.extract_order',
  kind: 'step',
  label: 'Extract order lines',
  description:
    'When the order has no lines, reads input.documentText (a PO or an email) into lines with a deterministic parser ' +
    '(tables with SKU/qty headers, "SKU: X Qty: n", "2 x SKU", "SKU x 2", optional unit prices). With useModel and a ' +
    'configured model port the model reads it instead (off by default). Orders that already have lines pass unchanged; ' +
    'a document with no readable line fails without retry.',
  params: extractOrderParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ method: "input" | "parser" | <model name>, lines: [{ sku, qty, unitPrice, name }], skipped }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const { orderLines, documents, catalogue } = ctx.ports;
    const existing = await orderLines.read(order.id, { includeDropped: true });
    if (existing.length > 0)
      return { branch: 'ok', output: { method: 'input', lines: [], skipped: [] }, summary: `Order has ${existing.length} line(s); nothing to extract` };
    // Order creation keeps documentText as the order's inbound document; an input that still carries it works too.
    const stored = await documents.inboundText(order.id);
    const text = stored ?? order.input.documentText;
    if (typeof text !== 'string' || text.trim() === '') throw new TerminalError('The order has no lines and no documentText to read them from');
    const knownSkus = await catalogue.skus();
    // The model reads the document only when the step asks for it and the deployment configured one (else null).
    const read = ctx.params.useModel ? await ctx.ports.orderExtractor.extract(text, { knownSkus, currency: order.currency }) : null;
    let method = 'parser';
    let lines: ParsedLine[];
    let skipped: number[] = [];
    if (read) {
      lines = read.lines;
      method = read.model;
    } else ({ lines, skipped } = parseOrderText(text, knownSkus));
    if (lines.length === 0) throw new TerminalError('No order lines found in the document');
    await orderLines.append(
      order.id,
      lines.map((l) => ({
        sku: l.sku.slice(0, 100),
        name: l.name ?? null,
        qty: l.qty,
        unitPriceMinor: l.unitPrice === undefined ? null : toMinor(l.unitPrice, order.currency),
      })),
    );
    return {
      branch: 'ok',
      output: { method, lines: lines.map((l) => ({ sku: l.sku, qty: l.qty, unitPrice: l.unitPrice ?? null, name: l.name ?? null })), skipped },
      summary: `Read ${lines.length} line(s) from the document (${method})`,
    };
  },
};
