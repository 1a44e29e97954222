-- CreateIndex
CREATE INDEX "domain_events_realmType_realmId_txid_id_idx" ON "domain_events"("realmType", "realmId", "txid", "id");
