import { graphql } from '../graphql/typed-document';

/** What every mutation payload reports when it wrote nothing; REST routes select it beside the payload's object. */
export const UserErrors = graphql(`
  fragment UserErrors on UserError @_unmask {
    field
    code
    message
  }
`);
