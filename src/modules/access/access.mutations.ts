import type { AccessToken, ApiClient } from '../../generated/prisma/client';
import { objectIdInput } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import { issueAccessTokenFor, issueApiClientFor, revokeAccessToken, revokeApiClient } from './access.service';
import { IssuedAccessTokenType, IssuedApiClientType } from './access.type';
import { accessTokenSchema, apiClientSchema } from './access.validation';

// Signing secrets are sealed with the server key, which only the context holds.
payloadMutation('createApiClient', {
  description: 'Issues OAuth consumer credentials for the viewer, or for a user the viewer administers.',
  input: apiClientSchema,
  inputDescription: 'Consumer credentials to issue.',
  payload: {
    issuedApiClient: { type: IssuedApiClientType, description: 'The new credentials, with their secret.' },
    apiClient: { model: 'ApiClient', description: 'The new API client, as `apiClients` lists it.' },
  },
  resolve: async (viewer, input, select, { serverKey }) => {
    const issuedApiClient = await issueApiClientFor(viewer, serverKey, input);
    return {
      issuedApiClient,
      apiClient: await readById<ApiClient>('ApiClient', select('apiClient'), issuedApiClient.id),
    };
  },
});
payloadMutation('createAccessToken', {
  description: 'Issues a bearer token for the viewer.',
  input: accessTokenSchema,
  inputDescription: 'A bearer token to issue for the viewer.',
  payload: {
    issuedAccessToken: { type: IssuedAccessTokenType, description: 'The new token, with its secret.' },
    accessToken: { model: 'AccessToken', description: 'The new access token, as `accessTokens` lists it.' },
  },
  resolve: async (viewer, input, select) => {
    const issuedAccessToken = await issueAccessTokenFor(viewer, input);
    return {
      issuedAccessToken,
      accessToken: await readById<AccessToken>('AccessToken', select('accessToken'), issuedAccessToken.id),
    };
  },
});
payloadMutation('deleteApiClient', {
  description: 'Revokes consumer credentials.',
  input: objectIdInput('The API client to delete.'),
  inputDescription: 'The API client to delete.',
  payload: { deletedApiClientId: { deleted: 'ApiClient', description: 'Global id of the revoked API client.' } },
  resolve: async (viewer, { id }) => ({
    deletedApiClientId: (await revokeApiClient(viewer, parseId(id, 'ApiClient'))).id,
  }),
});
payloadMutation('deleteAccessToken', {
  description: 'Revokes a bearer token.',
  input: objectIdInput('The access token to delete.'),
  inputDescription: 'The access token to delete.',
  payload: {
    deletedAccessTokenId: { deleted: 'AccessToken', description: 'Global id of the revoked access token.' },
  },
  resolve: async (viewer, { id }) => ({
    deletedAccessTokenId: (await revokeAccessToken(viewer, parseId(id, 'AccessToken'))).id,
  }),
});
