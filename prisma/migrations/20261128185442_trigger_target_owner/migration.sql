-- AlterTable
ALTER TABLE "trigger_targets" ADD COLUMN     "ownerId" INTEGER;

-- AddForeignKey
ALTER TABLE "trigger_targets" ADD CONSTRAINT "trigger_targets_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Targets made before owners were kept: the user who made each one, as its create event recorded it.
UPDATE "trigger_targets" t SET "ownerId" = e."actorId"
FROM "domain_events" e
WHERE e."type" = 'trigger_target.create' AND e."objectId" = t."id" AND e."actorId" IN (SELECT "id" FROM "users");
