-- CreateTable
CREATE TABLE "school_group_counts" (
    "schoolId" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "school_group_counts_pkey" PRIMARY KEY ("schoolId")
);

-- AddForeignKey
ALTER TABLE "school_group_counts" ADD CONSTRAINT "school_group_counts_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "schools"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The counts are kept by the database itself, in the statement that changes `groups`, so that every writer keeps them
-- exact: the services, bulk inserts (createMany, the benchmark's INSERT ... SELECT), and the cascades that delete a
-- school's or a district's groups. A school's count row is locked by the first group written to it until that
-- transaction commits, so concurrent creates in one school queue there for the rest of their transaction. Ids never
-- change, so a move is a change of `schoolId` alone.
INSERT INTO "school_group_counts" ("schoolId", "count")
SELECT "schoolId", count(*) FROM "groups" GROUP BY "schoolId";

-- Prisma's migrate, through the pg driver adapter, splits a script at every semicolon, even inside a function body:
-- the bodies are escaped strings that write theirs as \073.

-- Ordered by school, so that two inserts into several schools lock the counts in the same order (no deadlock).
CREATE FUNCTION "school_group_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "school_group_counts" ("schoolId", "count")
  SELECT "schoolId", count(*) FROM "inserted_groups" GROUP BY "schoolId" ORDER BY "schoolId"
  ON CONFLICT ("schoolId") DO UPDATE SET "count" = "school_group_counts"."count" + EXCLUDED."count"\073
  RETURN NULL\073
END';

-- A school deleted with its groups has lost its count row by its own cascade: nothing to update then.
CREATE FUNCTION "school_group_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "school_group_counts" AS c SET "count" = c."count" - d."n"
  FROM (SELECT "schoolId", count(*) AS "n" FROM "deleted_groups" GROUP BY "schoolId") AS d
  WHERE c."schoolId" = d."schoolId"\073
  RETURN NULL\073
END';

CREATE FUNCTION "school_group_counts_move"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "school_group_counts" SET "count" = "count" - 1 WHERE "schoolId" = OLD."schoolId"\073
  INSERT INTO "school_group_counts" ("schoolId", "count") VALUES (NEW."schoolId", 1)
  ON CONFLICT ("schoolId") DO UPDATE SET "count" = "school_group_counts"."count" + 1\073
  RETURN NULL\073
END';

CREATE TRIGGER "groups_count_insert" AFTER INSERT ON "groups"
REFERENCING NEW TABLE AS "inserted_groups" FOR EACH STATEMENT EXECUTE FUNCTION "school_group_counts_insert"();

CREATE TRIGGER "groups_count_delete" AFTER DELETE ON "groups"
REFERENCING OLD TABLE AS "deleted_groups" FOR EACH STATEMENT EXECUTE FUNCTION "school_group_counts_delete"();

-- Row by row, and only for rows whose school changes: editing a group's title costs nothing here.
CREATE TRIGGER "groups_count_move" AFTER UPDATE OF "schoolId" ON "groups"
FOR EACH ROW WHEN (OLD."schoolId" IS DISTINCT FROM NEW."schoolId") EXECUTE FUNCTION "school_group_counts_move"();
