-- CreateTable
CREATE TABLE "web_packages" (
    "id" SERIAL NOT NULL,
    "realmType" "RealmType" NOT NULL,
    "realmId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "creatorId" INTEGER NOT NULL,
    "uploadId" INTEGER NOT NULL,
    "entryPath" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "web_packages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "web_package_files" (
    "packageId" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "contentType" TEXT NOT NULL,

    CONSTRAINT "web_package_files_pkey" PRIMARY KEY ("packageId","path")
);

-- CreateIndex
CREATE UNIQUE INDEX "web_packages_uploadId_key" ON "web_packages"("uploadId");

-- CreateIndex
CREATE INDEX "web_packages_realmType_realmId_id_idx" ON "web_packages"("realmType", "realmId", "id");

-- AddForeignKey
ALTER TABLE "web_package_files" ADD CONSTRAINT "web_package_files_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "web_packages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
