# The docproc image used by docker-compose.yml for the API and the worker.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install` only when `npm ci` refuses the lock for other platforms' optional binaries
# (see .ci/run); the lock pins the same tree either way.
RUN npm ci || npm install --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
