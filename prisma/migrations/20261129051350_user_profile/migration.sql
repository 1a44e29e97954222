-- AlterTable
ALTER TABLE "users" ADD COLUMN     "gender" TEXT,
ADD COLUMN     "gradYear" INTEGER,
ADD COLUMN     "nameFirstPreferred" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "nameMiddle" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "nameTitle" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "position" TEXT NOT NULL DEFAULT '';
