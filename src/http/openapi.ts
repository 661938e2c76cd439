// Builds the OpenAPI 3.1 document from the same RouteDefs and zod schemas the routes validate with.
import { z } from 'zod';
import type { RouteDef } from './route.js';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    issues: {
      type: 'array',
      items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

function parameters(route: RouteDef): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const name of route.path.match(/:([A-Za-z0-9_]+)/g) ?? [])
    out.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
  if (route.query) {
    const json = schemaOf(route.query, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(props))
      out.push({ name, in: 'query', required: required.has(name), schema });
  }
  for (const h of route.headers ?? [])
    out.push({ name: h.name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' } });
  return out;
}

/**
 * `get` + the path in PascalCase, path parameters as `By<Name>` (so `/channels/platform/orders`
 * and `/channels/{platform}/orders` differ); a repeat still gets a numeric suffix: ids are unique.
 */
function operationIdFor(method: string, path: string, used: Set<string>): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^\{(.+)\}$/.exec(part);
      const text = param ? `by-${param[1]}` : part;
      return text.replace(/(^|[_.-])([a-zA-Z0-9])/g, (_m, _s, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
    });
  const base = `${method}${words.join('')}`;
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}${n}`;
  used.add(id);
  return id;
}

/** The whole document; served at GET /api/v1/openapi.json. */
export function buildOpenApi(routes: readonly RouteDef[], info: { title: string; version: string; baseUrl: string }): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedIds = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses))
      responses[status] = r.schema
        ? { description: r.description, content: { 'application/json': { schema: schemaOf(r.schema, 'output') } } }
        : { description: r.description };
    responses.default = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    const op: Record<string, unknown> = {
      operationId: operationIdFor(route.method, path, usedIds),
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route),
      responses,
      security: route.access === 'public' || route.access === 'self' ? [] : [{ bearerAuth: [] }, { sessionCookie: [] }],
      'x-required-role': route.access,
    };
    if (route.body)
      op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } };
    if (route.rawBody)
      op.requestBody = {
        required: true,
        content: Object.fromEntries(
          route.rawBody.contentTypes.map((t) => [t, { schema: route.rawBody?.schema ? schemaOf(route.rawBody.schema, 'input') : { type: 'string' } }]),
        ),
      };
    (paths[path] ??= {})[route.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    servers: [{ url: info.baseUrl }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API token (svc_live_…) or the workspace password' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-svc_session' },
      },
    },
  };
}
