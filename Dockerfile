# The bot as a service: `node dist/main.js` on a slim Node 24 (LTS) image, production dependencies only, as
# the unprivileged `node` user. docs/deploy.md explains how to run it (compose.yaml, Kubernetes).
# No secret is baked in: Slack tokens, VAULT_KEY and DATABASE_URL come from the environment at run time.

# Any Debian-based Node 24 image with npm and a `node` user (uid 1000) will do; the official one by default.
# No `# syntax=` line: the builder's own Dockerfile frontend suffices, so building pulls nothing beyond it.
ARG NODE_IMAGE=node:24-bookworm-slim

# Compiles src/ and installs the production dependencies. better-sqlite3 is a native module: its
# install script downloads a prebuilt binary, and builds one with these tools when none fits.
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
# The heap cap: without one, V8 sizes its heap from the host's memory and lets garbage pile up (peak
# RSS 207-250 MB at 10,000 active watches, against 163-167 MB with it; bench/memory runs with it). The
# heap in use stays under 70 MB at that load. Node 24's V8 also lets each of the young generation's
# semi-spaces grow to 64 MB (Node 20's stopped at 16): at 10,000 watches RSS then reached 310 MB.
# The semi-space is held at 8 MB: with the allocator settings below, RSS at 10,000 watches measured
# 183-192 MB with 8 against 198-205 MB with 16 (three runs each, alternating), while CPU per /ps list
# under the ack benchmark's burst stayed within its noise (2.99-3.32 ms against 2.99-3.08). Since each
# person's poll comes at a moment of its own in the interval rather than all at the tick, the same load
# peaks at 146 MB (bench/RESULTS.md). A larger deployment sets its own NODE_OPTIONS.
# glibc's allocator holds the rest of the memory outside V8's heap: it gives each thread that allocates
# at once an arena of its own (V8's collector and compiler threads, libuv's pool), and an arena returns
# freed memory only from its top; after a large block is freed it also raises its mmap threshold, so
# later response bodies fragment the arenas instead of being unmapped. Two arenas, and a fixed 128 KiB
# threshold for both mmap and trim: RSS at 10,000 watches 186-206 MB in six runs, against 212-225 MB in
# seven without, with 16 MB semi-spaces (bench/memory runs with the image's environment).
ENV NODE_ENV=production \
  PORT=3000 \
  NODE_OPTIONS="--max-old-space-size=384 --max-semi-space-size=8" \
  MALLOC_ARENA_MAX=2 \
  MALLOC_MMAP_THRESHOLD_=131072 \
  MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
# Root owns the code, so the process cannot rewrite it; it may write only data/ (the SQLite default,
# DATABASE_URL=sqlite:data/bot.db, for a single replica with a volume mounted there).
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
# Liveness, not readiness: Docker (and Swarm, which restarts unhealthy containers) should not act on
# a database outage, which a restart cannot cure. Load balancers probe GET /readyz themselves.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself, drains (GET /readyz answers 503 at once) and
# exits 0. It installs its own SIGTERM/SIGINT handlers and starts no children, so it needs no init.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/main.js"]
