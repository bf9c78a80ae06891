# syntax=docker/dockerfile:1
# The site as a container: `sitegen start` serving the built dist/ with the form endpoints.
#   docker build -t vetorai-site .
#   docker run -p 8080:8080 -e PORT=8080 -v vetorai-data:/app/.data vetorai-site
# tests/unit/production-install.test.ts replays these steps without Docker (see its header).

# 1. build: every dependency, then the site into /app/dist.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY bin ./bin
COPY src ./src
# The CLI registers `sitegen init`, whose code lives beside the starter's files.
COPY starter ./starter
COPY content ./content
COPY public ./public
RUN node bin/sitegen.js build

# 2. deps: the production dependencies only. Installed on the full image, which has the compilers
# better-sqlite3 falls back to when no prebuilt binary can be downloaded, so the runtime image needs none.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev

# 3. runtime: Node, the production dependencies, the CLI's sources and the built dist/; no content/, no
# pages' sources, no dev tools.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
ENV PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY bin ./bin
COPY src/generator ./src/generator
COPY src/server ./src/server
COPY starter ./starter
COPY --from=build /app/dist ./dist
# bin/sitegen.js compiles the CLI on first use: done here, so the container starts at once and never
# writes outside its data folder.
RUN node bin/sitegen.js --version
# The SQLite file of the submissions (submissions.database in site.yaml): the one folder the server
# writes, owned by the unprivileged user, and a volume so that it outlives the container.
RUN mkdir -p .data && chown node:node .data
VOLUME /app/.data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) drains the requests in flight and closes the database within --shutdown-timeout,
# whose default ends inside docker stop's default grace period.
CMD ["node", "bin/sitegen.js", "start"]
