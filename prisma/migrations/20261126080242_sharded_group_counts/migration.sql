-- AlterTable
ALTER TABLE "school_group_counts" DROP CONSTRAINT "school_group_counts_pkey",
ADD COLUMN     "shard" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "school_group_counts_pkey" PRIMARY KEY ("schoolId", "shard");

-- A school's count is the sum of its rows, one per shard. A transaction adds to the row of its connection's shard
-- (the backend process id modulo 8), so creates on different connections no longer queue on one row of the school
-- until they commit. Removals take from the connection's row when the school has one, otherwise from its first: a row
-- may go negative, the sum stays exact. Bodies write their semicolons as \073 (see the migration group_counts).
-- This connection's shard, and the row of a school a removal takes from: the connection's own when the school has one,
-- otherwise the school's first.
CREATE FUNCTION "school_group_counts_shard"() RETURNS smallint LANGUAGE sql STABLE AS
'SELECT (pg_backend_pid() % 8)::smallint';

CREATE FUNCTION "school_group_counts_taken_from"("school" integer) RETURNS smallint LANGUAGE sql STABLE AS E'
SELECT "shard" FROM "school_group_counts" WHERE "schoolId" = "school"
ORDER BY "shard" = "school_group_counts_shard"() DESC, "shard" LIMIT 1';

CREATE OR REPLACE FUNCTION "school_group_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "school_group_counts" ("schoolId", "shard", "count")
  SELECT "schoolId", "school_group_counts_shard"(), count(*) FROM "inserted_groups" GROUP BY "schoolId" ORDER BY "schoolId"
  ON CONFLICT ("schoolId", "shard") DO UPDATE SET "count" = "school_group_counts"."count" + EXCLUDED."count"\073
  RETURN NULL\073
END';

-- A school deleted with its groups has lost its count rows by its own cascade: nothing to update then.
CREATE OR REPLACE FUNCTION "school_group_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "school_group_counts" AS c SET "count" = c."count" - d."n"
  FROM (SELECT "schoolId", count(*) AS "n" FROM "deleted_groups" GROUP BY "schoolId") AS d
  WHERE c."schoolId" = d."schoolId" AND c."shard" = "school_group_counts_taken_from"(d."schoolId")\073
  RETURN NULL\073
END';

CREATE OR REPLACE FUNCTION "school_group_counts_move"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "school_group_counts" SET "count" = "count" - 1
  WHERE "schoolId" = OLD."schoolId" AND "shard" = "school_group_counts_taken_from"(OLD."schoolId")\073
  INSERT INTO "school_group_counts" ("schoolId", "shard", "count") VALUES (NEW."schoolId", "school_group_counts_shard"(), 1)
  ON CONFLICT ("schoolId", "shard") DO UPDATE SET "count" = "school_group_counts"."count" + 1\073
  RETURN NULL\073
END';
