-- DropIndex
DROP INDEX "oauth_nonces_createdAt_idx";

-- CreateIndex
CREATE INDEX "oauth_nonces_timestamp_idx" ON "oauth_nonces"("timestamp");
