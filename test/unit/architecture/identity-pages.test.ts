// The identity pages bind to the registry's identity operations (issue 30): the router holds no role check, role constant or input rule of its own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../support/import-graph.js';

const ROUTER = 'web/identity/identity-router.ts';
const text = fs.readFileSync(path.resolve('src', ROUTER), 'utf8');

describe('the identity router decides no role and validates no input itself', () => {
  it('imports no role helper and none of the services the identity operations wrap', () => {
    const imports = importGraph(path.resolve('src')).get(ROUTER) ?? [];
    const forbidden = ['auth/roles.ts', 'auth/authorize.ts', 'auth/team-service.ts', 'auth/api-token-service.ts', 'auth/api-token-store.ts', 'auth/two-factor-policy.ts'];
    expect(imports.filter((file) => forbidden.includes(file))).toEqual([]);
    expect(imports).toContain('application/operation-registry.ts');
  });

  it('names no role and has no email pattern of its own', () => {
    expect(text.match(/'(viewer|approver|operator)'/g)).toBeNull();
    expect(text).not.toMatch(/roleAtLeast|roles\.includes/);
    expect(text).not.toMatch(/\/\^\[\^\\s@\]/);
  });
});
