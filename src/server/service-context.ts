// The context every feature module receives, and what the caller of startService may ask for.
import type { Redis } from 'ioredis';
import type { Config } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { TestClockController } from '../engine/test-clock-controller.js';
import type { WorkspacePassword } from '../config/workspace-password.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { HealthRegistry } from '../platform/health.js';
import type { HttpRoute } from '../http/route.js';
import type { OperationRegistry } from '../application/operation-registry.js';
import type { Engine, EngineOptions } from '../engine/engine-module.js';
import type { StepPorts, StepStore } from '../engine/step-store.js';
import type { FlowDiagrams } from '../engine/flows/flow-diagrams.js';
import type { OauthServer } from '../oauth/oauth-server.js';
import type { IdentityDeps } from '../auth/identity-deps.js';
import type { AssistantConversations } from '../application/assistant/assistant-conversations.js';
import type { WebsocketRegistry } from '../transport/websocket-registry.js';
import type { CountedDurations, FlowStatsWorker } from '../orders/flow-stats-worker.js';

/** Everything the edges need, built once per process. */
export interface ServiceContext {
  config: Config;
  logger: Logger;
  db: Db;
  clock: Clock;
  /** The controllable clock when TEST_CLOCK=1. */
  testClock: TestClockController | null;
  secretKey: Buffer;
  workspacePassword: WorkspacePassword;
  redis: Redis | null;
  auth: Authenticator;
  health: HealthRegistry;
  /** Every operation a caller can perform; modules add theirs, and each transport binds them. */
  operations: OperationRegistry;
  /** HTTP routes that are not operations (health, openapi.json, channel adapters); the REST bindings join them at start. */
  routes: HttpRoute[];
  /** The public address (BASE_URL, else the address the server listens on). */
  baseUrl: () => string;
  /** People, sessions, throttling and audit, set by the identity module for the modules after it (connected apps). */
  identity?: IdentityDeps;
  /** Assistant conversations (A2A tasks per person and name), set by the A2A module for the assistant page. */
  conversations?: AssistantConversations;
  /** The authorization server of connected apps, set by the OAuth module (the A2A and MCP edges read its challenge). */
  oauth?: OauthServer;
  /** The drawings of published flow versions, set by the orders module (the dashboard draws with it). */
  flowDiagrams?: FlowDiagrams;
  /** The flow stats worker, set by the orders module (tests and the bench catch it up). */
  flowStatsWorker?: FlowStatsWorker;
  /** Set by the observability module: the step durations the flow stats worker counted, for `/metrics`. */
  observeStepDurations?: (counted: CountedDurations[]) => void;
  /** Set by the engine module (first in the module list); later modules build on it. */
  engine: Engine | null;
  /** What the caller of startService asked for (modules read their part). */
  startOptions: StartOptions;
  /** Every websocket surface's open sockets: the per-person and per-address caps and the idle close (contract section 8). */
  websockets: WebsocketRegistry;
}

export interface StartOptions {
  /** Extra `postgres -c` settings for an embedded server (tests turn fsync off). */
  embeddedSettings?: Record<string, string>;
  /** Listen at all (tests may use the app without a socket; default true). */
  listen?: boolean;
  /**
   * Engine options (built-in flows on/off, a call transport); `nodeTypes` are added to the built-in ones (tests' own),
   * and `ports` to the commerce ports (the ports tests' own node types use).
   */
  engine?: Partial<Omit<EngineOptions, 'ports' | 'subject'>> & { ports?: (store: StepStore) => Partial<StepPorts> };
  /** A2A options (how long a request follows its order, place_order start slots and their wait; tests change them). */
  a2a?: { followMs?: number; placeSlots?: number; placeWaitMs?: number };
  /** The batch worker's lease, poll and recovery periods (docs/batches.md; tests shorten them). */
  batches?: { leaseMs?: number; pollMs?: number; recoverMs?: number; creatorTtlMs?: number };
  /** Websocket idle close and ping interval (contract section 8: 5 minutes, pinged every 30 s); tests shorten them. */
  websockets?: { idleMs?: number; pingMs?: number };
}
