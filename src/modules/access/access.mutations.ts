import { builder } from '../../graphql/builder';
import { NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, required } from '../../graphql/operations';
import { inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { issueAccessTokenFor, issueApiClientFor, revokeAccessToken, revokeApiClient } from './access.service';
import { IssuedAccessTokenType, IssuedApiClientType } from './access.type';
import { accessTokenSchema, apiClientSchema } from './access.validation';

const CreateApiClientInput = inputFromSchema('CreateApiClientInput', apiClientSchema, 'Consumer credentials to issue.');
const CreateAccessTokenInput = inputFromSchema(
  'CreateAccessTokenInput',
  accessTokenSchema,
  'A bearer token to issue for the viewer.',
);

builder.mutationFields((t) => ({
  createApiClient: t.withAuth({ authenticated: true }).field({
    type: IssuedApiClientType,
    description: 'Issues OAuth consumer credentials for the viewer, or for a user the viewer administers.',
    errors: { types: [ValidationError, NotFoundError] },
    args: { input: t.arg(required(CreateApiClientInput, 'The new API client.')) },
    resolve: (_root, { input }, { viewer, serverKey }) => issueApiClientFor(viewer, serverKey, input),
  }),
  createAccessToken: t.withAuth({ authenticated: true }).field({
    type: IssuedAccessTokenType,
    description: 'Issues a bearer token for the viewer.',
    errors: { types: [ValidationError, NotFoundError] },
    args: { input: t.arg(required(CreateAccessTokenInput, 'The new access token.')) },
    resolve: (_root, { input }, { viewer }) => issueAccessTokenFor(viewer, input),
  }),
}));

deleteMutation('deleteApiClient', {
  description: 'Revokes consumer credentials.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The API client to delete.' }) }),
  resolve: (viewer, args) => revokeApiClient(viewer, parseId(args.id, 'ApiClient')),
});
deleteMutation('deleteAccessToken', {
  description: 'Revokes a bearer token.',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The access token to delete.' }) }),
  resolve: (viewer, args) => revokeAccessToken(viewer, parseId(args.id, 'AccessToken')),
});
