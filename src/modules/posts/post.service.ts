import { type RealmRef, assertCan, isStorableId } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import { db } from '../../db/database';
import { recordEvent, writeTransaction } from '../../events/record';
import type { Prisma } from '../../generated/prisma/client';
import { NotFoundError } from '../../core/errors';
import { validate } from '../../core/validation';
import { createPostSchema, updatePostSchema } from './post.validation';

type PostQuery = { select?: Prisma.BlogPostSelect };

const postEvent = (type: string, viewer: Viewer, realm: RealmRef, postId: number, facts: { districtId: number; schoolId: number | null }) => ({
  type,
  realm,
  objectId: postId,
  actorId: viewer.id,
  districtId: facts.districtId,
  schoolId: facts.schoolId,
});

/** The post must belong to the realm named in the request, or it is not found there. */
async function assertPostInRealm(realm: RealmRef, id: number) {
  if (!isStorableId(id)) throw new NotFoundError('BlogPost', id);
  const post = await db().blogPost.findFirst({ where: { id, realmType: realm.type, realmId: realm.id }, select: { id: true } });
  if (!post) throw new NotFoundError('BlogPost', id);
}

export async function createPost(viewer: Viewer, realm: RealmRef, input: unknown, query: PostQuery) {
  const facts = await assertCan(viewer, 'administer', realm);
  const data = validate(createPostSchema, input);
  return writeTransaction(async (tx) => {
    const post = await tx.blogPost.create({
      ...query,
      data: { ...data, realmType: realm.type, realmId: realm.id, authorId: viewer.id },
    });
    await recordEvent(tx, postEvent('blog_post.create', viewer, realm, post.id, facts));
    return post;
  });
}

export async function updatePost(viewer: Viewer, realm: RealmRef, id: number, input: unknown, query: PostQuery) {
  const facts = await assertCan(viewer, 'administer', realm);
  const data = validate(updatePostSchema, input);
  await assertPostInRealm(realm, id);
  return writeTransaction(async (tx) => {
    const post = await tx.blogPost.update({ ...query, where: { id }, data });
    await recordEvent(tx, postEvent('blog_post.update', viewer, realm, id, facts));
    return post;
  });
}

export async function deletePost(viewer: Viewer, realm: RealmRef, id: number) {
  const facts = await assertCan(viewer, 'administer', realm);
  await assertPostInRealm(realm, id);
  await writeTransaction(async (tx) => {
    await tx.blogPost.delete({ where: { id } });
    await recordEvent(tx, postEvent('blog_post.delete', viewer, realm, id, facts));
  });
  return { id };
}
