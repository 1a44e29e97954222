import { builder } from '../../graphql/builder';

export interface SignInLinkShape {
  url: string;
  expiresAt: Date;
}

export const SignInLinkType = builder.objectRef<SignInLinkShape>('SignInLink').implement({
  description:
    'A one-time link a user opens to choose their password, then signed in (docs/sign-in.md). Hand it to the user ' +
    'only: whoever opens it first sets the password.',
  fields: (t) => ({
    url: t.exposeString('url', {
      description: 'The page to open; it holds the secret token and is shown only in the answer that made it.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'After this the link opens nothing (SIGN_IN_LINK_LIFETIME after it was made).',
    }),
  }),
});
