-- CreateEnum
CREATE TYPE "UploadStatus" AS ENUM ('PENDING', 'STORED');

-- CreateEnum
CREATE TYPE "FileKind" AS ENUM ('IMAGE', 'VIDEO', 'AUDIO', 'FILE');

-- CreateTable
CREATE TABLE "uploads" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "filesize" INTEGER NOT NULL,
    "md5Checksum" TEXT NOT NULL,
    "status" "UploadStatus" NOT NULL DEFAULT 'PENDING',
    "kind" "FileKind",
    "mimeType" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "thumbnailWidth" INTEGER,
    "thumbnailHeight" INTEGER,
    "storageKey" TEXT NOT NULL,
    "thumbnailKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "storedAt" TIMESTAMP(3),
    "attachedAt" TIMESTAMP(3),
    "discardedAt" TIMESTAMP(3),

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "albums" (
    "id" SERIAL NOT NULL,
    "realmType" "RealmType" NOT NULL,
    "realmId" INTEGER NOT NULL,
    "creatorId" INTEGER,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "settingComments" BOOLEAN NOT NULL DEFAULT true,
    "settingMemberPost" BOOLEAN NOT NULL DEFAULT false,
    "published" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "albums_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "album_contents" (
    "id" SERIAL NOT NULL,
    "albumId" INTEGER NOT NULL,
    "uploadId" INTEGER NOT NULL,
    "creatorId" INTEGER,
    "caption" TEXT NOT NULL DEFAULT '',
    "displayOrder" INTEGER NOT NULL DEFAULT 0,
    "albumCover" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "album_contents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "album_comments" (
    "id" SERIAL NOT NULL,
    "contentId" INTEGER NOT NULL,
    "authorId" INTEGER NOT NULL,
    "comment" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "album_comments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "uploads_storageKey_key" ON "uploads"("storageKey");

-- CreateIndex
CREATE INDEX "uploads_attachedAt_createdAt_idx" ON "uploads"("attachedAt", "createdAt");

-- CreateIndex
CREATE INDEX "uploads_discardedAt_idx" ON "uploads"("discardedAt");

-- CreateIndex
CREATE INDEX "albums_realmType_realmId_id_idx" ON "albums"("realmType", "realmId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "album_contents_uploadId_key" ON "album_contents"("uploadId");

-- CreateIndex
CREATE INDEX "album_contents_albumId_displayOrder_id_idx" ON "album_contents"("albumId", "displayOrder", "id");

-- CreateIndex
CREATE INDEX "album_comments_contentId_id_idx" ON "album_comments"("contentId", "id");

-- AddForeignKey
ALTER TABLE "album_contents" ADD CONSTRAINT "album_contents_albumId_fkey" FOREIGN KEY ("albumId") REFERENCES "albums"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "album_contents" ADD CONSTRAINT "album_contents_uploadId_fkey" FOREIGN KEY ("uploadId") REFERENCES "uploads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "album_comments" ADD CONSTRAINT "album_comments_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "album_contents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
