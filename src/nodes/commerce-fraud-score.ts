// Node type `commerce.fraud_score`: scores the order's fraud risk; above the workspace threshold takes `high`.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { fraudScore } from '../domain/fraud-score.js';
import { convertMinor } from '../domain/fx.js';
import type { ShipTo } from '../domain/ship-to.js';

export const fraudScoreParams = z.strictObject({
  /** Overrides the workspace threshold (`fraud.approvalThreshold`) for this node. */
  threshold: z.number().min(0).max(100).optional(),
});

export type FraudScoreParams = z.infer<typeof fraudScoreParams>;

export const commerceFraudScore: NodeTypeDef<FraudScoreParams> = {
  type: 'commerce.fraud_score',
  kind: 'step',
  label: 'Fraud score',
  description:
    'Scores fraud risk 0-100 from documented order signals (value, guest, mail domain, PO box, bulk, currency mismatch); ' +
    '`meta.simulate: high_risk` forces 95. A score above the threshold takes `high` (usually to a review approval).',
  params: fraudScoreParams,
  branches: () => ['ok', 'high'],
  defaultBranch: 'ok',
  outputs: '{ score, threshold, high, signals: [{ code, points, detail }] }',
  vars: 'vars.fraud = { score, high }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const settings = await ctx.ports.settings.read();
    const lines = await ctx.ports.orderLines.read(order.id);
    const fxRate = Number(order.fxRate) || 1;
    const baseTotalUsdMinor = convertMinor(order.total, order.currency, 'USD', { USD: 1, [order.currency]: order.currency === 'USD' ? 1 : fxRate });
    const assessment = fraudScore({
      baseTotalUsdMinor,
      currency: order.currency,
      customerId: order.customerId,
      contactEmail: typeof order.contactEmail === 'string' ? order.contactEmail : null,
      shipTo: (order.meta.shipTo as ShipTo | undefined) ?? null,
      lines,
      meta: order.meta,
    });
    const threshold = ctx.params.threshold ?? settings.fraudThreshold;
    const high = assessment.score > threshold;
    return {
      branch: high ? 'high' : 'ok',
      output: { score: assessment.score, threshold, high, signals: assessment.signals },
      vars: { fraud: { score: assessment.score, high } },
      summary: `Fraud score ${assessment.score} (threshold ${threshold})${high ? ': needs review' : ''}`,
    };
  },
};
