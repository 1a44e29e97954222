import { z } from 'zod';
import { type ResultOf, graphql } from '../../graphql/typed-document';
import { type LinkBuilder, type RestRequest, deleteRoute, listRoute, selfLink, viewRoute } from '../../rest/route';
import { UserErrors } from '../../rest/user-errors';
import { webPackageRealms } from './web-package.service';

const RestWebPackage = graphql(
  `fragment RestWebPackage on WebPackage @_unmask { id: databaseId title creatorId sectionId url }`,
);

/** Ids are integers in payloads (spec 2.12); `url` opens the site for the caller only. */
export const webPackageWire = z
  .object({
    id: z.int(),
    title: z.string(),
    uid: z.int().describe('Id of the creating user.'),
    url: z.url().describe('Launch URL: opens the package for the caller only, for 12 to 24 hours.'),
    links: selfLink,
  })
  .meta({ id: 'WebPackage', description: 'A web content package (spec 2.12).' });

function webPackageToWire(item: ResultOf<typeof RestWebPackage>, link: LinkBuilder): z.input<typeof webPackageWire> {
  return {
    id: Number(item.id),
    title: item.title,
    uid: Number(item.creatorId),
    url: item.url,
    links: { self: link(`/sections/${item.sectionId}/web_packages/${item.id}`) },
  };
}

const realms = webPackageRealms;
const sectionOf = (request: RestRequest) => String(request.realm!.id);

export const webPackageRoutes = [
  listRoute({
    path: '/[realm]/web_packages',
    realms,
    summary: 'List the web content packages of a course section',
    item: 'web',
    wire: webPackageWire,
    document: graphql(
      `query($sectionId: ID!, $start: Int!, $limit: Int!) {
        webPackages(sectionId: $sectionId, start: $start, limit: $limit) { total items { ...RestWebPackage } }
      }`,
      [RestWebPackage],
    ),
    variables: (request) => ({ sectionId: sectionOf(request) }),
    shape: webPackageToWire,
  }),
  viewRoute({
    path: '/[realm]/web_packages/{id}',
    realms,
    summary: 'View a web content package',
    wire: webPackageWire,
    document: graphql(
      `query($sectionId: ID!, $id: ID!) { webPackage(sectionId: $sectionId, id: $id) { ...RestWebPackage } }`,
      [RestWebPackage],
    ),
    variables: (request) => ({ sectionId: sectionOf(request), id: request.params.id }),
    shape: webPackageToWire,
  }),
  deleteRoute({
    path: '/[realm]/web_packages/{id}',
    realms,
    summary: 'Delete a web content package and its files',
    document: graphql(
      `mutation($input: DeleteWebPackageInput!) { deleteWebPackage(input: $input) { userErrors { ...UserErrors } } }`,
      [UserErrors],
    ),
    variables: (request) => ({ input: { id: request.params.id!, sectionId: sectionOf(request) } }),
  }),
];
