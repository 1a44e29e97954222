/**
 * What the fixed stack costs by itself: graphql-yoga, a Pothos schema with its Prisma plugin, and Prisma's client over
 * a `pg` pool (as many connections as the server's), with nothing of Lectern's. No authentication, no permission
 * checks, no query limits, no REST facade. It answers the GraphQL list of `npm run bench` (the same document: a page
 * of 20 groups of the district with the total, the references as ids from their key columns), `group(id)`, and
 * `createGroup`, which does what the floor's create does: in one interactive transaction, the school checked against
 * the district, the group, its creator's admin membership and the domain event.
 *
 * Started by bench/groups.ts as its own process (BARE_DATABASE_URL, BARE_PORT, BARE_DISTRICT_ID, BARE_USER_ID),
 * beside the floor and the server, so that the shares of the floor it prints read as the ceiling for any server built
 * on this stack.
 */
import { randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import { PrismaPg } from '@prisma/adapter-pg';
import { createYoga } from 'graphql-yoga';
import pg from 'pg';
import { PrismaClient } from '../src/generated/prisma/client';
import { InviteType, PrivacyLevel } from '../src/generated/prisma/enums';
import type PrismaTypes from '../src/generated/pothos-types';
import { getDatamodel } from '../src/generated/pothos-types';

const pool = new pg.Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 10 });
const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
const districtId = Number(process.env.BARE_DISTRICT_ID);
const userId = Number(process.env.BARE_USER_ID);

const builder = new SchemaBuilder<{ PrismaTypes: PrismaTypes; DefaultFieldNullability: false }>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: { client: prisma, dmmf: getDatamodel() },
  // Demanded by the option types Lectern's scope-auth plugin declares for every builder; unread without the plugin.
  scopeAuth: { authScopes: () => ({}) },
});

/** A reference answered from its key column, as Lectern's `exposeReference` answers `{ id }`. */
const Ref = builder.objectRef<{ id: number }>('Ref').implement({ fields: (t) => ({ id: t.exposeID('id') }) });
const ref = (id: number | null) => (id === null ? null : { id });

const Group = builder.prismaObject('Group', {
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    pictureUrl: t.exposeString('pictureUrl'),
    website: t.exposeString('website'),
    accessCode: t.exposeString('accessCode'),
    privacyLevel: t.expose('privacyLevel', { type: builder.enumType(PrivacyLevel, { name: 'PrivacyLevel' }) }),
    groupCode: t.exposeString('groupCode'),
    inviteType: t.expose('inviteType', { type: builder.enumType(InviteType, { name: 'InviteType' }) }),
    memberPost: t.exposeBoolean('memberPost'),
    memberPostComment: t.exposeBoolean('memberPostComment'),
    createDiscussion: t.exposeBoolean('createDiscussion'),
    createFiles: t.exposeBoolean('createFiles'),
    category: t.field({
      type: Ref,
      nullable: true,
      select: { categoryId: true },
      resolve: (group) => ref(group.categoryId),
    }),
    school: t.field({ type: Ref, select: { schoolId: true }, resolve: (group) => ({ id: group.schoolId }) }),
    building: t.field({
      type: Ref,
      nullable: true,
      select: { buildingId: true },
      resolve: (group) => ref(group.buildingId),
    }),
  }),
});

const inDistrict = { school: { districtId } };
const GroupPage = builder.objectRef<{ start: number; limit: number }>('GroupPage').implement({
  fields: (t) => ({
    total: t.int({ resolve: () => prisma.group.count({ where: inDistrict }) }),
    items: t.prismaField({
      type: [Group],
      resolve: (query, page) =>
        prisma.group.findMany({
          ...query,
          where: inDistrict,
          orderBy: { id: 'asc' },
          skip: page.start,
          take: page.limit,
        }),
    }),
  }),
});

builder.queryType({
  fields: (t) => ({
    groups: t.field({
      type: GroupPage,
      args: { start: t.arg.int({ defaultValue: 0 }), limit: t.arg.int({ defaultValue: 20 }) },
      resolve: (_root, args) => ({ start: args.start ?? 0, limit: Math.min(args.limit ?? 20, 200) }),
    }),
    group: t.prismaField({
      type: Group,
      nullable: true,
      args: { id: t.arg.int({ required: true }) },
      resolve: (query, _root, args) => prisma.group.findFirst({ ...query, where: { id: args.id, ...inDistrict } }),
    }),
  }),
});

const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const accessCode = () =>
  Array.from({ length: 11 }, (_, i) => (i === 5 ? '-' : codeAlphabet[randomInt(codeAlphabet.length)])).join('');

builder.mutationType({
  fields: (t) => ({
    createGroup: t.prismaField({
      type: Group,
      args: {
        title: t.arg.string({ required: true }),
        description: t.arg.string(),
        schoolId: t.arg.int({ required: true }),
      },
      resolve: (query, _root, args) =>
        prisma.$transaction(async (tx) => {
          const school = await tx.school.findFirstOrThrow({
            where: { id: args.schoolId, districtId },
            select: { id: true },
          });
          const group = await tx.group.create({
            ...query,
            data: {
              schoolId: school.id,
              title: args.title,
              description: args.description ?? '',
              accessCode: accessCode(),
            },
          });
          await tx.groupMembership.create({ data: { groupId: group.id, userId, admin: true }, select: { id: true } });
          await tx.domainEvent.create({
            data: {
              type: 'group.create',
              realmType: 'GROUP',
              realmId: group.id,
              objectId: group.id,
              actorId: userId,
              districtId,
              schoolId: school.id,
            },
            select: { id: true },
          });
          return group;
        }),
    }),
  }),
});

const yoga = createYoga({ schema: builder.toSchema(), logging: false, landingPage: false, graphiql: false });
createServer(yoga).listen(Number(process.env.BARE_PORT), '127.0.0.1');
