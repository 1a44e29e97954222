-- Access codes as groups draw them: ten letters of an alphabet without 0/O or 1/I (read aloud, typed by hand),
-- XXXXX-XXXXX. A database default, so that every way of creating a section gives it one, and rows already there too.
CREATE FUNCTION new_access_code() RETURNS TEXT LANGUAGE sql VOLATILE AS $$
  SELECT string_agg(
    substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1) || CASE WHEN i = 5 THEN '-' ELSE '' END,
    '' ORDER BY i
  )
  FROM generate_series(1, 10) AS i
$$;

-- AlterTable
ALTER TABLE "sections" ADD COLUMN     "accessCode" TEXT NOT NULL DEFAULT new_access_code();

-- CreateIndex
CREATE INDEX "groups_accessCode_idx" ON "groups"("accessCode");

-- CreateIndex
CREATE UNIQUE INDEX "sections_accessCode_key" ON "sections"("accessCode");
