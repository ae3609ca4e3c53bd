# The server as a container image: `docker build -t ci-control-api .` (compose.yaml runs two behind nginx).

# Build: every dependency, then the server's bundle (tsdown, as `pnpm start` makes it).
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN npm install --global --no-audit --no-fund pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile --reporter=append-only && pnpm exec tsdown --log-level warn

# Run: the built tree, owned by root and read-only to the unprivileged `node` user that runs it.
FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 ARTIFACTS_DIR=/artifacts
WORKDIR /app
COPY --from=build /app /app
# The only places it writes: the embedded PostgreSQL's data (unused with DATABASE_URL) and artifacts.
RUN mkdir -p /app/.data /artifacts && chown node:node /app/.data /artifacts
USER node
EXPOSE 3000
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--heap-growing-percent=100", "apps/server/dist/main.mjs"]
