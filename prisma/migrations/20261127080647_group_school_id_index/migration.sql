-- DropIndex
DROP INDEX "groups_schoolId_idx";

-- CreateIndex
CREATE INDEX "groups_schoolId_id_idx" ON "groups"("schoolId", "id");
