-- CreateIndex
CREATE UNIQUE INDEX "calendar_events_start_id_key" ON "calendar_events"("start", "id");

-- CreateIndex
CREATE UNIQUE INDEX "grading_categories_delta_id_key" ON "grading_categories"("delta", "id");

-- CreateIndex
CREATE UNIQUE INDEX "grading_periods_startsOn_id_key" ON "grading_periods"("startsOn", "id");
