-- AlterTable
ALTER TABLE "uploads" ADD COLUMN     "thumbnailPending" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "uploads_thumbnailPending_idx" ON "uploads"("thumbnailPending");
