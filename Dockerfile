FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
EXPOSE 4000
ENV HOST=0.0.0.0 PORT=4000
CMD ["npx", "tsx", "src/main.ts"]
