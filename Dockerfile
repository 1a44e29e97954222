FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs
EXPOSE 4000
ENV HOST=0.0.0.0 PORT=4000
CMD ["node", "--enable-source-maps", "dist/src/main.mjs"]
