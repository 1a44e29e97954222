-- AlterTable
ALTER TABLE "domain_events" ADD COLUMN     "ancestors" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Events recorded before: their own realm, top-level school and district (the events of a building name it as their
-- realm and its school as schoolId, and the building of a group or section was not recorded).
UPDATE "domain_events" SET "ancestors" = ARRAY["realmType"::text || ':' || "realmId"]
  || CASE WHEN "schoolId" IS NOT NULL AND NOT ("realmType" = 'SCHOOL' AND "realmId" = "schoolId")
       THEN ARRAY['SCHOOL:' || "schoolId"] ELSE ARRAY[]::TEXT[] END
  || CASE WHEN "districtId" IS NOT NULL AND NOT ("realmType" = 'DISTRICT' AND "realmId" = "districtId")
       THEN ARRAY['DISTRICT:' || "districtId"] ELSE ARRAY[]::TEXT[] END;

-- CreateIndex
CREATE INDEX "domain_events_ancestors_idx" ON "domain_events" USING GIN ("ancestors");
