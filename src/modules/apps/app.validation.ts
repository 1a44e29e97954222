import { z } from 'zod';
import { clearable, createInput, nodeId, requiredText, text, updateInput } from '../../core/validation';

/** Callback URLs an app may name, at most this many (a web app, a desktop app, a staging copy, ...). */
export const maxRedirectUris = 20;

/**
 * An absolute URL with a scheme (https, http for local development, or an app's own scheme for a desktop or mobile
 * app) and no fragment, which a redirect would drop. `oob` is not a URL: it is always allowed and never registered.
 */
const redirectUri = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((value) => URL.canParse(value) && !value.includes('#'), 'must be an absolute URL without a fragment');

const redirectUris = z
  .array(redirectUri)
  .max(maxRedirectUris, `must list at most ${maxRedirectUris} URLs`)
  .describe('Callback URLs the app may send users back to after they approve it; a callback must equal one exactly.');

const members = {
  name: requiredText(255).describe('Name shown to users when they are asked to approve the app.'),
  description: clearable(text(2000), '').describe('What the app does, shown to users beside its name.'),
  redirectUris,
};

export const registerAppSchema = createInput(
  {
    ...members,
    clientType: z
      .enum(['CONFIDENTIAL', 'PUBLIC'])
      .describe(
        'OAuth 2.0 client type, fixed at registration: CONFIDENTIAL (the default) authenticates with its secret, PUBLIC (a browser or mobile app) has none and relies on PKCE.',
      ),
  },
  ['name'],
);
export const updateAppSchema = updateInput(members);

export const revokeAppAuthorizationSchema = createInput(
  {
    appId: nodeId('App').describe('The app to revoke.'),
    userId: nodeId('User').describe(
      'The user the app acts for; the viewer when left out (administrators may name their users).',
    ),
  },
  ['appId'],
);
