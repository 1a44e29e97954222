-- CreateTable
CREATE TABLE "apps" (
    "id" SERIAL NOT NULL,
    "districtId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "consumerKey" TEXT NOT NULL,
    "encryptedSecret" TEXT NOT NULL,
    "redirectUris" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_request_tokens" (
    "id" SERIAL NOT NULL,
    "appId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "encryptedSecret" TEXT NOT NULL,
    "callback" TEXT,
    "callbackConfirmed" BOOLEAN NOT NULL DEFAULT false,
    "approvedById" INTEGER,
    "verifierHash" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "oauth_request_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_authorizations" (
    "id" SERIAL NOT NULL,
    "appId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_authorizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_access_tokens" (
    "id" SERIAL NOT NULL,
    "authorizationId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "encryptedSecret" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "apps_consumerKey_key" ON "apps"("consumerKey");

-- CreateIndex
CREATE INDEX "apps_districtId_idx" ON "apps"("districtId");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_request_tokens_tokenHash_key" ON "oauth_request_tokens"("tokenHash");

-- CreateIndex
CREATE INDEX "oauth_request_tokens_appId_idx" ON "oauth_request_tokens"("appId");

-- CreateIndex
CREATE INDEX "oauth_request_tokens_expiresAt_idx" ON "oauth_request_tokens"("expiresAt");

-- CreateIndex
CREATE INDEX "app_authorizations_appId_idx" ON "app_authorizations"("appId");

-- CreateIndex
CREATE UNIQUE INDEX "app_authorizations_userId_appId_key" ON "app_authorizations"("userId", "appId");

-- CreateIndex
CREATE UNIQUE INDEX "app_access_tokens_tokenHash_key" ON "app_access_tokens"("tokenHash");

-- CreateIndex
CREATE INDEX "app_access_tokens_authorizationId_idx" ON "app_access_tokens"("authorizationId");

-- AddForeignKey
ALTER TABLE "apps" ADD CONSTRAINT "apps_districtId_fkey" FOREIGN KEY ("districtId") REFERENCES "districts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_request_tokens" ADD CONSTRAINT "oauth_request_tokens_appId_fkey" FOREIGN KEY ("appId") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_authorizations" ADD CONSTRAINT "app_authorizations_appId_fkey" FOREIGN KEY ("appId") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_authorizations" ADD CONSTRAINT "app_authorizations_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_access_tokens" ADD CONSTRAINT "app_access_tokens_authorizationId_fkey" FOREIGN KEY ("authorizationId") REFERENCES "app_authorizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
