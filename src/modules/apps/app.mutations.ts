import type { App } from '../../generated/prisma/client';
import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import { deleteApp, registerApp, revokeAppAuthorization, updateApp } from './app.service';
import { AppClientTypeEnum, RegisteredAppType } from './app.type';
import { registerAppSchema, revokeAppAuthorizationSchema, updateAppSchema } from './app.validation';

// The consumer secret is sealed with the server key, which only the context holds.
payloadMutation('registerApp', {
  description: "Registers a third-party app in the viewer's district (district administrators only).",
  input: registerAppSchema,
  inputDescription: 'The app to register.',
  types: { clientType: AppClientTypeEnum },
  payload: {
    registeredApp: { type: RegisteredAppType, description: 'The app’s new credentials, with their secret.' },
    app: { model: 'App', description: 'The new app, as `apps` lists it.' },
  },
  resolve: async (viewer, input, select, { serverKey }) => {
    const registeredApp = await registerApp(viewer, serverKey, input);
    return { registeredApp, app: await readById<App>('App', select('app'), registeredApp.id) };
  },
});
payloadMutation('updateApp', {
  description: "Changes an app's name, description or redirect URIs.",
  input: withMembers(updateAppSchema, { id: objectIdMember('The app to change.') }),
  inputDescription: 'The app, and changes to it; members left out keep their values.',
  payload: { app: { model: 'App', description: 'The app as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    app: await updateApp(viewer, parseId(id, 'App'), changes, select('app')),
  }),
});
payloadMutation('deleteApp', {
  description: 'Deletes an app: every user’s approval of it and every token it holds stop working.',
  input: objectIdInput('The app to delete.'),
  inputDescription: 'The app to delete.',
  payload: { deletedAppId: { deleted: 'App', description: 'Global id of the deleted app.' } },
  resolve: async (viewer, { id }) => ({ deletedAppId: (await deleteApp(viewer, parseId(id, 'App'))).id }),
});
payloadMutation('revokeAppAuthorization', {
  description:
    "Stops an app acting for the viewer, or for a user whose credentials the viewer manages: the user's approval and the app's tokens for them go.",
  input: revokeAppAuthorizationSchema,
  inputDescription: 'The app, and the user it acts for.',
  payload: {
    revokedAppId: { deleted: 'App', description: 'Global id of the app that no longer acts for the user.' },
  },
  resolve: async (viewer, input) => ({ revokedAppId: (await revokeAppAuthorization(viewer, input)).appId }),
});
