-- CreateEnum
CREATE TYPE "AppClientType" AS ENUM ('CONFIDENTIAL', 'PUBLIC');

-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "clientType" "AppClientType" NOT NULL DEFAULT 'CONFIDENTIAL';

-- CreateTable
CREATE TABLE "oauth2_records" (
    "kind" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "userId" INTEGER,
    "appId" INTEGER,
    "expiresAt" TIMESTAMP(3),
    "consumedAt" TIMESTAMP(3),

    CONSTRAINT "oauth2_records_pkey" PRIMARY KEY ("kind","id")
);

-- CreateTable
CREATE TABLE "oauth2_signing_keys" (
    "id" SERIAL NOT NULL,
    "encryptedJwk" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth2_signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "oauth2_records_grantId_idx" ON "oauth2_records"("grantId");

-- CreateIndex
CREATE INDEX "oauth2_records_uid_idx" ON "oauth2_records"("uid");

-- CreateIndex
CREATE INDEX "oauth2_records_userId_appId_idx" ON "oauth2_records"("userId", "appId");

-- CreateIndex
CREATE INDEX "oauth2_records_appId_idx" ON "oauth2_records"("appId");

-- CreateIndex
CREATE INDEX "oauth2_records_expiresAt_idx" ON "oauth2_records"("expiresAt");

-- AddForeignKey
ALTER TABLE "oauth2_records" ADD CONSTRAINT "oauth2_records_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_records" ADD CONSTRAINT "oauth2_records_appId_fkey" FOREIGN KEY ("appId") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;
