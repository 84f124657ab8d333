# syntax=docker/dockerfile:1
# Build: the whole workspace (better-sqlite3 compiles natively here).
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/* \
 && npm install -g pnpm@10.34.9
WORKDIR /src
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
COPY shared-types/package.json shared-types/
COPY step-detector/package.json step-detector/
COPY prize-draw/package.json prize-draw/
COPY client-store/package.json client-store/
COPY api/package.json api/
COPY web/package.json web/
COPY sw/package.json sw/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm run build \
 && pnpm --filter @charity-steps/api deploy --legacy --prod /out/api \
 && cp -r web/dist /out/web

# Run: the API with its production dependencies and the built PWA, as an unprivileged user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data WEB_DIST_DIR=/app/web
WORKDIR /app
COPY --from=build /out/api ./api
COPY --from=build /out/web ./web
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The flags of scripts/api-node-flags.json (a capped V8 heap and a small young generation keep
# resident memory flat and low).
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=8", "api/dist/server.js"]
