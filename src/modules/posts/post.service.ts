import { authorize, realmContentReader, realmFactsFor } from '../../auth/policy';
import { type RealmRef, findByStorableId } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { ownedByRealm } from '../../core/realm-content';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { postPolicy } from './post.policy';
import { createPostSchema, updatePostSchema } from './post.validation';

type PostQuery = { select?: Prisma.BlogPostSelect };

ownedByRealm('BlogPost', (tx, where) => tx.blogPost.deleteMany({ where }));

const everyRealm = ['DISTRICT', 'SCHOOL', 'USER', 'SECTION', 'GROUP'] as const;
const postEvent = (type: `blog_post.${string}`, description: string) =>
  defineEvent(type, { object: 'BlogPost', realms: everyRealm, description });
export const postEvents = {
  create: postEvent('blog_post.create', 'A blog post was written.'),
  update: postEvent('blog_post.update', 'A blog post was changed.'),
  delete: postEvent('blog_post.delete', 'A blog post was deleted.'),
};

export const assertReadable = realmContentReader(postPolicy);

/** The post must belong to the realm named in the request, or it is not found there. */
async function postInRealm(realm: RealmRef, id: number) {
  const post = await findByStorableId(id, (id) =>
    db().blogPost.findFirst({
      where: { id, realmType: realm.type, realmId: realm.id },
      select: { id: true, authorId: true },
    }),
  );
  if (!post) throw new NotFoundError('BlogPost', id);
  return { realm, authorId: post.authorId };
}

export async function createPost(viewer: Viewer, realm: RealmRef, input: unknown, query: PostQuery) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, postPolicy, 'create', realm, realm.id);
  const data = validate(createPostSchema, input);
  return writeTransaction(async (tx) => {
    const post = await tx.blogPost.create({
      ...query,
      data: { ...data, realmType: realm.type, realmId: realm.id, authorId: viewer.id },
    });
    await recordEvent(tx, postEvents.create, { realm, objectId: post.id, actorId: viewer.id, scope: facts });
    return post;
  });
}

export async function updatePost(viewer: Viewer, realm: RealmRef, id: number, input: unknown, query: PostQuery) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, postPolicy, 'update', await postInRealm(realm, id), id);
  const data = validate(updatePostSchema, input);
  return writeTransaction(async (tx) => {
    const post = await tx.blogPost.update({ ...query, where: { id }, data });
    await recordEvent(tx, postEvents.update, { realm, objectId: id, actorId: viewer.id, scope: facts });
    return post;
  });
}

export async function deletePost(viewer: Viewer, realm: RealmRef, id: number) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, postPolicy, 'delete', await postInRealm(realm, id), id);
  await writeTransaction(async (tx) => {
    await tx.blogPost.delete({ where: { id } });
    await recordEvent(tx, postEvents.delete, { realm, objectId: id, actorId: viewer.id, scope: facts });
  });
  return { id };
}
