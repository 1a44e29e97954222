import { graphql } from '../graphql/typed-document';

/** The typed errors every mutation may answer with; REST routes spread it into their result selection. */
export const MutationError = graphql(`
  fragment MutationError on Error @_unmask {
    __typename
    message
    ... on ValidationError { issues { field message } }
  }
`);
