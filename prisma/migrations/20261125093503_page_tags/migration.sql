-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];
