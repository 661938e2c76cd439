// The frozen service configuration: environment + workspace file, parsed once at start.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type z } from 'zod';
import { envSchema, type EnvConfig } from './env-schema.js';
import { workspaceSchema, type Workspace } from './workspace-schema.js';

export interface Config {
  readonly env: EnvConfig;
  /** Where the HTTP server binds and what it calls itself in links. */
  readonly dataDir: string;
  readonly workspace: Workspace;
  /** Where the workspace came from: a file path, or 'demo' for the built-in one. */
  readonly workspaceSource: string;
}

/** A configuration problem: the service refuses to start with this one-line message. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const demoWorkspacePath = fileURLToPath(new URL('./demo-workspace.json', import.meta.url));

/** Formats zod issues as `field: message; field: message` with dotted paths. */
export function formatIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** Parses a workspace JSON text; throws ConfigError naming the field on a problem. */
export function parseWorkspace(text: string, source: string): Workspace {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`workspace file ${source} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = workspaceSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`workspace file ${source} is invalid: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/** Reads environment and workspace file into one frozen Config, or throws ConfigError. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsedEnv = envSchema.safeParse(
    Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, environment[k] === '' ? undefined : environment[k]])),
  );
  if (!parsedEnv.success) throw new ConfigError(`invalid environment: ${formatIssues(parsedEnv.error)}`);
  const env = parsedEnv.data;
  const workspaceFile = env.WORKSPACE_FILE ? path.resolve(env.WORKSPACE_FILE) : demoWorkspacePath;
  let text: string;
  try {
    text = readFileSync(workspaceFile, 'utf8');
  } catch (err) {
    throw new ConfigError(`WORKSPACE_FILE: cannot read ${workspaceFile}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const workspace = parseWorkspace(text, env.WORKSPACE_FILE ? workspaceFile : 'demo');
  return deepFreeze({
    env,
    dataDir: path.resolve(env.DATA_DIR),
    workspace,
    workspaceSource: env.WORKSPACE_FILE ? workspaceFile : 'demo',
  });
}
