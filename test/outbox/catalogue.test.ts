import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, eventCatalogue } from '../../src/outbox/catalogue';
import { recordEvent, writeTransaction } from '../../src/outbox/record';
import { db } from '../../src/db/database';
import '../../src/graphql/schema';
import { createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

useTestServer();

describe('the event catalogue', () => {
  it('lists every event kind the modules record, each with its object type, realms and a description', () => {
    const kinds = eventCatalogue();
    const types = kinds.map((kind) => kind.type);
    expect(new Set(types).size).toBe(types.length);
    for (const kind of kinds) {
      expect(kind.type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(kind.object).toMatch(/^[A-Z]\w+$/);
      expect(kind.realms.length).toBeGreaterThan(0);
      expect(kind.description).toMatch(/\.$/);
    }
    expect(types).toEqual(
      expect.arrayContaining([
        'group.create',
        'blog_post.delete',
        'school.update',
        'building.create',
        'user.create',
        'section.create',
        'enrollment.create',
        'group_member.create',
        'group_category.create',
        'api_client.create',
        'access_token.delete',
      ]),
    );
  });

  it('refuses to record an event its kind does not describe, and the write rolls back with it', async () => {
    const world = await createWorld();
    const noted = defineEvent('test_note.create', {
      object: 'Group',
      realms: ['GROUP'],
      description: 'A note for this test.',
      data: z.object({ words: z.int() }).strict(),
    });
    const scope = { districtId: world.district.id, schoolId: world.school.id };
    const before = await db().domainEvent.count();
    const record = (realm: 'GROUP' | 'SCHOOL', data: { words: unknown }) =>
      writeTransaction((tx) =>
        recordEvent(tx, noted, {
          realm: { type: realm, id: world.school.id },
          objectId: 1,
          actorId: null,
          scope,
          data: data as never,
        }),
      );
    await expect(record('SCHOOL', { words: 3 })).rejects.toThrow(
      'Event test_note.create is not recorded in SCHOOL realms',
    );
    await expect(record('GROUP', { words: 'three' })).rejects.toThrow(/data does not match the catalogue/);
    expect(await db().domainEvent.count()).toBe(before);
    await record('GROUP', { words: 3 });
    expect(await db().domainEvent.count()).toBe(before + 1);
    expect(() =>
      defineEvent('test_note.create', { object: 'Group', realms: ['GROUP'], description: 'Twice.' }),
    ).toThrow('declared twice');
  });
});
