-- AlterTable
ALTER TABLE "webhook_attempts" ALTER COLUMN "latencyMs" DROP NOT NULL;
