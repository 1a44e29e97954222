import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type GraphQLClient, clientsFor } from '../support/client';
import { type World, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();
const clients = clientsFor(server);
let chicago: World;
let admin: GraphQLClient;
const realm = () => ({ type: 'DISTRICT', id: String(chicago.district.id) });

const payloadFields = 'calendarEvent { databaseId start end localStart localEnd hasEnd } userErrors { field message }';
/** The event the payload answers, or its userErrors when it wrote nothing. */
const answered = (payload: { calendarEvent: any; userErrors: object[] }) =>
  payload.calendarEvent ?? { userErrors: payload.userErrors };
const create = (input: Record<string, unknown>) =>
  admin(`mutation($input: CreateCalendarEventInput!) { createCalendarEvent(input: $input) { ${payloadFields} } }`, {
    input: { realm: realm(), title: 'Graduation', ...input },
  }).then((response) => answered(response.data.createCalendarEvent));
const update = (id: string, input: Record<string, unknown>) =>
  admin(`mutation($input: UpdateCalendarEventInput!) { updateCalendarEvent(input: $input) { ${payloadFields} } }`, {
    input: { realm: realm(), id, ...input },
  }).then((response) => answered(response.data.updateCalendarEvent));
const stored = (id: string) =>
  db().calendarEvent.findUniqueOrThrow({ where: { id: Number(id) }, select: { start: true, end: true } });

beforeAll(async () => {
  chicago = await createWorld();
  await db().district.update({ where: { id: chicago.district.id }, data: { timeZone: 'America/Chicago' } });
  admin = await clients.graphql(chicago.districtAdmin);
});

describe('calendar event times sent back as they were read', () => {
  it('takes the `start` and `end` instants it answered, and the event does not move', async () => {
    const created = await create({ start: '2026-06-05 18:00:00', hasEnd: true, end: '2026-06-05 20:30:00' });
    expect(created).toMatchObject({
      start: '2026-06-05T23:00:00.000Z',
      end: '2026-06-06T01:30:00.000Z',
      localStart: '2026-06-05 18:00:00',
    });
    const before = await stored(created.databaseId);
    const updated = await update(created.databaseId, { start: created.start, end: created.end });
    expect(updated).toEqual(created);
    expect(await stored(created.databaseId)).toEqual(before);
  });

  it('reads an instant with an offset as that moment, and shows it on the district wall clock', async () => {
    const created = await create({ start: '2026-12-10T19:00:00-05:00' });
    expect(created).toMatchObject({ start: '2026-12-11T00:00:00.000Z', localStart: '2026-12-10 18:00:00' });
    const moved = await update(created.databaseId, { start: '2026-12-11T02:15:30.250+01:00' });
    expect(moved).toMatchObject({ start: '2026-12-11T01:15:30.250Z', localStart: '2026-12-10 19:15:30' });
  });

  it('keeps reading wall-clock text in the district time zone', async () => {
    const created = await create({ start: '2026-01-15 08:00:00' });
    expect(created).toMatchObject({ start: '2026-01-15T14:00:00.000Z', localStart: '2026-01-15 08:00:00' });
  });

  it.each([
    ['a day that does not exist', '2026-02-30T10:00:00Z', "'2026-02-30T10:00:00Z' is not a date and time that exists"],
    ['an hour past 23', '2026-03-01T24:00:00+00:00', "'2026-03-01T24:00:00+00:00' is not a date and time that exists"],
    [
      'an offset past 23 hours',
      '2026-03-01T10:00:00+24:00',
      "'2026-03-01T10:00:00+24:00' is not a date and time that exists",
    ],
    ['a zone name', '2026-03-01T10:00:00 CST', 'must be a date and time as YYYY-MM-DD HH:MM:SS'],
    ['a date alone', '2026-03-01', 'must be a date and time as YYYY-MM-DD HH:MM:SS'],
  ])('refuses %s', async (_case, start, message) => {
    expect(await create({ start })).toEqual({ userErrors: [{ field: ['input', 'start'], message }] });
  });
});

describe('the same round trip over /v1', () => {
  it('takes back the wall-clock times it answered, and the event does not move', async () => {
    const rest = await clients.rest(chicago.districtAdmin);
    const path = `/districts/${chicago.district.id}/events`;
    const created = await rest.post(path, {
      title: 'Concert',
      start: '2026-11-01 01:30:00',
      has_end: 1,
      end: '2026-11-01 03:00:00',
    });
    const read = await rest.get(`${path}/${created.json.id}`);
    const before = await stored(created.json.id);
    const { start, end, has_end } = read.json;
    expect((await rest.put(`${path}/${created.json.id}`, { start, end, has_end })).status).toBe(204);
    expect((await rest.get(`${path}/${created.json.id}`)).text).toBe(read.text);
    expect(await stored(created.json.id)).toEqual(before);
  });
});
