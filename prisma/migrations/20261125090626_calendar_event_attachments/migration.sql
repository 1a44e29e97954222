-- CreateTable
CREATE TABLE "calendar_event_attachments" (
    "eventId" INTEGER NOT NULL,
    "uploadId" INTEGER NOT NULL,

    CONSTRAINT "calendar_event_attachments_pkey" PRIMARY KEY ("eventId","uploadId")
);

-- CreateIndex
CREATE UNIQUE INDEX "calendar_event_attachments_uploadId_key" ON "calendar_event_attachments"("uploadId");

-- AddForeignKey
ALTER TABLE "calendar_event_attachments" ADD CONSTRAINT "calendar_event_attachments_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "calendar_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "calendar_event_attachments" ADD CONSTRAINT "calendar_event_attachments_uploadId_fkey" FOREIGN KEY ("uploadId") REFERENCES "uploads"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
