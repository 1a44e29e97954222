-- CreateTable
CREATE TABLE "idempotency_items" (
    "userId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "batch" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "value" BYTEA NOT NULL,

    CONSTRAINT "idempotency_items_pkey" PRIMARY KEY ("userId","key","batch","index")
);

-- AddForeignKey
ALTER TABLE "idempotency_items" ADD CONSTRAINT "idempotency_items_userId_key_fkey" FOREIGN KEY ("userId", "key") REFERENCES "idempotency_keys"("userId", "key") ON DELETE CASCADE ON UPDATE CASCADE;
