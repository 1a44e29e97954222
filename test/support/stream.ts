import { db } from '../../src/db/database';
import { endOfStream } from '../../src/outbox/stream';

/**
 * Waits until everything committed so far is readable from the event stream: the snapshot horizon has passed a
 * transaction begun now. On PostgreSQL the horizon is the server's, so another test file's open transaction (in
 * another database) holds it back; a test that subscribes, or takes the end of the stream, right after writing would
 * otherwise hear its own earlier writes arrive late, as new events. On PGlite it has always passed.
 */
export async function streamSettled() {
  const [{ txid }] = await db().$queryRaw<{ txid: string }[]>`SELECT pg_current_xact_id()::text AS txid`;
  // Polled by hand, since hooks call it too (expect.poll works only inside a test); bounded to end a broken run.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [{ passed }] = await db().$queryRaw<
      { passed: boolean }[]
    >`SELECT pg_snapshot_xmin(pg_current_snapshot()) > ${txid}::xid8 AS passed`;
    if (passed) return;
    if (Date.now() > deadline)
      throw new Error('the event stream did not reach the transactions committed before it within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The end of the stream once everything committed so far is readable (see `streamSettled`). */
export async function settledEndOfStream() {
  await streamSettled();
  return endOfStream();
}
