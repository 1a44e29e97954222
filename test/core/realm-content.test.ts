import { describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { deleteRealmContents, realmOwnedModels } from '../../src/core/realm-content';
import { writeTransaction } from '../../src/outbox/record';
import { getDatamodel } from '../../src/generated/pothos-types';
import '../../src/graphql/schema';
import { createBlogPosts, createGroup, createSection, createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

// Opens the file's database, which db() answers with.
useTestServer();

/** The domain event log records what happened in a realm; it outlives the realm, for webhook delivery. */
const notOwnedContent = ['DomainEvent'];

describe('realm-owned content', () => {
  it('covers every model that names its realm (realmType and realmId), so no realm delete leaves orphans', () => {
    const models = Object.entries(getDatamodel().datamodel.models)
      .filter(([, model]) =>
        ['realmType', 'realmId'].every((name) => model.fields.some((field) => field.name === name)),
      )
      .map(([name]) => name)
      .filter((name) => !notOwnedContent.includes(name));
    expect(models.length).toBeGreaterThan(0);
    expect(realmOwnedModels().sort()).toEqual(models.sort());
  });

  it("deletes what the named realms own, in the caller's transaction, and nothing else", async () => {
    const world = await createWorld();
    const group = await createGroup(world.school.id);
    const section = await createSection(world.school.id);
    const [doomed] = await createBlogPosts({ type: 'GROUP', id: group.id }, 1);
    const [sectionPost] = await createBlogPosts({ type: 'SECTION', id: section.id }, 1);
    const [kept] = await createBlogPosts({ type: 'SCHOOL', id: world.school.id }, 1);
    // A failing transaction keeps everything.
    await expect(
      writeTransaction(async (tx) => {
        await deleteRealmContents(tx, [{ type: 'GROUP', ids: [group.id] }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await db().blogPost.count({ where: { id: doomed!.id } })).toBe(1);
    await writeTransaction((tx) =>
      deleteRealmContents(tx, [
        { type: 'GROUP', ids: [group.id] },
        { type: 'SECTION', ids: [section.id] },
      ]),
    );
    const remaining = await db().blogPost.findMany({
      where: { id: { in: [doomed!.id, sectionPost!.id, kept!.id] } },
      select: { id: true },
    });
    expect(remaining).toEqual([{ id: kept!.id }]);
  });
});
