import { describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { restClientFor } from '../support/client';
import { createCalendarEvent, createDistrict, createSchool, createSection, createUser } from '../support/factories';
import { useTestServer } from '../support/harness';

// A multiget's paths cost what as many GETs cost: a window no test crosses, and a budget of 60 points per user. Its
// answer is one answer: RESPONSE_LIMIT (here 1 kB of long text) bounds all its paths together.
const server = useTestServer({ RATE_LIMIT: '60/1m', RESPONSE_LIMIT: '1kb' });

async function freshTeacher() {
  const school = await createSchool((await createDistrict()).id);
  const user = await createUser(school.id, 'TEACHER');
  return { user, client: await restClientFor(server, user) };
}

const remaining = (headers: Headers) => Number(headers.get('x-ratelimit-remaining'));
const codes = (body: { response: { response_code: number }[] }) => body.response.map((item) => item.response_code);

describe('POST /v1/multiget and the rate limit', () => {
  it('charges each path that runs one point, as its GET, and refuses the paths past the budget with 429', async () => {
    const { user, client } = await freshTeacher();
    const fifty = await client.post('/multiget', { request: Array.from({ length: 50 }, () => `/v1/users/${user.id}`) });
    expect(fifty.status).toBe(207);
    expect(codes(fifty.json)).toEqual(Array(50).fill(200));
    expect(fifty.headers.get('x-ratelimit-limit')).toBe('60');
    expect(remaining(fifty.headers)).toBe(10);

    const single = await client.get(`/users/${user.id}`);
    expect(remaining(single.headers)).toBe(9);

    // Nine points left: the tenth path is refused, and the ones after it are answered with that refusal.
    const over = await client.post('/multiget', { request: Array.from({ length: 12 }, () => `/v1/users/${user.id}`) });
    expect(over.status).toBe(207);
    expect(codes(over.json)).toEqual([...Array(9).fill(200), ...Array(3).fill(429)]);
    const refusal = over.json.response[9];
    expect(refusal.body.error).toMatch(/^Too many requests: the limit is 60 points per 60s/);
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.json.response[11]).toEqual({ ...refusal, location: `/v1/users/${user.id}` });
    expect(remaining(over.headers)).toBe(0);

    expect((await client.get(`/users/${user.id}`)).status).toBe(429);
  });

  it('charges nothing for paths refused before they run, as their GETs would not be', async () => {
    const { user, client } = await freshTeacher();
    const refused = await client.post('/multiget', {
      request: [...Array.from({ length: 49 }, () => '/v1/users/me'), `/v1/users/${user.id}`],
    });
    expect(codes(refused.json)).toEqual([...Array(49).fill(400), 200]);
    expect(remaining(refused.headers)).toBe(59);
  });
});

describe('POST /v1/multiget and RESPONSE_LIMIT', () => {
  it('spends one budget of long text across its paths, as one answer', async () => {
    const { user, client } = await freshTeacher();
    const section = await createSection(user.schoolId, [{ userId: user.id, admin: true }]);
    const event = await createCalendarEvent(
      { type: 'SECTION', id: section.id },
      { start: new Date(Date.UTC(2026, 4, 4)) },
    );
    await db().calendarEvent.update({ where: { id: event.id }, data: { description: 'x'.repeat(600) } });
    const path = `/v1/sections/${section.id}/events?start_date=2026-05-01&end_date=2026-05-31`;

    // 600 bytes fit the budget of 1,024 alone, as one GET; a second 600 in the same answer do not.
    expect((await client.get(path.slice(3))).status).toBe(200);
    const answer = await client.post('/multiget', { request: [path, path, `/v1/users/${user.id}`] });
    expect(codes(answer.json)).toEqual([200, 400, 200]);
    expect(answer.json.response[1].body.error).toMatch(
      /^The answer passed the server's limit \(RESPONSE_LIMIT\) of 1024 bytes/,
    );
  });
});
