// Builds the OpenAPI 3.1 document from the routes: bound routes from their operations (ids, docs, examples), raw routes as declared (each names its operationId).
import { z } from 'zod';
import { isBoundRoute, type BoundRoute, type HttpRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

/** Named schemas (zod `.meta({ id })`) collected while converting, served under components.schemas. */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** JSON Schema of `schema`; named schemas inside it (and itself, when named) become `$ref`s to components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    // An input shape may differ from the output shape of the same name (defaults, coercions): it gets its own name.
    const rename: Record<string, string> = {};
    for (const [name, def] of Object.entries(defs)) {
      const existing = this.schemas[name];
      const target = existing && JSON.stringify(existing) !== JSON.stringify(rewriteRefs(def, {})) ? `${name}Input` : name;
      rename[name] = target;
    }
    for (const [name, def] of Object.entries(defs)) this.schemas[rename[name]] = rewriteRefs(def, rename);
    return rewriteRefs(json, rename);
  }
}

/** `#/$defs/X` references pointed at `#/components/schemas/<renamed X>`. */
function rewriteRefs(value: JsonSchema, rename: Record<string, string>): JsonSchema {
  return JSON.parse(
    JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_m, name: string) => JSON.stringify(`#/components/schemas/${rename[name] ?? name}`)),
  ) as JsonSchema;
}

const errorSchema: JsonSchema = {
  type: 'object',
  description: 'Every refusal: a message, and for invalid input one issue per invalid field',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    issues: {
      type: 'array',
      items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

/** Path, query and header parameters and the request body of a bound route, split from its operation's input. */
function boundRequest(route: BoundRoute, components: Components): { parameters: JsonSchema[]; requestBody?: JsonSchema } {
  const input = components.convert(route.input, 'input');
  const props = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required ?? []) as string[]);
  const param = (name: string, at: string) => {
    const { description, ...schema } = props[name] ?? { type: 'string' };
    return { name, in: at, required: at === 'path' || required.has(name), ...(description ? { description } : {}), schema };
  };
  const parameters = [
    ...route.parts.path.map((name) => param(name, 'path')),
    ...route.parts.query.map((name) => param(name, 'query')),
    ...route.parts.headers.map((h) => ({ name: h.name, in: 'header', required: false, description: h.description, schema: props[h.field] ?? { type: 'string' } })),
  ];
  if (route.parts.body.length === 0) return { parameters };
  const body: JsonSchema = { ...input, properties: Object.fromEntries(route.parts.body.map((f) => [f, props[f]])) };
  const bodyRequired = [...required].filter((f) => route.parts.body.includes(f));
  if (bodyRequired.length > 0) body.required = bodyRequired;
  else delete body.required;
  // Inline, not a component: generators read a component's defaults as always present, which suits answers, not requests.
  const media: JsonSchema = { schema: body };
  if (route.example !== undefined) media.example = route.example;
  return { parameters, requestBody: { required: true, content: { 'application/json': media } } };
}

function rawRequest(route: HttpRoute, components: Components): { parameters: JsonSchema[]; requestBody?: JsonSchema } {
  const parameters: JsonSchema[] = [];
  for (const name of route.path.match(/:([A-Za-z0-9_]+)/g) ?? [])
    parameters.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
  if (route.query) {
    const json = components.convert(route.query, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(props)) parameters.push({ name, in: 'query', required: required.has(name), schema });
  }
  for (const h of route.headers ?? [])
    parameters.push({ name: h.name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' } });
  let requestBody: JsonSchema | undefined;
  if (route.body) requestBody = { required: true, content: { 'application/json': { schema: components.convert(route.body, 'input') } } };
  if (route.rawBody) {
    const raw = route.rawBody;
    requestBody = {
      required: true,
      content: Object.fromEntries(raw.contentTypes.map((t) => [t, { schema: raw.schema ? components.convert(raw.schema, 'input') : { type: 'string' } }])),
    };
  }
  return { parameters, requestBody };
}

/** The whole document; served at GET /api/v1/openapi.json. */
export function buildOpenApi(routes: readonly HttpRoute[], info: { title: string; version: string; baseUrl: string }): JsonSchema {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  // Every output first, so a shape named for answers keeps its name and a differing input shape is the one renamed.
  const answers = routes.map((route) => {
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses))
      responses[status] = r.mediaType
        ? { description: r.description, content: { [r.mediaType]: { schema: { type: 'string' } } } }
        : r.schema
          ? { description: r.description, content: { 'application/json': { schema: components.convert(r.schema, 'output') } } }
          : { description: r.description };
    responses.default = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    return responses;
  });
  for (const [i, route] of routes.entries()) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const responses = answers[i];
    const request = isBoundRoute(route) ? boundRequest(route, components) : rawRequest(route, components);
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      parameters: request.parameters,
      responses,
      security: route.access === 'public' || route.access === 'self' ? [] : [{ bearerAuth: [] }, { sessionCookie: [] }],
      'x-required-role': route.access,
    };
    if (request.requestBody) op.requestBody = request.requestBody;
    (paths[path] ??= {})[route.method] = op;
  }
  const tags = [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: 'Durable order orchestration: orders run as flows compiled to state machines. Each operationId names one operation of the service, the same for every transport.' },
    servers: [{ url: info.baseUrl }],
    tags,
    paths,
    components: {
      schemas: { Error: errorSchema, ...components.schemas },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API token (svc_live_…) or the workspace password' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-svc_session' },
      },
    },
  };
}
