// The agent card (spec "Agent card"): 1.0 with A2A-Version 1.0, 0.3 without; the skills are the agents' tools.
import { AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { AnyOperation } from '../application/operation.js';

export const A2A_PATH = '/a2a';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

export interface CardInfo {
  name: string;
  description: string;
  version: string;
  baseUrl: string;
  /** The agents' tools (registry operations with audience `agents`). */
  tools: AnyOperation[];
}

const INPUT_MODES = ['text/plain', 'application/json'];
const OUTPUT_MODES = ['text/plain', 'application/json'];

/** The roles, as the OAuth scopes an app may be granted (one of them, chosen by the person). */
const ROLE_SCOPES: Record<string, string> = {
  viewer: 'Read orders, products and flows',
  approver: 'Also decide approvals',
  operator: 'Also place, cancel and drive orders and publish flows',
};

function skillOf(op: AnyOperation): AgentSkill {
  const request = op.name === 'chat' ? 'Send text parts' : `Send a data part { "skill": "${op.name}", "input": { ... } }`;
  const example: unknown = op.example;
  return {
    id: op.name,
    name: op.name,
    description: `${op.summary}. ${op.description} Needs the ${op.role} role (${op.effect}). ${request}.`,
    tags: [op.feature, op.effect, op.role],
    examples: example ? [JSON.stringify(op.name === 'chat' ? (example as { text: string }).text : { skill: op.name, input: example })] : [],
    inputModes: op.name === 'chat' ? ['text/plain'] : ['application/json'],
    outputModes: OUTPUT_MODES,
    securityRequirements: [],
  };
}

/** The 1.0 card: one JSON-RPC interface at /a2a declared at 1.0 and 0.3, streaming and push, bearer auth. */
export function agentCard(info: CardInfo): AgentCard {
  const url = `${info.baseUrl}${A2A_PATH}`;
  return {
    name: info.name,
    description: info.description,
    supportedInterfaces: duplicateInterfacesForLegacy([{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }], ['JSONRPC']),
    provider: undefined,
    version: info.version,
    documentationUrl: `${info.baseUrl}/api/v1/openapi.json`,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: 'An API token (svc_live_…) or the workspace password as a bearer token', scheme: 'Bearer', bearerFormat: '' },
        },
      },
      oauth: {
        scheme: {
          $case: 'oauth2SecurityScheme',
          value: {
            description: 'A connected app: a person signs in and grants a role (authorization code with PKCE, resource BASE_URL/a2a)',
            flows: {
              flow: {
                $case: 'authorizationCode',
                value: { authorizationUrl: `${info.baseUrl}/oauth/authorize`, tokenUrl: `${info.baseUrl}/oauth/token`, refreshUrl: `${info.baseUrl}/oauth/token`, scopes: ROLE_SCOPES, pkceRequired: true },
              },
            },
            oauth2MetadataUrl: `${info.baseUrl}/.well-known/oauth-authorization-server`,
          },
        },
      },
    },
    // Either credential: an API token (or the workspace password), or a connected app's token.
    securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { oauth: { list: [] } } }],
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: info.tools.map(skillOf),
    signatures: [],
    iconUrl: undefined,
  };
}

/** The card as 1.0 ProtoJSON. */
export function agentCardJson(info: CardInfo): Record<string, unknown> {
  return AgentCard.toJSON(agentCard(info)) as Record<string, unknown>;
}

/**
 * The 0.3 card: top-level `url`, `protocolVersion` and `preferredTransport`, OpenAPI-style
 * security schemes, the 1.0 interfaces embedded as `supportedInterfaces` (what the SDK's own 0.3
 * card router serves; its translator is not exported, so the shape is written here).
 */
export function legacyAgentCardJson(info: CardInfo): Record<string, unknown> {
  const v1 = agentCardJson(info);
  const url = `${info.baseUrl}${A2A_PATH}`;
  return {
    protocolVersion: '0.3.0',
    name: info.name,
    description: info.description,
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    version: info.version,
    documentationUrl: `${info.baseUrl}/api/v1/openapi.json`,
    capabilities: { streaming: true, pushNotifications: true, stateTransitionHistory: false },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An API token (svc_live_…) or the workspace password as a bearer token' },
      oauth: {
        type: 'oauth2',
        description: 'A connected app: a person signs in and grants a role (authorization code with PKCE, resource BASE_URL/a2a)',
        flows: { authorizationCode: { authorizationUrl: `${info.baseUrl}/oauth/authorize`, tokenUrl: `${info.baseUrl}/oauth/token`, refreshUrl: `${info.baseUrl}/oauth/token`, scopes: ROLE_SCOPES } },
        oauth2MetadataUrl: `${info.baseUrl}/.well-known/oauth-authorization-server`,
      },
    },
    security: [{ bearer: [] }, { oauth: [] }],
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: info.tools.map((op) => {
      const s = skillOf(op);
      return { id: s.id, name: s.name, description: s.description, tags: s.tags, examples: s.examples, inputModes: s.inputModes, outputModes: s.outputModes };
    }),
    supportsAuthenticatedExtendedCard: false,
    supportedInterfaces: v1.supportedInterfaces,
  };
}
