/**
 * The floor of `npm run bench`: what a hand-written endpoint costs on this machine. A bare `node:http` server over a
 * `pg` pool (as many connections as the server's), no framework, no authentication, serving the same answers as
 * Lectern's /v1 group routes with the same JSON envelope and wire shape:
 *
 *   GET  /v1/groups?start&limit   page and total of the district's groups, the two statements issued together
 *   GET  /v1/groups/{id}          one group of the district, one statement
 *   POST /v1/groups               one transaction: the group, its creator's admin membership and the domain event
 *
 * Started by bench/groups.ts as its own process (FLOOR_DATABASE_URL, FLOOR_PORT, FLOOR_DISTRICT_ID, FLOOR_USER_ID),
 * so that it competes with the load generator for the CPU exactly as the server process does.
 */
import { randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });
const port = Number(process.env.FLOOR_PORT);
const districtId = Number(process.env.FLOOR_DISTRICT_ID);
const userId = Number(process.env.FLOOR_USER_ID);

const columns = `g.id, g.title, g.description, g."pictureUrl", g.website, g."accessCode", g."privacyLevel", g."categoryId",
  g."groupCode", g."inviteType", g."memberPost", g."memberPostComment", g."createDiscussion", g."createFiles",
  g."schoolId", g."buildingId"`;
const inDistrict = `FROM groups g JOIN schools s ON s.id = g."schoolId" WHERE s."districtId" = $1`;

type Row = Record<string, string | number | boolean | null>;
const privacyLevels: Record<string, string> = {
  EVERYONE: 'everyone',
  SCHOOL: 'school',
  BUILDING: 'building',
  GROUP: 'group',
  CUSTOM: 'custom',
};
const inviteTypes: Record<string, number> = { INVITE_ONLY: 0, REQUEST_TO_JOIN: 1, ANYONE_CAN_JOIN: 2 };
const bit = (value: unknown) => (value ? 1 : 0);

function wire(row: Row, origin: string) {
  return {
    id: String(row.id),
    title: row.title,
    description: row.description,
    picture_url: row.pictureUrl,
    website: row.website,
    access_code: row.accessCode,
    privacy_level: privacyLevels[row.privacyLevel as string],
    category: row.categoryId === null ? '' : String(row.categoryId),
    group_code: row.groupCode,
    school_id: String(row.schoolId),
    building_id: row.buildingId === null ? '' : String(row.buildingId),
    options: {
      invite_type: inviteTypes[row.inviteType as string],
      member_post: bit(row.memberPost),
      member_post_comment: bit(row.memberPostComment),
      create_discussion: bit(row.createDiscussion),
      create_files: bit(row.createFiles),
    },
    links: { self: `${origin}/v1/groups/${row.id}` },
  };
}

async function list(url: URL, origin: string) {
  const start = Math.max(0, Number(url.searchParams.get('start') ?? 0));
  const limit = Math.min(200, Math.max(1, Number(url.searchParams.get('limit') ?? 20)));
  const [page, count] = await Promise.all([
    pool.query(`SELECT ${columns} ${inDistrict} ORDER BY g.id LIMIT $2 OFFSET $3`, [districtId, limit, start]),
    pool.query(`SELECT count(*)::int AS total ${inDistrict}`, [districtId]),
  ]);
  const total = count.rows[0].total as number;
  const link = (at: number) => `${origin}/v1/groups?start=${at}&limit=${limit}`;
  return {
    status: 200,
    body: {
      group: page.rows.map((row) => wire(row, origin)),
      total,
      links: { self: link(start), ...(start + limit < total ? { next: link(start + limit) } : {}) },
    },
  };
}

async function view(id: number, origin: string) {
  const { rows } = await pool.query(`SELECT ${columns} ${inDistrict} AND g.id = $2`, [districtId, id]);
  if (!rows[0]) return { status: 404, body: { error: 'not found' } };
  return {
    status: 200,
    body: { group: [wire(rows[0], origin)], total: 1, links: { self: `${origin}/v1/groups/${id}` } },
  };
}

const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const accessCode = () =>
  Array.from({ length: 11 }, (_, i) => (i === 5 ? '-' : codeAlphabet[randomInt(codeAlphabet.length)])).join('');

async function create(body: string, origin: string) {
  const input = JSON.parse(body) as { title?: string; description?: string; school_id?: string };
  if (!input.title) return { status: 400, body: { error: 'title is required' } };
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const school = await client.query('SELECT id, "districtId" FROM schools WHERE id = $1 AND "districtId" = $2', [
      Number(input.school_id),
      districtId,
    ]);
    if (!school.rows[0]) {
      await client.query('ROLLBACK');
      return { status: 403, body: { error: 'not your school' } };
    }
    const created = await client.query(
      `INSERT INTO groups ("schoolId", title, description, "accessCode") VALUES ($1, $2, $3, $4) RETURNING *`,
      [school.rows[0].id, input.title, input.description ?? '', accessCode()],
    );
    const group = created.rows[0] as Row;
    await client.query('INSERT INTO group_memberships ("groupId", "userId", admin) VALUES ($1, $2, true)', [
      group.id,
      userId,
    ]);
    await client.query(
      `INSERT INTO domain_events (type, "realmType", "realmId", "objectId", "actorId", "districtId", "schoolId")
       VALUES ('group.create', 'GROUP', $1, $1, $2, $3, $4)`,
      [group.id, userId, districtId, group.schoolId],
    );
    await client.query('COMMIT');
    return { status: 201, body: wire({ ...group, accessCode: group.accessCode }, origin) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    const origin = `http://${request.headers.host}`;
    const url = new URL(request.url ?? '/', origin);
    const single = /^\/v1\/groups\/(\d+)$/.exec(url.pathname);
    try {
      const answer =
        url.pathname === '/v1/groups' && request.method === 'GET'
          ? await list(url, origin)
          : url.pathname === '/v1/groups' && request.method === 'POST'
            ? await create(Buffer.concat(chunks).toString('utf8'), origin)
            : single && request.method === 'GET'
              ? await view(Number(single[1]), origin)
              : { status: 404, body: { error: 'not found' } };
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(answer.body));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  });
}).listen(port, '127.0.0.1', () => process.send?.('ready'));

process.on('SIGTERM', () => void pool.end().then(() => process.exit(0)));
