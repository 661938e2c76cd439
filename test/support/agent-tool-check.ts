// The rule of issue 30 on agent tools: each tool of contract 11 is a REST-bound operation or an adapter (agentTool) of one.
import type { AnyOperation } from '../../src/application/operation.js';
import { isAgentToolAdapter } from '../../src/application/agent-tool.js';
import { roleAtLeast } from '../../src/auth/roles.js';

/**
 * What breaks the rule, one line per finding ([] when every tool keeps it): a tool missing from the
 * registry; a tool neither bound to REST nor made by `agentTool`; an adapter whose base is not the
 * registered operation of its name, or not bound to REST; an adapter that lowers its base's role.
 */
export function agentToolFindings(operations: readonly AnyOperation[], restBound: ReadonlySet<string>, toolNames: readonly string[]): string[] {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const findings: string[] = [];
  for (const name of toolNames) {
    const tool = byName.get(name);
    if (!tool) {
      findings.push(`${name}: no registry operation`);
      continue;
    }
    if (restBound.has(name)) continue;
    const base = tool.adapterOf;
    if (!base || !isAgentToolAdapter(tool)) {
      findings.push(`${name}: neither bound to REST nor an adapter of a REST-bound operation (a twin with a run of its own)`);
      continue;
    }
    if (byName.get(base.name) !== base) findings.push(`${name}: adapts ${base.name}, which is not the operation the registry holds`);
    else if (!restBound.has(base.name)) findings.push(`${name}: adapts ${base.name}, which REST does not bind`);
    if (!roleAtLeast(tool.role, base.role)) findings.push(`${name}: role ${tool.role} below its base's ${base.role}`);
  }
  return findings;
}
